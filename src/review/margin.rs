//! The value of a move in the games scored by a final margin (Othello's
//! discs, Kalah's seeds): the margin, exact when proved, else the search's
//! estimate, whose points are a logistic of the margin on the game's own
//! scale.

use serde_json::Value;

use super::driver::MoveValue;
use super::outcome_value;
use crate::core::evaluation::Evaluation;

pub(crate) struct MarginValue {
    /// The mover's final margin (exact when `solved`).
    pub score: i32,
    pub solved: bool,
    /// Plies to the end of the game, where the game knows them.
    pub plies: Option<u32>,
    /// Margins this far apart are about a likely win from a likely loss:
    /// the scale on which an estimate becomes points.
    pub per_unit: f64,
}

impl MarginValue {
    /// On the one scale every answer uses: its sign when proved, else a
    /// logistic of the margin on the game's own scale.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::of_margin(f64::from(self.score), self.solved, self.plies, self.per_unit)
    }
}

impl MoveValue for MarginValue {
    type Rank = i32;

    fn rank(&self) -> i32 {
        self.score
    }

    fn points(&self) -> f64 {
        self.evaluation().win_chance
    }

    fn shown(&self) -> Value {
        outcome_value(
            self.evaluation().outcome,
            self.plies.filter(|_| self.solved),
            self.points(),
            Some(self.score),
        )
    }
}
