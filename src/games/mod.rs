//! The rules of each game: states, moves, validation, outcomes. No search,
//! no HTTP, no SQL.

pub mod connect_four;
pub mod game;
pub mod ishitori;
pub mod nine_square;
pub mod number_square;
pub mod pig;
pub mod player;
pub mod tictactoe;
