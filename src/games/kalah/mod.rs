//! Kalah(m, n), the mancala game most often asked for: m houses a side
//! (1..8), n seeds in each at the start (1..8), the standard or the empty
//! capture rule. Solved exactly by a null-window search over the shared
//! transposition table.
//!
//! Layout, one job per module:
//! - [`rules`]: the position (both rows from the mover's side in one
//!   word), sowing, captures, the end of the game;
//! - [`game`]: the rules as the generic layers see them (`impl Game`);
//! - [`solve`]: the exact search and its estimate when the budget ends;
//! - [`endgame`]: the exact values of the positions with few seeds left,
//!   built once a board's searches pay for them;
//! - [`book`]: the opening book, built by `kibitz kalah-book` and compiled
//!   in;
//! - [`api`]: `POST /kalah/move`'s shapes and answer;
//! - [`matches`]: the match adapter and the arena's players;
//! - [`review`]: reviews, exact where solved;
//! - `served`: what the service offers (`ServedGame`).

pub mod book;
pub mod endgame;
pub mod game;
pub mod rules;
pub mod solve;

pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;

pub use api::KalahSolver;
pub use rules::{Capture, KalahState, Layout, Player, Rules};
pub use served::KalahGame;
pub use solve::{analyze, Analysis};
