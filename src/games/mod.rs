//! One folder per game: its rules, its solver, its endpoint's shapes, its
//! match adapter, its review and what it serves (see `crate::registry`).

pub mod backgammon;
pub mod chess;
pub mod connect_four;
pub mod ishitori;
pub mod kalah;
pub mod nine_square;
pub mod number_square;
pub mod othello;
pub mod pig;
pub mod shogi;
pub mod tictactoe;
pub mod xiangqi;

/// The `Game` trait where the games first found it (it is `crate::core`'s).
pub use crate::core::game;
