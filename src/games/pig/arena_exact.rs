//! The exact probability that one Pig policy beats another, by policy
//! evaluation: no sampling.
//!
//! With both policies fixed the game is a Markov chain over (who moves, the
//! mover's score, the other's score, the turn total). Scores never
//! decrease, so it is solved in layers of decreasing score sum, as the
//! optimal solver does ([`super::solve`]): inside a layer, A's row at
//! scores (i, j) and B's row at (j, i) depend on each other only through
//! their turn-total-0 values (a rolled 1, or a pass, hands the turn over
//! with nothing banked). Every value in A's row is affine in B's value and
//! vice versa, so two affine equations give both exactly; everything else a
//! row reads lies in layers already solved.

use super::arena::PigPolicy;
use crate::arena::ExactChances;

/// Turn-total-0 values of one mover's rows: `at(i, j)` is the probability
/// that A wins when this mover is to move with score `i` against `j`.
struct Rows {
    goal: usize,
    values: Vec<f64>,
}

impl Rows {
    fn new(goal: u32) -> Rows {
        let goal = goal as usize;
        Rows {
            goal,
            values: vec![0.0; goal * goal],
        }
    }

    fn at(&self, i: u32, j: u32) -> f64 {
        self.values[i as usize * self.goal + j as usize]
    }

    fn set(&mut self, i: u32, j: u32, value: f64) {
        self.values[i as usize * self.goal + j as usize] = value;
    }
}

/// `c0 + c1 * x`.
type Affine = (f64, f64);

/// One row: `policy` moves with score `my` against `opp`. `win` is A's
/// probability when this mover wins (1 for A, 0 for B); `other` holds the
/// opponent's rows; `x` stands for `other.at(opp, my)`, not yet known.
/// Returns the row's turn-total-0 value as an affine function of `x`.
fn sweep(policy: &PigPolicy, my: u32, opp: u32, win: f64, other: &Rows, scratch: &mut [Affine]) -> Affine {
    let rules = policy.rules();
    let goal = rules.goal();
    let sides = rules.die_sides();
    let p = 1.0 / f64::from(sides);
    // The value of ending the turn having banked `amount`.
    let bank = |amount: u32| -> Affine {
        let score = my + amount;
        if score >= goal {
            (win, 0.0)
        } else if amount == 0 {
            (0.0, 1.0)
        } else {
            (other.at(opp, score), 0.0)
        }
    };
    for k in (0..goal - my).rev() {
        if policy.holding_wins(my, k) {
            scratch[k as usize] = (win, 0.0);
            continue;
        }
        let hold = bank(rules.banked_on_hold(k));
        let one = bank(rules.banked_on_one());
        let mut roll = (p * one.0, p * one.1);
        for face in 2..=sides {
            let t = k + face;
            let next = if policy.holding_wins(my, t) {
                (win, 0.0)
            } else {
                scratch[t as usize]
            };
            roll.0 += p * next.0;
            roll.1 += p * next.1;
        }
        let r = policy.roll_probability(my, opp, k);
        scratch[k as usize] = (r * roll.0 + (1.0 - r) * hold.0, r * roll.1 + (1.0 - r) * hold.1);
    }
    scratch[0]
}

/// Evaluates A against B under the rules both policies were built for.
/// The policies must end the game with probability 1 (every arena player
/// does: see [`super::pig`]).
pub fn evaluate(a: &PigPolicy, b: &PigPolicy) -> ExactChances {
    let goal = a.rules().goal();
    let mut a_rows = Rows::new(goal);
    let mut b_rows = Rows::new(goal);
    let mut scratch = vec![(0.0, 0.0); goal as usize + 1];
    let top = goal - 1;
    for sum in (0..=2 * top).rev() {
        for i in sum.saturating_sub(top)..=sum.min(top) {
            // A has i, B has j: A's row (i, j) and B's row (j, i).
            let j = sum - i;
            let (a0, a1) = sweep(a, i, j, 1.0, &b_rows, &mut scratch);
            let (b0, b1) = sweep(b, j, i, 0.0, &a_rows, &mut scratch);
            // x = a0 + a1 y, y = b0 + b1 x. Some player rolls at turn total 0
            // with positive probability, so a1 * b1 < 1.
            let x = (a0 + a1 * b0) / (1.0 - a1 * b1);
            a_rows.set(i, j, x);
            b_rows.set(j, i, b0 + b1 * x);
        }
    }
    ExactChances {
        a_first: a_rows.at(0, 0),
        a_second: b_rows.at(0, 0),
    }
}
