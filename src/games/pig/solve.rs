//! Optimal play of Pig: win probabilities for every state, and decisions.
//!
//! `P(i, j, k)`: the probability that the player to move, with score `i`,
//! opponent score `j` and turn total `k`, wins under optimal play by both.
//!
//! Scores never decrease, so states are solved in layers of decreasing score
//! sum `i + j`. Inside a layer of standard Pig, rows `(i, j, *)` and
//! `(j, i, *)` depend on each other only through their `k = 0` states (a
//! rolled 1 hands the turn over with nothing banked); everything else they
//! read lies in layers already solved. Each such pair is solved exactly: for
//! a fixed choice of actions every value in a row is affine in the other
//! row's `k = 0` value, so two affine equations give both values at once; the
//! choices are then re-taken at the new values until they stop changing
//! (policy iteration on two unknowns, usually two or three rounds). The
//! progressive variant banks at least 1 every turn, so it is acyclic and each
//! state is computed once.

use crate::games::pig::{Action, PigPosition, PigRules, Variant};

/// Rounds of policy iteration allowed per pair before settling for the
/// current estimate; in practice two to four rounds suffice.
const MAX_PAIR_ROUNDS: usize = 200;
/// Two probabilities closer than this are treated as a tie (hold wins ties).
pub const TIE_TOLERANCE: f64 = 1e-12;
/// Pair values are iterated until they move by less than this.
pub const SOLVE_TOLERANCE: f64 = 1e-15;

#[derive(Debug)]
pub struct PigTable {
    rules: PigRules,
    row_start: Vec<usize>,
    values: Vec<f64>,
    /// `first_hold[i * goal + j]`: the smallest turn total at which the
    /// optimal action with scores `(i, j)` is to hold. A decision's
    /// `hold_at` is this whenever its turn total has not passed it, so the
    /// hot path reads it instead of valuing every turn total up to it.
    first_hold: Vec<u32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("a table for {rules:?} needs {expected} values, got {got}")]
pub struct TableShapeError {
    pub rules: PigRules,
    pub expected: usize,
    pub got: usize,
}

/// The answer to "roll or hold?" in one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PigDecision {
    pub action: Action,
    pub win_probability: f64,
    pub roll_win_probability: f64,
    pub hold_win_probability: f64,
    /// The smallest turn total >= the current one at which holding is optimal.
    pub hold_at: Option<u32>,
}

/// A maximal run of turn totals `[from, to]` with the same optimal action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionRange {
    pub action: Action,
    pub from: u32,
    pub to: u32,
}

impl PigTable {
    /// Number of stored states: `i, j < goal` and `k < goal - i` (at
    /// `i + k >= goal` holding wins, so nothing needs storing).
    pub fn state_count(rules: &PigRules) -> usize {
        let goal = rules.goal() as usize;
        goal * goal * (goal + 1) / 2
    }

    fn row_starts(rules: &PigRules) -> Vec<usize> {
        let goal = rules.goal() as usize;
        let mut starts = Vec::with_capacity(goal + 1);
        let mut next = 0;
        for i in 0..=goal {
            starts.push(next);
            next += goal * goal.saturating_sub(i);
        }
        starts
    }

    pub fn from_values(rules: PigRules, values: Vec<f64>) -> Result<Self, TableShapeError> {
        let expected = Self::state_count(&rules);
        if values.len() != expected {
            return Err(TableShapeError {
                rules,
                expected,
                got: values.len(),
            });
        }
        Ok(Self {
            row_start: Self::row_starts(&rules),
            rules,
            values,
            first_hold: Vec::new(),
        }
        .with_first_holds())
    }

    /// Fills [`PigTable::first_hold`] once the values are final.
    fn with_first_holds(mut self) -> Self {
        let goal = self.goal();
        self.first_hold = (0..goal)
            .flat_map(|i| (0..goal).map(move |j| (i, j)))
            .map(|(i, j)| self.scan_hold_at(i, j, 0).unwrap_or(u32::MAX))
            .collect();
        self
    }

    /// The first turn total from `k` on at which holding is optimal.
    fn scan_hold_at(&self, i: u32, j: u32, k: u32) -> Option<u32> {
        (k..=self.goal()).find(|&t| self.action(i, j, t) == Action::Hold)
    }

