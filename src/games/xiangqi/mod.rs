//! Xiangqi (Chinese chess): kibitz's rules for Fairy-Stockfish's
//! positions and moves, and the game served with Fairy-Stockfish's
//! evaluations on the engine pool (which never decides legality).
//!
//! - [`rules`]: the public face: [`rules::XiangqiState`] (a game from a
//!   position and its moves, the end of the game, `impl Game`),
//!   [`rules::perft`], and re-exports of the types below.
//! - `board`: sides, pieces, squares and the position itself.
//! - `fen`: reading and writing positions in Fairy-Stockfish's FEN.
//! - `notation`: moves in Fairy-Stockfish's coordinate notation;
//!   [`wxf`]: the readable WXF form (`C2.5`).
//! - `movegen`: legal moves and check.
//! - [`engine`]: the engine's settings and a game as its question.
//! - [`api`]: `POST /xiangqi/move`; [`served`]: its `ServedGame`;
//!   [`matches`]: matches and the arena; [`settings`]: its flags;
//!   [`cli`]: `kibitz perft`.

mod board;
mod fen;
mod movegen;
mod notation;
pub mod rules;
pub mod wxf;

// How the service offers it.
pub mod api;
pub mod engine;
pub mod matches;
mod served;
pub mod settings;

pub use served::XiangqiGame;
