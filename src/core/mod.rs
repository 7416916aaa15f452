//! What every game and every generic layer shares: the `Game` trait, the
//! seats and marks of two-player games, outcomes, the one evaluation scale
//! and the problem type every answer's error is. The bottom floor: it imports nothing of the crate.

pub mod evaluation;
pub mod game;
pub mod outcome;
pub mod player;
pub mod problem;
