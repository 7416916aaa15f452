//! The match AI one turn at a time, and a game's options read as
//! `POST /matches` reads them, for code that plays whole games itself (the
//! arena). Going through here keeps the arena's `level:N` the very player a
//! match's AI is at level N (Pig's arena players are policies over its exact
//! table instead), and its options the options a match accepts.

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

use crate::games::pig::solve::PigTable;

use super::engine::{AiContext, MatchError};
use crate::games::pig::matches as pig;

pub(crate) use super::turns::{ai_moves, check_in_a_row, TurnGame};
pub(crate) use crate::games::pig::matches::PigMatch;

/// Reads `options` as `POST /matches` does for `T`, and checks that a game
/// can start from them (whatever a game settles by chance, it can settle).
pub(crate) fn check_options<T: TurnGame>(options: Option<&Value>, ctx: &AiContext) -> Result<(), MatchError> {
    let parsed = T::parse_options(options, ctx)?;
    let mut any_deal = StdRng::seed_from_u64(0);
    T::new_game(&T::settle(parsed, &mut any_deal)?, ctx)?;
    Ok(())
}

/// Pig: rolling and holding on the levels' scale, in that order.
pub fn pig_level_values(table: &PigTable, i: u32, j: u32, k: u32) -> [f64; 2] {
    pig::level_values(table, i, j, k)
}
