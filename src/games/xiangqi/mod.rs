//! Xiangqi (Chinese chess): the rules only, for Fairy-Stockfish's
//! positions and moves (the engine itself is wired elsewhere).
//!
//! - [`rules`]: the public face: [`rules::XiangqiState`] (a game from a
//!   position and its moves, the end of the game, `impl Game`),
//!   [`rules::perft`], and re-exports of the types below.
//! - `board`: sides, pieces, squares and the position itself.
//! - `fen`: reading and writing positions in Fairy-Stockfish's FEN.
//! - `notation`: moves in Fairy-Stockfish's coordinate notation.
//! - `movegen`: legal moves and check.

mod board;
mod fen;
mod movegen;
mod notation;
pub mod rules;
