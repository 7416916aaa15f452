//! The rules of each game: states, moves, validation, outcomes. No search,
//! no HTTP, no SQL.

pub mod pig;
