//! Othello reviews. Options `{size}` (default 8); moves `{"square"}` or
//! `{"pass": true}`, black (X) first. Each position is analysed by the
//! engine: a move's value is its exact final disc difference where the
//! engine proved it (the endgame), else the search's estimate with
//! `exact: false`.

use serde_json::Value;

use super::analyse::OthelloEngine;
use super::board::Othello;
use super::matches::Options;
use super::square::OthelloMove;
use crate::core::outcome::Outcome;
use crate::review::driver::{self, MoveValue, Valuation, Valuer};
use crate::review::{outcome_value, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// Disc differences this far apart are about a likely win from a likely
/// loss: the scale on which an estimate becomes points.
const DISCS_PER_UNIT: f64 = 4.0;

/// A move's value: its score (exact when `solved`, else an estimate).
pub(crate) struct SquareValue {
    score: i32,
    solved: bool,
    empties: u32,
}

impl SquareValue {
    fn outcome(&self) -> Outcome {
        match self.score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}

impl MoveValue for SquareValue {
    type Rank = i32;

    fn rank(&self) -> i32 {
        self.score
    }

    /// A proved score's sign is its outcome; an estimate's points are a
    /// logistic of its discs.
    fn points(&self) -> f64 {
        if self.solved {
            self.outcome().points()
        } else {
            1.0 / (1.0 + (-f64::from(self.score) / DISCS_PER_UNIT).exp())
        }
    }

    fn shown(&self) -> Value {
        outcome_value(
            self.solved.then(|| self.outcome()),
            self.solved.then_some(self.empties),
            self.points(),
            Some(self.score),
        )
    }
}

impl Valuer<Othello> for OthelloEngine {
    type Value = SquareValue;

    fn value(
        &self,
        game: &Othello,
        _played: OthelloMove,
        limits: &SearchLimits,
    ) -> Result<Valuation<OthelloMove, SquareValue>, ReviewError> {
        let empties = game.empties();
        if game.must_pass() {
            // No choice: a pass is the best move, worth the position itself.
            let analysis = self.analyse(game, limits);
            let value = SquareValue {
                score: analysis.score,
                solved: analysis.solved,
                empties,
            };
            let proved = value.solved;
            return Ok(Valuation::Moves {
                moves: vec![(OthelloMove::Pass, value)],
                proved,
            });
        }
        let analysis = self.analyse(game, limits);
        let moves: Vec<(OthelloMove, SquareValue)> = analysis
            .moves
            .iter()
            .map(|m| {
                let value = SquareValue {
                    score: m.score,
                    solved: m.solved,
                    empties,
                };
                (OthelloMove::Play(m.square), value)
            })
            .collect();
        let proved = moves.iter().all(|(_, v)| v.solved);
        Ok(Valuation::Moves { moves, proved })
    }

    fn show(&self, _game: &Othello, mv: OthelloMove) -> Value {
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
    let read = |game: &Othello, mv: &OthelloMove| {
        let mut after = *game;
        after.try_play(*mv).map(|()| *mv).map_err(|e| e.to_string())
    };
    let decisions = driver::replay(
        Othello::new(options.size().map_err(ReviewError::Options)?),
        steps,
        names,
        read,
    )?;
    driver::review("othello", &decisions, names, engine, limits, give_up_inexact)
}
