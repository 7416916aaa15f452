//! Othello (Reversi) on 4x4, 6x6 and 8x8 boards: the rules on bitboards,
//! an exact endgame solver, a midgame search, and the simple players.
//!
//! Layout, one job per module:
//! - [`geometry`]: sizes and the masks of each board;
//! - [`bits`]: move generation and flips with shifts and rays;
//! - [`square`]: square names (a1 top-left) and the move type;
//! - [`rules`]: the game state and `impl Game`;
//! - [`parse`]: row strings and a player into a position, or a typed error;
//! - [`stability`]: discs that can never be turned;
//! - [`endgame`]: the exact solver;
//! - [`eval`], [`midgame`]: the estimate and the depth-limited search;
//! - [`solve`]: the engine that puts them together under the limits;
//! - [`players`]: greedy and the levels.

pub mod bits;
pub mod endgame;
pub mod eval;
pub mod geometry;
pub mod midgame;
pub mod parse;
pub mod players;
pub mod rules;
pub mod solve;
pub mod square;
pub mod stability;

pub use geometry::Size;
pub use parse::{parse_position, OthelloParseError};
pub use players::{greedy_move, level_settings, level_value};
pub use rules::{OthelloState, BLACK, WHITE};
pub use solve::{exact_reach, Analysis, MoveValue, OthelloEngine, Settings, Solution};
pub use square::{OthelloMove, Square};

// How the service offers it: its endpoint, match adapter, review and
// ServedGame.
pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;

pub use served::OthelloGame;