    /// [`PigTable::scan_hold_at`], read off the precomputed first hold when
    /// `k` has not passed it (every smaller turn total rolls).
    fn hold_at(&self, i: u32, j: u32, k: u32) -> Option<u32> {
        let slot = i as usize * self.goal() as usize + j as usize;
        match self.first_hold.get(slot) {
            Some(&first) if first != u32::MAX && k <= first => Some(first),
            _ => self.scan_hold_at(i, j, k),
        }
    }

    pub fn rules(&self) -> &PigRules {
        &self.rules
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    pub fn size_in_bytes(&self) -> usize {
        Self::bytes_for(&self.rules)
    }

    /// What a table for `rules` takes in memory: its values and its first
    /// holds.
    pub fn bytes_for(rules: &PigRules) -> usize {
        let goal = rules.goal() as usize;
        Self::state_count(rules) * std::mem::size_of::<f64>() + goal * goal * std::mem::size_of::<u32>()
    }

    fn goal(&self) -> u32 {
        self.rules.goal()
    }

    /// Callers guarantee `i, j < goal` and `i + k < goal`.
    fn index(&self, i: u32, j: u32, k: u32) -> usize {
        let row_len = (self.goal() - i) as usize;
        self.row_start[i as usize] + j as usize * row_len + k as usize
    }

    /// `P(i, j, k)` for any scores below the goal and any turn total.
    pub fn win_probability(&self, i: u32, j: u32, k: u32) -> f64 {
        if i + k >= self.goal() {
            1.0
        } else {
            self.values[self.index(i, j, k)]
        }
    }

    /// The probability that the player to move wins after banking so that
    /// their score becomes `new_score`, handing the turn to the opponent.
    fn after_banking(&self, opponent: u32, new_score: u32) -> f64 {
        if new_score >= self.goal() {
            1.0
        } else {
            1.0 - self.win_probability(opponent, new_score, 0)
        }
    }

    /// The values of rolling and of holding, each followed by optimal play.
    pub fn action_values(&self, i: u32, j: u32, k: u32) -> (f64, f64) {
        let rules = &self.rules;
        let hold = self.after_banking(j, i + rules.banked_on_hold(k));
        let sides = rules.die_sides();
        let p = 1.0 / f64::from(sides);
        let mut roll = p * self.after_banking(j, i + rules.banked_on_one());
        for face in 2..=sides {
            roll += p * self.win_probability(i, j, k + face);
        }
        (roll, hold)
    }

    fn best_action(roll: f64, hold: f64) -> Action {
        if roll - hold >= TIE_TOLERANCE {
            Action::Roll
        } else {
            Action::Hold
        }
    }

    pub fn action(&self, i: u32, j: u32, k: u32) -> Action {
        if i + self.rules.banked_on_hold(k) >= self.goal() {
            return Action::Hold;
        }
        let (roll, hold) = self.action_values(i, j, k);
        Self::best_action(roll, hold)
    }

    pub fn decide(&self, state: &PigPosition) -> PigDecision {
        let PigPosition {
            my_score: i,
            opponent_score: j,
            turn_total: k,
        } = *state;
        let hold_at = self.hold_at(i, j, k);
        if state.can_win_by_holding(&self.rules) {
            let (roll, _) = self.action_values(i, j, k);
            return PigDecision {
                action: Action::Hold,
                win_probability: 1.0,
                roll_win_probability: roll,
                hold_win_probability: 1.0,
                hold_at,
            };
        }
        let (roll, hold) = self.action_values(i, j, k);
        let action = Self::best_action(roll, hold);
        PigDecision {
            action,
            win_probability: roll.max(hold),
            roll_win_probability: roll,
            hold_win_probability: hold,
            hold_at,
        }
    }

    /// For scores `(i, j)`, the optimal action over turn totals
    /// `0..goal - i` as maximal ranges (beyond them, holding wins).
    pub fn policy_ranges(&self, i: u32, j: u32) -> Vec<ActionRange> {
        let mut ranges: Vec<ActionRange> = Vec::new();
        for k in 0..self.goal().saturating_sub(i) {
            let action = self.action(i, j, k);
            match ranges.last_mut() {
                Some(last) if last.action == action => last.to = k,
                _ => ranges.push(ActionRange { action, from: k, to: k }),
            }
        }
        ranges
    }
}

/// Solves a whole table. Deterministic, allocation bounded by the table.
pub fn solve(rules: &PigRules) -> PigTable {
    let mut table = PigTable {
        rules: *rules,
        row_start: PigTable::row_starts(rules),
        values: vec![0.0; PigTable::state_count(rules)],
        first_hold: Vec::new(),
    };
    let top = rules.goal() - 1;
    let mut scratch = PairScratch::new(rules.goal() as usize);
    for sum in (0..=2 * top).rev() {
        let low = sum.saturating_sub(top);
        let high = sum.min(top);
        for i in low..=high {
            let j = sum - i;
            if i > j {
                break;
            }
            match rules.variant() {
                Variant::Progressive => {
                    fill_row_directly(&mut table, i, j);
                    if i != j {
                        fill_row_directly(&mut table, j, i);
                    }
                }
                Variant::Standard => solve_pair(&mut table, i, j, &mut scratch),
            }
        }
    }
    table.with_first_holds()
}

/// Acyclic case: every value a row reads is already final.
fn fill_row_directly(table: &mut PigTable, i: u32, j: u32) {
    for k in (0..table.goal() - i).rev() {
        let (roll, hold) = table.action_values(i, j, k);
        let idx = table.index(i, j, k);
        table.values[idx] = roll.max(hold);
    }
}

/// Coefficients `(c0, c1)` of each turn total's value as `c0 + c1 * x`,
/// where `x` is the opponent's `k = 0` value in the mirrored row.
struct PairScratch {
    constant: Vec<f64>,
    slope: Vec<f64>,
}

impl PairScratch {
    fn new(goal: usize) -> Self {
        Self {
            constant: vec![0.0; goal],
            slope: vec![0.0; goal],
        }
    }
}

/// Standard Pig: walks row `(i, j)` from high turn totals down, choosing each
/// action at the estimate `x = P(j, i, 0)`, and returns the affine form of
/// `P(i, j, 0)` in `x`. With `write`, also stores the values at `x`.
fn sweep_row(table: &mut PigTable, i: u32, j: u32, x: f64, scratch: &mut PairScratch, write: bool) -> (f64, f64) {
    let goal = table.goal();
    let sides = table.rules.die_sides();
    let p = 1.0 / f64::from(sides);
    for k in (0..goal - i).rev() {
        // A rolled 1 (and a hold at k = 0) hands over at x: value 1 - x.
        let mut roll = (p, -p);
        for face in 2..=sides {
            let t = k + face;
            if i + t >= goal {
                roll.0 += p;
            } else {
                roll.0 += p * scratch.constant[t as usize];
                roll.1 += p * scratch.slope[t as usize];
            }
        }
        let hold = if k == 0 {
            (1.0, -1.0)
        } else {
            (table.after_banking(j, i + k), 0.0)
        };
        let roll_at_x = roll.0 + roll.1 * x;
        let hold_at_x = hold.0 + hold.1 * x;
        // Rolling wins ties here: holding at k = 0 (a pass) can never be
        // strictly better, and preferring it would make the pair's system
        // singular when both sides pass.
        let chosen = if hold_at_x > roll_at_x { hold } else { roll };
        scratch.constant[k as usize] = chosen.0;
        scratch.slope[k as usize] = chosen.1;
        if write {
            let idx = table.index(i, j, k);
            table.values[idx] = chosen.0 + chosen.1 * x;
        }
    }
    (scratch.constant[0], scratch.slope[0])
}

fn solve_pair(table: &mut PigTable, i: u32, j: u32, scratch: &mut PairScratch) {
    // Start from the neighbouring, already solved states: a close guess
    // means the first choice of actions is usually already the final one.
    let guess = |t: &PigTable, a: u32, b: u32| {
        if b + 1 < t.goal() {
            t.win_probability(a, b + 1, 0)
        } else {
            0.5
        }
    };
    let mut a = guess(table, i, j);
    let mut b = guess(table, j, i);
    for _ in 0..MAX_PAIR_ROUNDS {
        let (a0, a1) = sweep_row(table, i, j, b, scratch, false);
        let (new_a, new_b) = if i == j {
            (a0 / (1.0 - a1), a0 / (1.0 - a1))
        } else {
            let (b0, b1) = sweep_row(table, j, i, a, scratch, false);
            let new_a = (a0 + a1 * b0) / (1.0 - a1 * b1);
            (new_a, b0 + b1 * new_a)
        };
        let settled = (new_a - a).abs() <= SOLVE_TOLERANCE && (new_b - b).abs() <= SOLVE_TOLERANCE;
        a = new_a;
        b = new_b;
        if settled {
            break;
        }
    }
    sweep_row(table, i, j, b, scratch, true);
    if i != j {
        sweep_row(table, j, i, a, scratch, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(goal: i64, sides: i64, variant: Variant) -> PigRules {
        PigRules::new(goal, sides, variant, 200).unwrap()
    }

    /// Bellman residual: every stored value is the better of its two actions.
    fn assert_self_consistent(table: &PigTable) {
        let goal = table.goal();
        for i in 0..goal {
            for j in 0..goal {
                for k in 0..goal - i {
                    let (roll, hold) = table.action_values(i, j, k);
                    let v = table.win_probability(i, j, k);
                    assert!(
                        (v - roll.max(hold)).abs() < 1e-13,
                        "state ({i},{j},{k}): {v} vs {roll}/{hold}"
                    );
                }
            }
        }
    }

    #[test]
    fn solved_tables_satisfy_the_optimality_equations() {
        for variant in Variant::ALL {
            for (goal, sides) in [(1, 2), (2, 6), (7, 3), (25, 6), (30, 12)] {
                assert_self_consistent(&solve(&rules(goal, sides, variant)));
            }
        }
    }

    /// The precomputed first holds answer `hold_at` exactly as scanning
    /// every turn total does, in every state, for tables solved here and
    /// for the same values loaded as from a file.
    #[test]
    fn hold_at_from_the_first_holds_equals_the_scan_in_every_state() {
        for variant in Variant::ALL {
            for (goal, sides) in [(2, 6), (30, 6), (40, 12), (60, 3)] {
                let solved = solve(&rules(goal, sides, variant));
                let loaded = PigTable::from_values(*solved.rules(), solved.values().to_vec()).unwrap();
                let g = solved.goal();
                for table in [&solved, &loaded] {
                    // Every score pair has its first hold (so k = 0 always
                    // takes the fast path).
                    assert_eq!(table.first_hold.len(), (g * g) as usize);
                    assert!(table.first_hold.iter().all(|&first| first <= g));
                    for i in 0..g {
                        for j in 0..g {
                            for k in 0..g - i {
                                assert_eq!(
                                    table.hold_at(i, j, k),
                                    table.scan_hold_at(i, j, k),
                                    "{variant:?} goal {goal} d{sides} ({i}, {j}, {k})"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn goal_one_is_won_by_any_roll_but_a_one() {
        let t = solve(&rules(1, 6, Variant::Standard));
        // x = 5/6 + (1/6)(1 - x)  =>  x = 6/7
        assert!((t.win_probability(0, 0, 0) - 6.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn decisions_hold_when_holding_wins_and_report_hold_at() {
        let r = rules(100, 6, Variant::Standard);
        let t = solve(&r);
        let s = PigPosition::new(&r, 90, 50, 10).unwrap();
        let d = t.decide(&s);
        assert_eq!(d.action, Action::Hold);
        assert_eq!(d.win_probability, 1.0);
        assert_eq!(d.hold_at, Some(10));
        let start = t.decide(&PigPosition::new(&r, 0, 0, 0).unwrap());
        assert_eq!(start.action, Action::Roll);
        let at = start.hold_at.unwrap();
        assert_eq!(t.action(0, 0, at), Action::Hold);
        assert!((0..at).all(|k| t.action(0, 0, k) == Action::Roll));
    }

    #[test]
    fn policy_ranges_cover_every_turn_total_once() {
        let t = solve(&rules(30, 6, Variant::Progressive));
        for (i, j) in [(0, 0), (12, 29), (29, 3)] {
            let ranges = t.policy_ranges(i, j);
            assert_eq!(ranges.first().unwrap().from, 0);
            assert_eq!(ranges.last().unwrap().to, 30 - i - 1);
            for w in ranges.windows(2) {
                assert_eq!(w[0].to + 1, w[1].from);
                assert_ne!(w[0].action, w[1].action);
            }
        }
    }
}
