//! Othello reviews. Options `{size}` (default 8); moves `{"square"}` or
//! `{"pass": true}`, black (X) first. Each position is analysed by the
//! engine: a move's value is its exact final disc difference where the
//! engine proved it (the endgame), else the search's estimate with
//! `exact: false`.

use serde_json::Value;

use super::matches::Options;
use super::rules::OthelloState;
use super::solve::{OthelloEngine, DISCS_PER_UNIT};
use super::square::OthelloMove;
use crate::review::driver::{self, Valuation, Valuer};
use crate::review::margin::MarginValue;
use crate::review::{Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// A move's value: its disc difference, the empties its plies to the end.
fn square_value(score: i32, solved: bool, empties: u32) -> MarginValue {
    MarginValue {
        score,
        solved,
        plies: Some(empties),
        per_unit: DISCS_PER_UNIT,
    }
}

impl Valuer<OthelloState> for OthelloEngine {
    type Value = MarginValue;

    fn value(
        &self,
        game: &OthelloState,
        _played: OthelloMove,
        limits: &SearchLimits,
    ) -> Result<Valuation<OthelloMove, MarginValue>, ReviewError> {
        let empties = game.empties();
        if game.must_pass() {
            // No choice: a pass is the best move, worth the position itself.
            let analysis = self.analyze(game, limits);
            let value = square_value(analysis.score, analysis.solved, empties);
            let proved = value.solved;
            return Ok(Valuation::Moves {
                moves: vec![(OthelloMove::Pass, value)],
                proved,
            });
        }
        let analysis = self.analyze(game, limits);
        let moves: Vec<(OthelloMove, MarginValue)> = analysis
            .moves
            .iter()
            .map(|m| (OthelloMove::Play(m.square), square_value(m.score, m.solved, empties)))
            .collect();
        let proved = moves.iter().all(|(_, v)| v.solved);
        Ok(Valuation::Moves { moves, proved })
    }

    fn show(&self, _game: &OthelloState, mv: OthelloMove) -> Value {
        serde_json::to_value(mv).unwrap_or(Value::Null)
    }
}

/// Validates the whole record, then reviews it within `limits` (a quick
/// try, `give_up_inexact`, answers None unless every value is proved).
pub fn review(
    engine: &OthelloEngine,
    options: &Options,
    steps: &[Step<OthelloMove>],
    names: [&str; 2],
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let read = |game: &OthelloState, mv: &OthelloMove| {
        let mut after = *game;
        after.try_play(*mv).map(|()| *mv).map_err(|e| e.to_string())
    };
    let decisions = driver::replay(
        OthelloState::new(options.size().map_err(ReviewError::Options)?),
        steps,
        names,
        read,
    )?;
    driver::review("othello", &decisions, names, engine, limits, give_up_inexact)
}
