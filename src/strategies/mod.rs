//! The seed papers' simple AIs, as functions of a position; the arena plays
//! them as players (`crate::arena::games`).

pub mod nine_square;
pub mod number_square;
