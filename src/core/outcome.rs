//! How a game ends for the player to move under perfect play, in the words
//! every answer uses.

use serde::{Deserialize, Serialize};

/// The result of the game for the player to move, under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// `"win"`, `"draw"` or `"loss"`, as answers and reviews spell it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }

    /// The outcome of a final margin (the mover's points or seeds minus
    /// the opponent's): its sign.
    pub fn of_margin(margin: f64) -> Outcome {
        if margin > 0.0 {
            Outcome::Win
        } else if margin < 0.0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// The same result from the opponent's view.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// A game's points for it: 1 for a win, a half for a draw.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}
