//! Pig players as policies: each gives the probability of rolling in every
//! state. The same policy drives a sampled game (the arena's runner) and the exact
//! evaluation ([`super::pig_exact`]), so the two can only disagree through
//! the game loop or the evaluation, which is what the tests compare.
//!
//! Two rules hold for every player, so that each game ends and the chain
//! of states stays finite: a player who can win by holding holds, and in
//! standard Pig a deterministic player never holds with turn total 0 (that
//! would pass the turn; it is never better than rolling).

use std::sync::Arc;

use rand::Rng;

use crate::games::pig::solve::PigTable;
use crate::games::pig::{Action, PigRules, Variant};
use crate::matches::levels::{probabilities, MAX_LEVEL};
use crate::matches::players::pig_level_values;

use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;

/// "Keep pace and end race": from this score on (either player's), roll
/// until holding wins.
const KPER_END_RACE: u32 = 71;
/// ... otherwise hold at 21 + round((opponent - mine) / 8).
const KPER_BASE: f64 = 21.0;
const KPER_PACE: f64 = 8.0;

#[derive(Clone, Debug)]
enum Kind {
    /// The table's optimal action.
    Optimal,
    /// The match AI's softmax over the table's action values.
    Level(u8),
    HoldAt(u32),
    Kper,
    Random,
}

#[derive(Clone, Debug)]
pub struct PigPolicy {
    kind: Kind,
    rules: PigRules,
    table: Arc<PigTable>,
}

impl PigPolicy {
    /// `table` is the optimal table for `rules` (the optimal and level players read it).
    pub fn new(strategy: Strategy, table: Arc<PigTable>) -> Result<PigPolicy, ArenaError> {
        let kind = match strategy {
            Strategy::Best => Kind::Optimal,
            Strategy::Level(level) if level >= MAX_LEVEL => Kind::Optimal,
            Strategy::Level(level) => Kind::Level(level),
            Strategy::HoldAt(n) => Kind::HoldAt(n),
            Strategy::Kper => Kind::Kper,
            Strategy::Random => Kind::Random,
            other => return Err(ArenaError::Internal(format!("{other} is not a Pig strategy"))),
        };
        Ok(PigPolicy {
            kind,
            rules: *table.rules(),
            table,
        })
    }

    pub fn rules(&self) -> &PigRules {
        &self.rules
    }

    /// True when holding with turn total `k` reaches the goal.
    pub fn holding_wins(&self, i: u32, k: u32) -> bool {
        i + self.rules.banked_on_hold(k) >= self.rules.goal()
    }

    /// The probability of rolling with score `i`, the opponent's `j` and
    /// turn total `k`.
    pub fn roll_probability(&self, i: u32, j: u32, k: u32) -> f64 {
        if self.holding_wins(i, k) {
            return 0.0;
        }
        let passing = k == 0 && self.rules.variant() == Variant::Standard;
        let rolls_below = |threshold: f64| if passing || f64::from(k) < threshold { 1.0 } else { 0.0 };
        match self.kind {
            Kind::Optimal => {
                let roll = passing || self.table.action(i, j, k) == Action::Roll;
                if roll {
                    1.0
                } else {
                    0.0
                }
            }
            Kind::Level(level) => probabilities(&pig_level_values(&self.table, i, j, k), level)[0],
            Kind::HoldAt(n) => rolls_below(f64::from(n)),
            Kind::Kper => {
                if i >= KPER_END_RACE || j >= KPER_END_RACE {
                    1.0
                } else {
                    let pace = ((f64::from(j) - f64::from(i)) / KPER_PACE).round();
                    rolls_below(KPER_BASE + pace)
                }
            }
            Kind::Random => 0.5,
        }
    }

    pub(crate) fn rolls<R: Rng + ?Sized>(&self, i: u32, j: u32, k: u32, rng: &mut R) -> bool {
        let p = self.roll_probability(i, j, k);
        // Certain choices leave the random stream alone.
        if p >= 1.0 {
            true
        } else if p <= 0.0 {
            false
        } else {
            rng.gen::<f64>() < p
        }
    }
}
