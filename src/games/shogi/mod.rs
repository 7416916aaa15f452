//! Shogi: the rules only, for Fairy-Stockfish's positions and moves in
//! USI (the engine itself is wired elsewhere).
//!
//! - [`rules`]: the public face: [`rules::ShogiState`] (a game from a
//!   position and its moves, the end of the game, `impl Game`),
//!   [`rules::perft`], and re-exports of the types below.
//! - `board`: colours, pieces, squares, hands and the position itself.
//! - `sfen`: reading and writing positions in SFEN.
//! - `notation`: moves in USI (`7g7f`, `8h2b+`, `P*5e`).
//! - `movegen`: legal moves, drops and check.
//! - `impasse`: the 24-point declaration when both kings have entered.

mod board;
mod impasse;
mod movegen;
mod notation;
pub mod rules;
mod sfen;
