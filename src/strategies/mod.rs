//! The seed papers' simple AIs, kept as named strategies.

pub mod nine_square;
pub mod number_square;
