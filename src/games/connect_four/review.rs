//! Connect Four reviews. Options `{cols, rows, k}` as for `/connect-four/move`
//! (default 7 x 6, k = 4); moves `{column}` (1-based), X first.
//!
//! Every position is analysed by the shared solver: a column's value is
//! its exact score (the standard solvers' convention, as in
//! `/connect-four/move`) turned into an outcome and plies to the end, or,
//! where the budget ran out before a column was solved (early positions of
//! big grids), the shallow search's estimate with `exact: false`.

use serde_json::{json, Value};

use super::matches::{ColumnMove, Options};
use super::solve::ConnectFourSolver;
use super::ConnectFourState;
use crate::core::outcome::Outcome;
use crate::review::driver::{self, MoveValue, Valuation, Valuer};
use crate::review::{outcome_value, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// A column's value: its score (exact when `solved`, else the shallow
/// search's estimate) and the outcome and plies to the end it means.
pub(crate) struct ColumnValue {
    score: i32,
    solved: bool,
    outcome: Outcome,
    plies: u32,
}

impl MoveValue for ColumnValue {
    type Rank = i32;

    fn rank(&self) -> i32 {
        self.score
    }

    /// By the score's sign (a proved score's sign is its outcome; an
    /// estimate's is the search's guess).
    fn points(&self) -> f64 {
        match self.score {
            0 => 0.5,
            s if s > 0 => 1.0,
            _ => 0.0,
        }
    }

    fn shown(&self) -> Value {
        outcome_value(
            self.solved.then_some(self.outcome),
            self.solved.then_some(self.plies),
            self.points(),
            Some(self.score),
        )
    }
}

impl Valuer<ConnectFourState> for ConnectFourSolver {
    type Value = ColumnValue;

    fn value(
        &self,
        game: &ConnectFourState,
        _played: u32,
        limits: &SearchLimits,
    ) -> Result<Valuation<u32, ColumnValue>, ReviewError> {
        let analysis = self.analyze(game, limits);
        // A full column has no score.
        let moves: Vec<(u32, ColumnValue)> = analysis
            .columns
            .iter()
            .filter_map(|c| {
                let score = c.score?;
                let (outcome, plies) = analysis.verdict(score);
                let value = ColumnValue {
                    score,
                    solved: c.solved,
                    outcome,
                    plies,
                };
                Some((c.column, value))
            })
            .collect();
        let proved = moves.iter().all(|(_, v)| v.solved);
        Ok(Valuation::Moves { moves, proved })
    }

    fn show(&self, _game: &ConnectFourState, column: u32) -> Value {
        json!({"column": column + 1})
    }
}

/// Validates the whole record, then reviews it within `limits` (see
/// `tictactoe::review` for `give_up_inexact`).
pub fn review(
    solver: &ConnectFourSolver,
    options: &Options,
    steps: &[Step<ColumnMove>],
    names: [&str; 2],
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let read = |game: &ConnectFourState, mv: &ColumnMove| game.check_column(mv.column).map_err(|e| e.to_string());
    let decisions = driver::replay(
        ConnectFourState::new(options.shape().map_err(ReviewError::Options)?),
        steps,
        names,
        read,
    )?;
    driver::review("connect-four", &decisions, names, solver, limits, give_up_inexact)
}
