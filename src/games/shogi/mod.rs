//! Shogi: kibitz's rules for positions and moves in USI, and the game
//! served with Fairy-Stockfish's evaluations (spoken to in USI) on the
//! engine pool (which never decides legality).
//!
//! - [`rules`]: the public face: [`rules::ShogiState`] (a game from a
//!   position and its moves, the end of the game, `impl Game`),
//!   [`rules::perft`], and re-exports of the types below.
//! - `board`: colours, pieces, squares, hands and the position itself.
//! - `sfen`: reading and writing positions in SFEN.
//! - `notation`: moves in USI (`7g7f`, `8h2b+`, `P*5e`); [`western`]:
//!   the readable Western form (`P-7f`, `Bx2b+`).
//! - `movegen`: legal moves, drops and check.
//! - `impasse`: the 24-point declaration when both kings have entered.
//! - [`engine`]: the engine's settings and a game as its question.
//! - [`api`]: `POST /shogi/move`; [`served`]: its `ServedGame`;
//!   [`matches`]: matches and the arena; [`settings`]: its flags.

mod board;
mod impasse;
mod movegen;
mod notation;
pub mod rules;
mod sfen;
pub mod western;

// How the service offers it.
pub mod api;
pub mod engine;
pub mod matches;
mod served;
pub mod settings;

pub use served::ShogiGame;
