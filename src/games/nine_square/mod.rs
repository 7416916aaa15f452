//! Nine Square: nine tic-tac-toe boxes in a 9 x 9 grid, played with a die.
//!
//! A turn is a roll of one six-sided die followed by that many single
//! placements by the same player (all remaining empty cells if fewer). A
//! player scores 1 point for every line of three own marks inside one 3 x 3
//! box (its rows, columns and two diagonals; a full box is 8 points) and 3
//! bonus points for every straight line of nine own marks across the grid
//! (9 rows, 9 columns, 2 diagonals). The game ends when the grid is full.
//!
//! The board keeps, for every scoring line, how many marks each player has
//! on it, so placing or removing a mark updates the score by looking at the
//! (at most eight) lines through that cell instead of rescoring the grid.

pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;
pub mod solve;
pub mod strategies;

pub use matches::Greedy;
pub use served::NineSquareGame;
pub mod rules;

pub use rules::*;
