//! Tic-tac-toe (m,n,k) reviews. Options `{rows, cols, k}` as for a match;
//! moves `{row, col}`, X first.
//!
//! Every position is analysed by the shared solver (so a reviewed game
//! warms the memo that `/tictactoe/move` and the AI use, and a game seen
//! before costs memo look-ups). Its values are the solver's: a proved
//! outcome with the plies to the end, or on boards too big to prove within
//! the budget the search's score with `exact: false`.

use serde_json::{json, Value};

use super::matches::{cell_index, CellMove, Options};
use super::solve::{MoveAnalysis, TicTacToeSolver};
use super::TicTacToeState;
use crate::review::driver::{self, MoveValue, Valuation, Valuer};
use crate::review::{outcome_value, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// A move's value: the solver's score (its rank: a faster win or a slower
/// loss scores higher), proved outcome and plies to the end.
impl MoveValue for MoveAnalysis {
    type Rank = i32;

    fn rank(&self) -> i32 {
        self.score
    }

    /// Exact when proved, else the score's estimate.
    fn points(&self) -> f64 {
        self.evaluation().win_chance
    }

    fn shown(&self) -> Value {
        outcome_value(self.outcome, self.plies_to_end, self.points(), Some(self.score))
    }
}

impl Valuer<TicTacToeState> for TicTacToeSolver {
    type Value = MoveAnalysis;

    fn value(
        &self,
        game: &TicTacToeState,
        _played: usize,
        limits: &SearchLimits,
    ) -> Result<Valuation<usize, MoveAnalysis>, ReviewError> {
        let Some(position) = game.position() else {
            return Err(ReviewError::Unavailable("the game is already over".to_string()));
        };
        let analysis = self.analyze(&position, limits);
        // Every move proved: then the best moves are complete too.
        let proved = analysis.solved && analysis.moves.iter().all(|m| m.outcome.is_some());
        Ok(Valuation::Moves {
            moves: analysis.moves.into_iter().map(|m| (m.index, m)).collect(),
            proved,
        })
    }

    fn show(&self, game: &TicTacToeState, index: usize) -> Value {
        let cols = game.board().cols();
        json!({"row": index / cols, "col": index % cols})
    }
}

/// Validates the whole record before any search, then reviews it within
/// `limits`. With `give_up_inexact`, stops (None) at the first position
/// not proved: the cheap first try of a request.
pub fn review(
    solver: &TicTacToeSolver,
    options: &Options,
    steps: &[Step<CellMove>],
    names: [&str; 2],
    limits: &SearchLimits,
    give_up_inexact: bool,
) -> Result<Option<Review>, ReviewError> {
    let decisions = driver::replay(
        TicTacToeState::from(options.start().map_err(ReviewError::Options)?),
        steps,
        names,
        cell_index,
    )?;
    driver::review("tictactoe", &decisions, names, solver, limits, give_up_inexact)
}
