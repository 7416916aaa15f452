//! An engine's evaluation as kibitz answers it: the JSON score
//! (`{"cp": n}` or `{"mate": n}`), lichess's win% of it and its place on
//! the one evaluation scale. Shared by every game an engine evaluates
//! (chess, xiangqi, shogi): lichess's formula is fitted to centipawns,
//! which these engines all report.

use serde::{Deserialize, Serialize};

use super::Score;
use crate::core::evaluation::{lichess_win_chance, Evaluation};
use crate::core::outcome::Outcome;

/// Scores beyond this many centipawns (and mates) count as this.
pub const CP_CEILING: i32 = 1000;

/// Win% (0..100) of a centipawn score from the mover's view.
pub fn win_percent_cp(cp: i32) -> f64 {
    100.0 * lichess_win_chance(f64::from(cp.clamp(-CP_CEILING, CP_CEILING)))
}

/// Win% of an engine score: a mate for the mover counts as +1000 cp, a
/// mate against as -1000.
pub fn win_percent(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => win_percent_cp(cp),
        Score::Mate(n) if n > 0 => win_percent_cp(CP_CEILING),
        Score::Mate(_) => win_percent_cp(-CP_CEILING),
    }
}

/// A score in JSON: `{"cp": n}` or `{"mate": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalScore {
    Cp(i32),
    Mate(i32),
}

impl EvalScore {
    /// The same score from the other side.
    pub fn flipped(self) -> EvalScore {
        match self {
            EvalScore::Cp(cp) => EvalScore::Cp(cp.saturating_neg()),
            EvalScore::Mate(n) => EvalScore::Mate(n.saturating_neg()),
        }
    }

    /// On the one evaluation scale: a proved mate is a win or a loss (its
    /// plies counted: mate in n is 2n - 1 plies away, mated in n 2n), a
    /// centipawn score lichess's win chance.
    pub fn evaluation(self) -> Evaluation {
        match self {
            EvalScore::Cp(cp) => Evaluation::chance(lichess_win_chance(f64::from(cp)), false),
            EvalScore::Mate(n) if n > 0 => Evaluation::proved(
                Outcome::Win,
                n.checked_mul(2).map(|p| p - 1).and_then(|p| u32::try_from(p).ok()),
            ),
            EvalScore::Mate(n) => {
                Evaluation::proved(Outcome::Loss, n.checked_mul(-2).and_then(|p| u32::try_from(p).ok()))
            }
        }
    }

    pub fn to_engine(self) -> Score {
        match self {
            EvalScore::Cp(cp) => Score::Cp(cp),
            EvalScore::Mate(n) => Score::Mate(n),
        }
    }
}

impl From<Score> for EvalScore {
    fn from(score: Score) -> Self {
        match score {
            Score::Cp(cp) => EvalScore::Cp(cp),
            Score::Mate(n) => EvalScore::Mate(n),
        }
    }
}
