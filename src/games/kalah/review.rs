//! Kalah reviews. Options `{houses, seeds, capture}`; moves `{"house"}`,
//! South first, a player who earned another move moving again. Each
//! position is analysed by the solver: a move's value is its exact final
//! margin where proved, else the search's estimate with `exact: false`.

use serde_json::Value;

use super::api::KalahSolver;
use super::matches::{HouseMove, Options};
use super::rules::KalahState;
use super::solve::SEEDS_PER_UNIT;
use crate::review::driver::{self, Valuation, Valuer};
use crate::review::margin::MarginValue;
use crate::review::{Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

impl Valuer<KalahState> for KalahSolver {
    type Value = MarginValue;

    fn value(
        &self,
        game: &KalahState,
        _played: u8,
        limits: &SearchLimits,
    ) -> Result<Valuation<u8, MarginValue>, ReviewError> {
        let analysis = self.analyze(game, limits);
        let moves: Vec<(u8, MarginValue)> = analysis
            .houses
            .iter()
            .map(|h| {
                let value = MarginValue {
                    score: h.value,
                    solved: h.solved,
                    plies: None,
                    per_unit: SEEDS_PER_UNIT,
                };
                (h.house, value)
            })
            .collect();
        let proved = moves.iter().all(|(_, v)| v.solved);
        Ok(Valuation::Moves { moves, proved })
    }

    fn show(&self, _game: &KalahState, house: u8) -> Value {
        serde_json::to_value(HouseMove { house }).unwrap_or(Value::Null)
    }
}

/// Validates the whole record, then reviews it within `limits` (a quick
/// try, `give_up_inexact`, answers None unless every value is proved).
pub fn review(
    solver: &KalahSolver,
    options: &Options,
    steps: &[Step<HouseMove>],
    names: [&str; 2],
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let read = |game: &KalahState, mv: &HouseMove| {
        let mut after = *game;
        after.play(mv.house).map(|_| mv.house)
    };
    let rules = options.rules().map_err(ReviewError::Options)?;
    let decisions = driver::replay(rules.start(), steps, names, read)?;
    driver::review("kalah", &decisions, names, solver, limits, give_up_inexact)
}
