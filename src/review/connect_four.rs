//! Connect Four reviews. Options `{cols, rows, k}` as for `/connect-four/move`
//! (default 7 x 6, k = 4); moves `{column}` (1-based), X first.
//!
//! Every position is analysed by the shared solver: a column's value is
//! its exact score (the standard solvers' convention, as in
//! `/connect-four/move`) turned into an outcome and plies to the end, or,
//! where the budget ran out before a column was solved (early positions of
//! big grids), the shallow search's estimate with `exact: false`.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{
    analyse_latest_first, check_seat, first_player_value, judge, outcome_value, Entry, Review, ReviewError, Step,
};
use crate::games::connect_four::{ConnectFour, Shape};
use crate::games::game::{Game, Seat};
use crate::solve::connect_four::{Analysis, ConnectFourSolver};
use crate::solve::limits::SearchLimits;

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Options {
    pub cols: Option<i64>,
    pub rows: Option<i64>,
    pub k: Option<i64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct ColumnMove {
    /// 1-based.
    pub column: i64,
}

pub fn start(options: &Options) -> Result<ConnectFour, ReviewError> {
    let shape = Shape::new(options.cols, options.rows, options.k).map_err(|e| ReviewError::Options(e.to_string()))?;
    Ok(ConnectFour::new(shape))
}

/// The position before each move and the 0-based column played.
fn replay(
    options: &Options,
    steps: &[Step<ColumnMove>],
    names: [&str; 2],
) -> Result<Vec<(ConnectFour, u32)>, ReviewError> {
    let mut game = start(options)?;
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let col = game
            .check_column(step.mv.column)
            .map_err(|e| ReviewError::at(i, e.to_string()))?;
        check_seat(i, step.seat, game.seat_to_move(), names)?;
        out.push((game.clone(), col));
        game.play(col);
    }
    Ok(out)
}

/// Points of a score for the mover: by its sign (a proved score's sign is
/// its outcome; an estimate's is the search's guess).
fn points(score: i32) -> f64 {
    match score {
        0 => 0.5,
        s if s > 0 => 1.0,
        _ => 0.0,
    }
}

fn value_of(analysis: &Analysis, score: i32, solved: bool) -> Value {
    let (outcome, plies) = analysis.verdict(score);
    outcome_value(
        solved.then_some(outcome),
        solved.then_some(plies),
        points(score),
        Some(score),
    )
}

fn entry(analysis: &Analysis, played: u32, ply: u64, actor: &str, seat: Seat) -> Entry {
    let column = |c: u32| json!({"column": c + 1});
    let playable: Vec<(u32, i32, bool)> = analysis
        .columns
        .iter()
        .filter_map(|c| c.score.map(|s| (c.column, s, c.solved)))
        .collect();
    let top = playable.iter().map(|c| c.1).max().unwrap_or(0);
    let best_solved = playable.iter().find(|c| c.1 == top).is_some_and(|c| c.2);
    let (mine, mine_solved) = playable
        .iter()
        .find(|c| c.0 == played)
        .map_or((0, false), |c| (c.1, c.2));
    let loss = (points(top) - points(mine)).max(0.0);
    Entry {
        ply,
        actor: actor.to_string(),
        mv: column(played),
        best_moves: playable.iter().filter(|c| c.1 == top).map(|c| column(c.0)).collect(),
        value_before: value_of(analysis, top, best_solved),
        value_played: value_of(analysis, mine, mine_solved),
        loss,
        judgment: judge(loss, mine == top),
        exact: playable.iter().all(|c| c.2),
        value: first_player_value(seat, points(mine)),
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
    let positions = replay(options, steps, names)?;
    let analysed = analyse_latest_first(
        &positions,
        limits,
        give_up_inexact,
        |(game, _), limits| solver.analyse(game, limits),
        |analysis| analysis.columns.iter().all(|c| c.score.is_none() || c.solved),
    );
    let Some(analyses) = analysed else {
        return Ok(None);
    };
    let mut entries = Vec::with_capacity(positions.len());
    for (((game, played), step), analysis) in positions.iter().zip(steps).zip(analyses) {
        let seat = game.seat_to_move();
        entries.push(entry(&analysis, *played, step.ply, names[seat], seat));
    }
    Ok(Some(Review::new("connect-four", names, entries)))
}
