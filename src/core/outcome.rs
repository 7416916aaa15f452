//! How a game ends for the player to move under perfect play, in the words
//! every answer uses.

/// The result of the game for the player to move, under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

    /// A game's points for it: 1 for a win, a half for a draw.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}
