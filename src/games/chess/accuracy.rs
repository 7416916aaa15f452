//! lichess's measures of play (win%, move accuracy, judgments, game
//! accuracy): shared by every engine-evaluated game's reviews, so they
//! live in [`crate::review::lichess`] and [`crate::engines::score`]; chess
//! names them here as before.

pub use crate::engines::score::{win_percent, win_percent_cp, CP_CEILING};
pub use crate::review::lichess::*;
