//! Ishitori, the subtraction game of the seed paper, generalised: from one or
//! several heaps of stones, a move takes an amount listed in the take set
//! from one heap.
//!
//! - Misère play (`misere: true`, the seed's "get last, lost"): whoever makes
//!   the last move loses, so a player left with no legal move wins.
//! - Normal play (`misere: false`): a player with no legal move loses.
//!
//! Limits (so that the solver's period detection and search stay bounded):
//! at most [`MAX_TAKE_AMOUNTS`] take amounts, each from 1 to
//! [`MAX_TAKE_AMOUNT`]; at most [`MAX_HEAPS`] heaps, each up to 2^64-1.
//!
//! This module holds the rules: validation, moves, the end of the game; its
//! solver, match adapter, review and endpoint are its submodules.

pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;
pub mod solve;

pub use served::IshitoriGame;
pub mod rules;

pub use rules::*;
