//! Two-player Pig with one die: the rules, as both variants define them.
//!
//! A turn: roll; a 1 ends the turn, banking nothing ("standard") or exactly
//! one point ("progressive", where every turn scores, so the game cannot
//! cycle); any other face adds to the turn total; holding banks the turn
//! total (at least 1 in the progressive variant). First to `goal` wins.
//!
//! Pig's folder: these rules, the exact table ([`solve`]) and its files and
//! cache ([`tables`]), its answers ([`api`]), the match adapter, the
//! review, the arena's policies and what it serves ([`Pig`]).

pub mod api;
pub mod arena;
pub mod arena_exact;
pub mod cli;
pub(crate) mod matches;
pub mod review;
mod served;
pub mod settings;
pub mod solve;
pub mod tables;

pub use served::PigGame;
pub mod rules;

pub use rules::*;
