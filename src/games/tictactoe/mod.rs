//! Tic-tac-toe on m,n,k boards: `rows` x `cols` cells, the first player to
//! get `k` stones in a row (horizontally, vertically or diagonally) wins.
//! X always moves first.
//!
//! [`Position::parse`] turns loose input (row strings and an optional `k`)
//! into a position that is reachable in a real game and not yet over, or
//! into a [`TicTacToeError`] that says what is wrong. A move either continues
//! the game ([`AfterMove::Continues`]) or ends it ([`AfterMove::Over`]), so a
//! [`Position`] always has a player to move and at least one legal move.
//!
//! Default `k`: boards whose sides are both at most 5 use their longer side
//! (3 on 3x3, 4 on 4x4, 4 on 3x4), every other board uses 5. The longer side
//! rather than the shorter one keeps the familiar "fill a whole row" rule on
//! small rectangles; a client who wants something else sends `k`.

pub mod api;
pub(crate) mod matches;
pub mod review;
mod served;
pub mod solve;

pub use served::TicTacToeGame;
pub mod rules;

pub use rules::*;
