//! Connect Four on grids of 4..9 columns by 4..9 rows, `k` in a line to win
//! (default 4). Stones drop to the lowest free cell of a column; X moves
//! first.
//!
//! [`ConnectFour::from_moves`] (the standard solvers' column string, "4453")
//! and [`ConnectFour::from_rows`] (row strings, top row first) turn loose
//! input into a position that a real game reaches and that is not over, or
//! into a [`ConnectFourError`] naming the problem. The search works on
//! [`board::Board`], generic over the word the grid fits in.

pub mod api;
pub mod bits;
pub mod board;
pub mod book;
pub mod cli;
pub(crate) mod matches;
pub mod review;
pub mod search;
mod served;

pub use served::ConnectFourGame;
pub mod rules;
pub mod solve;
pub mod table;

pub use rules::*;
