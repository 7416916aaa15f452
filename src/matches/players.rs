//! The match AI one turn at a time, and a game's options read as
//! `POST /matches` reads them, for code that plays whole games itself (the
//! arena). Going through here keeps the arena's `level:N` the very player a
//! match's AI is at level N (a game may have its own instead: Pig's are
//! policies over its exact table), and its options the options a match
//! accepts.

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

use super::engine::{AiContext, MatchError};

pub(crate) use super::turns::{ai_moves, check_in_a_row, read_rules, TurnGame};

/// Reads `options` as `POST /matches` does for `T`, and checks that a game
/// can start from them (whatever a game settles by chance, it can settle).
pub(crate) fn check_options<T: TurnGame>(options: Option<&Value>, ctx: &AiContext) -> Result<(), MatchError> {
    let parsed = read_rules::<T>(options, ctx.solvers)?;
    let mut any_deal = StdRng::seed_from_u64(0);
    T::new_game(&T::settle(parsed, &mut any_deal)?, ctx)?;
    Ok(())
}
