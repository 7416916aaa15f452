//! Number Square ("Persegi Bilangan"): the rules.
//!
//! An N x N board of integers. Players alternately take one tile and score
//! its value. A tile may be taken if it is not taken yet and it lies on the
//! board's outer edge or one of its 4 neighbours is taken (diagonal contact
//! does not expose it). The game ends when every tile is taken, or when the
//! taken tiles contain a 4-connected path joining the top row to the bottom
//! row, or the left column to the right column.
//!
//! The taken set is a bitset so that the search can test moves with a few
//! word operations. A 12 x 12 board has 144 tiles, more than a `u128` holds,
//! so the rules are written once over [`TileBits`] and the search picks the
//! narrowest type that fits (`u64` up to 8 x 8, `u128` up to 11 x 11, [`Wide`]
//! for 12 x 12).

pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;
pub mod solve;
pub mod strategies;

pub use matches::Lookahead2;
pub use served::NumberSquareGame;
pub mod rules;

pub use rules::*;
