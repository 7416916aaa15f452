//! lichess's measures of play (win%, move accuracy, judgments, game
//! accuracy): shared by every engine-evaluated game's reviews, so they
//! live in [`crate::review::lichess`]; chess names them here as before.

pub use crate::review::lichess::*;
