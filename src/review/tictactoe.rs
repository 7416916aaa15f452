//! Tic-tac-toe (m,n,k) reviews. Options `{rows, cols, k}` as for a match;
//! moves `{row, col}`, X first.
//!
//! Every position is analysed by the shared solver (so a reviewed game
//! warms the memo that `/tictactoe/move` and the AI use, and a game seen
//! before costs memo look-ups). Its values are the solver's: a proved
//! outcome with the plies to the end, or on boards too big to prove within
//! the budget the search's score with `exact: false`.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{
    check_seat, first_player_value, judge, outcome_points, outcome_value, seat_of, Budget, Entry, Review, ReviewError,
    Step,
};
use crate::games::game::Seat;
use crate::games::tictactoe::{AfterMove, Position, TicTacToeError};
use crate::solve::limits::SearchLimits;
use crate::solve::tictactoe::{Analysis, MoveAnalysis, TicTacToeSolver};

/// An unproved score at this magnitude counts as a quarter of a game
/// either way (the solver's estimates stay within 500,000).
const HEURISTIC_SCALE: f64 = 500_000.0;

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Options {
    pub rows: Option<i64>,
    pub cols: Option<i64>,
    pub k: Option<i64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CellMove {
    pub row: i64,
    pub col: i64,
}

/// The opening position of these options.
pub fn start(options: &Options) -> Result<Position, ReviewError> {
    let side = |v: Option<i64>, name: &str| -> Result<usize, ReviewError> {
        match v {
            None => Ok(3),
            Some(n) => usize::try_from(n)
                .ok()
                .filter(|n| (1..=19).contains(n))
                .ok_or_else(|| ReviewError::Options(format!("{name} must be an integer from 1 to 19 (got {n})"))),
        }
    };
    let rows = side(options.rows, "rows")?;
    let cols = side(options.cols, "cols")?;
    let k = Position::win_length(options.k).map_err(|e| ReviewError::Options(e.to_string()))?;
    Position::new_game(rows, cols, k).map_err(|e| ReviewError::Options(e.to_string()))
}

/// Replays the record: the position before each move and the cell played.
fn replay(
    options: &Options,
    steps: &[Step<CellMove>],
    names: [&str; 2],
) -> Result<Vec<(Position, usize)>, ReviewError> {
    let mut position = Some(start(options)?);
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let Some(current) = position.take() else {
            return Err(ReviewError::at(i, "the game is already over"));
        };
        check_seat(i, step.seat, seat_of(current.to_move()), names)?;
        let off_board = || TicTacToeError::OffBoard {
            row: usize::try_from(step.mv.row).unwrap_or(usize::MAX),
            col: usize::try_from(step.mv.col).unwrap_or(usize::MAX),
            rows: current.rows(),
            cols: current.cols(),
        };
        let index = match (usize::try_from(step.mv.row), usize::try_from(step.mv.col)) {
            (Ok(r), Ok(c)) => current.board().index_of(r, c),
            _ => None,
        };
        let Some(index) = index else {
            let message = if step.mv.row < 0 || step.mv.col < 0 {
                format!(
                    "row {}, column {} is off the board; rows and columns count from 0",
                    step.mv.row, step.mv.col
                )
            } else {
                off_board().to_string()
            };
            return Err(ReviewError::at(i, message));
        };
        let after = current.play(index).map_err(|e| ReviewError::at(i, e.to_string()))?;
        out.push((current, index));
        if let AfterMove::Continues(next) = after {
            position = Some(next);
        }
    }
    Ok(out)
}

/// A move's points for the mover: exact when proved, else the score's
/// estimate mapped into (0.25, 0.75).
fn points(m: &MoveAnalysis) -> f64 {
    match m.outcome {
        Some(outcome) => outcome_points(outcome),
        None => 0.5 + 0.25 * (f64::from(m.score) / HEURISTIC_SCALE).clamp(-1.0, 1.0),
    }
}

fn value_of(m: &MoveAnalysis) -> Value {
    outcome_value(m.outcome, m.plies_to_end, points(m), Some(m.score))
}

fn entry(position: &Position, played: usize, analysis: &Analysis, ply: u64, actor: &str, seat: Seat) -> Entry {
    let cols = position.cols();
    let cell = |index: usize| json!({"row": index / cols, "col": index % cols});
    let top = analysis.moves.iter().map(|m| m.score).max().unwrap_or(0);
    let best = analysis.moves.iter().find(|m| m.score == top);
    let mine = analysis.moves.iter().find(|m| m.index == played);
    let (before, after) = match (best, mine) {
        (Some(b), Some(m)) => (b, m),
        // The solver lists every legal move; this is unreachable.
        _ => {
            return Entry {
                ply,
                actor: actor.to_string(),
                mv: cell(played),
                best_moves: Vec::new(),
                value_before: Value::Null,
                value_played: Value::Null,
                loss: 0.0,
                judgment: judge(0.0, false),
                exact: false,
                value: 0.0,
            }
        }
    };
    let loss = (points(before) - points(after)).max(0.0);
    // Every move proved: then best_moves is complete too.
    let exact = analysis.solved && analysis.moves.iter().all(|m| m.outcome.is_some());
    Entry {
        ply,
        actor: actor.to_string(),
        mv: cell(played),
        best_moves: analysis
            .moves
            .iter()
            .filter(|m| m.score == top)
            .map(|m| cell(m.index))
            .collect(),
        value_before: value_of(before),
        value_played: value_of(after),
        loss,
        judgment: judge(loss, after.score == top),
        exact,
        value: first_player_value(seat, points(after)),
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
    let positions = replay(options, steps, names)?;
    let mut budget = Budget::new(limits, positions.len());
    let mut entries = Vec::with_capacity(positions.len());
    // Last position first: the late ones are quick to solve and fill the
    // memo that the early ones (the costly ones) then reuse.
    for ((position, played), step) in positions.iter().zip(steps).rev() {
        let analysis = solver.analyse(position, &budget.next());
        let seat = seat_of(position.to_move());
        let e = entry(position, *played, &analysis, step.ply, names[seat], seat);
        if give_up_inexact && !e.exact {
            return Ok(None);
        }
        entries.push(e);
    }
    entries.reverse();
    Ok(Some(Review::new("tictactoe", names, entries)))
}
