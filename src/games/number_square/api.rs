//! POST /number-square/move.

use serde::{Deserialize, Serialize};

use super::solve::{evaluation, Analysis, MoveBound, MoveValue, NumberSquareSolver};
use super::strategies::{lookahead2, lookahead2_scores};
use super::{Board, BoardError, Tile};
use crate::core::evaluation::Evaluation;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};

impl From<BoardError> for Problem {
    fn from(e: BoardError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

/// Scores beyond this are refused: margins stay exact in 64 bits.
const MAX_ABS_SCORE: i64 = 1_000_000_000_000;

#[derive(Deserialize)]
pub struct MoveRequest {
    board: Vec<Vec<Option<i64>>>,
    // Options, not serde defaults: an explicit null means 0 too.
    my_score: Option<i64>,
    opponent_score: Option<i64>,
    max_ms: Option<u64>,
    strategy: Option<String>,
}

#[derive(Serialize)]
pub struct At {
    row: usize,
    col: usize,
}

impl From<Tile> for At {
    fn from(t: Tile) -> Self {
        Self { row: t.row, col: t.col }
    }
}

#[derive(Serialize)]
pub struct TileValue {
    row: usize,
    col: usize,
    value: i64,
    /// "exact", or "at_most" when the search only proved an upper bound.
    bound: &'static str,
    evaluation: Evaluation,
}

#[derive(Serialize)]
pub struct MoveResponse {
    #[serde(rename = "move")]
    chosen: At,
    value: i64,
    final_margin: i64,
    outcome: &'static str,
    solved: bool,
    depth: u32,
    nodes: u64,
    moves: Vec<TileValue>,
    principal_variation: Vec<At>,
    strategy: &'static str,
    evaluation: Evaluation,
}

fn score(field: &str, value: i64) -> Result<i64, Problem> {
    if value.abs() > MAX_ABS_SCORE {
        return Err(Problem::unprocessable(format!(
            "{field} must be within +-{MAX_ABS_SCORE} (got {value})"
        )));
    }
    Ok(value)
}

/// The seed paper's two-ply greedy AI, reported in the same shape: its
/// values are its own two-ply estimates, never proven.
fn lookahead2_analysis(board: &Board) -> Result<Analysis, Problem> {
    let scores = lookahead2_scores(board);
    let chosen = lookahead2(board).ok_or_else(|| Problem::unprocessable("no tile can be taken"))?;
    let best = scores
        .iter()
        .copied()
        .find(|(tile, _)| *tile == chosen)
        .ok_or_else(|| Problem::internal(&"lookahead2 chose a tile it did not score"))?;
    Ok(Analysis {
        best_move: best.0,
        value: best.1,
        solved: false,
        depth: 2,
        nodes: scores.len() as u64,
        moves: scores
            .iter()
            .map(|&(tile, value)| MoveValue {
                tile,
                value,
                bound: MoveBound::Exact,
            })
            .collect(),
        principal_variation: vec![best.0],
    })
}

/// The answer to a request, for the route and for a batch (whose `shared`
/// deadline the search keeps to); the search's intermediate answers go to
/// `lines` when there are any.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<MoveResponse, Problem> {
    let board = Board::from_rows(&request.board)?;
    let lead = score("my_score", request.my_score.unwrap_or(0))?
        - score("opponent_score", request.opponent_score.unwrap_or(0))?;
    let (strategy, analysis) = match request.strategy.as_deref().unwrap_or("best") {
        "best" => {
            let solver = services.solvers.of::<NumberSquareSolver>();
            let searched = board.clone();
            let analysis = run_search_cheap_first(
                &services.config,
                &services.search_pool,
                "number_square",
                SearchBudget::own(request.max_ms).within(shared),
                |a: &Option<Analysis>| a.as_ref().is_none_or(|a| a.solved),
                move |limits, attempt| match (&lines, attempt) {
                    (Some(lines), Attempt::Pool) => solver.analyze_reporting(
                        &searched,
                        limits,
                        Some(&mut |a: &Analysis| lines.send(&response(a, &searched, lead, "best"))),
                    ),
                    _ => solver.analyze(&searched, limits),
                },
            )
            .await?
            .ok_or_else(|| Problem::unprocessable("the game is already over"))?;
            ("best", analysis)
        }
        "lookahead2" => ("lookahead2", lookahead2_analysis(&board)?),
        other => {
            return Err(Problem::unprocessable(format!(
                "strategy must be \"best\" or \"lookahead2\" (got \"{other}\")"
            )))
        }
    };
    Ok(response(&analysis, &board, lead, strategy))
}

/// The response for an analysis of `board`, given the mover's lead so far.
fn response(analysis: &Analysis, board: &Board, lead: i64, strategy: &'static str) -> MoveResponse {
    let final_margin = lead + analysis.value;
    MoveResponse {
        chosen: analysis.best_move.into(),
        value: analysis.value,
        final_margin,
        outcome: match final_margin.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        },
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        moves: analysis
            .moves
            .iter()
            .map(|m| TileValue {
                row: m.tile.row,
                col: m.tile.col,
                value: m.value,
                bound: match m.bound {
                    MoveBound::Exact => "exact",
                    MoveBound::AtMost => "at_most",
                },
                evaluation: evaluation(
                    lead + m.value,
                    analysis.solved && matches!(m.bound, MoveBound::Exact),
                    board,
                ),
            })
            .collect(),
        principal_variation: analysis.principal_variation.iter().copied().map(At::from).collect(),
        strategy,
        evaluation: evaluation(final_margin, analysis.solved, board),
    }
}
