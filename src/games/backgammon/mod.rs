//! Backgammon, money game or match play with the doubling cube. kibitz
//! knows the rules and answers small races exactly; the evaluation of
//! other positions comes from GNU Backgammon.
//!
//! Layout, one job per module:
//! - [`board`]: the position from the side to move, its checks, pips;
//! - [`position_id`]: GNU Backgammon's Position ID, both ways;
//! - [`plays`]: the legal plays for a roll, as distinct positions;
//! - [`rules`]: the end of a game, the cube, the match score (and the
//!   above re-exported);
//! - [`bearoff`]: the exact two-sided bear-off table;
//! - [`gnubg`]: GNU Backgammon's evaluations, from a bounded pool of
//!   processes (never linked: it is GPL);
//! - [`api`]: the HTTP shapes of `/backgammon/move` and `/cube`;
//! - [`answer`]: their answers, from the exact table or gnubg;
//! - [`settings`]: the flags of the gnubg pool;
//! - [`game`]: a match's state through the `Game` trait (cube, dice,
//!   games to N points);
//! - [`matches`]: matches and the arena, the AI on gnubg's levels;
//! - [`review`]: a match's decisions judged in equity, error rate, luck;
//! - [`served`]: the game as the registry serves it.

pub mod answer;
pub mod api;
pub mod bearoff;
pub mod board;
pub mod game;
pub mod gnubg;
pub mod matches;
pub mod plays;
pub mod position_id;
pub mod review;
pub mod rules;
pub mod served;
pub mod settings;

pub use rules::*;
