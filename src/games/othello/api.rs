//! `POST /othello/move`: the request and answer shapes, and the answer to
//! one position.

use serde::{Deserialize, Serialize};

use super::parse::{parse_position, OthelloParseError};
use super::rules::{symbol, OthelloState};
use super::solve::{evaluation, Analysis, OthelloEngine, Settings};
use super::square::{OthelloMove, Square};
use crate::core::evaluation::Evaluation;
use crate::core::problem::Problem;
use crate::serve::Services;
use crate::solve::lines::Lines;
use crate::solve::run::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};
use crate::solve::solvers::{GameSolver, MemoSizes};

impl From<OthelloParseError> for Problem {
    fn from(e: OthelloParseError) -> Self {
        Problem::unprocessable(e.to_string())
    }
}

impl GameSolver for OthelloEngine {
    fn build(sizes: &MemoSizes) -> Self {
        OthelloEngine::new(sizes.table_entries)
    }
}

#[derive(Deserialize)]
pub struct MoveRequest {
    board: Vec<String>,
    /// Required; absent is a 422 that says so (not a 400), as the contract
    /// has it.
    player: Option<String>,
    /// Optional: the board's rows say it; a size sent must agree.
    size: Option<i64>,
    max_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct SquareValue {
    square: Square,
    score: i32,
    solved: bool,
    evaluation: Evaluation,
}

#[derive(Serialize)]
pub struct MoveResponse {
    player: char,
    #[serde(rename = "move")]
    chosen: OthelloMove,
    score: i32,
    outcome: Option<&'static str>,
    solved: bool,
    depth: u32,
    nodes: u64,
    size: u32,
    moves: Vec<SquareValue>,
    principal_variation: Vec<OthelloMove>,
    evaluation: Evaluation,
}

/// The position of a request: validated, not over.
pub fn position(request: &MoveRequest) -> Result<OthelloState, Problem> {
    Ok(parse_position(request.size, &request.board, request.player.as_deref())?)
}

pub fn response(game: &OthelloState, analysis: &Analysis) -> MoveResponse {
    MoveResponse {
        player: symbol(analysis.player),
        chosen: analysis.best,
        score: analysis.score,
        outcome: analysis.outcome().map(|o| o.name()),
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        size: game.size().side(),
        moves: analysis
            .moves
            .iter()
            .map(|m| SquareValue {
                square: m.square,
                score: m.score,
                solved: m.solved,
                evaluation: evaluation(m.score, m.solved, None),
            })
            .collect(),
        principal_variation: analysis.principal_variation.clone(),
        evaluation: analysis.evaluation(),
    }
}

/// The answer to a request, for the route and for a batch (whose `shared`
/// deadline the search keeps to); each completed midgame iteration goes to
/// `lines` when there are any.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<MoveResponse, Problem> {
    let game = position(&request)?;
    let engine = services.solvers.of::<OthelloEngine>();
    let searched = game;
    let analysis = run_search_cheap_first(
        &services.config,
        &services.search_pool,
        "othello",
        SearchBudget::own(request.max_ms).within(shared),
        // A quick answer whose score is exact may still have its line of
        // play cut short: it is final only when the line is whole.
        Analysis::is_complete,
        move |limits, attempt| match (&lines, attempt) {
            (Some(lines), Attempt::Pool) => engine.analyze_reporting(
                &searched,
                limits,
                &Settings::default(),
                Some(&mut |a: &Analysis| lines.send(&response(&searched, a))),
            ),
            _ => engine.analyze(&searched, limits),
        },
    )
    .await?;
    Ok(response(&game, &analysis))
}
