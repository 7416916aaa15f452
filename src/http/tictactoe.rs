//! POST /tictactoe/move.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::ApiJson;
use super::search::run_search_cheap_first;
use super::state::AppState;
use crate::games::tictactoe::Position;
use crate::solve::tictactoe::{Analysis, Outcome};

#[derive(Deserialize)]
pub struct MoveRequest {
    board: Vec<String>,
    k: Option<i64>,
    max_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct Cell {
    row: usize,
    col: usize,
    index: usize,
}

#[derive(Serialize)]
pub struct MoveValue {
    row: usize,
    col: usize,
    index: usize,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    score: i32,
}

#[derive(Serialize)]
pub struct MoveResponse {
    player: String,
    #[serde(rename = "move")]
    chosen: Cell,
    outcome: Option<&'static str>,
    plies_to_end: Option<u32>,
    score: i32,
    solved: bool,
    depth: u32,
    nodes: u64,
    rows: usize,
    cols: usize,
    k: usize,
    moves: Vec<MoveValue>,
    principal_variation: Vec<Cell>,
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

fn response(position: &Position, analysis: Analysis) -> MoveResponse {
    let cols = position.cols();
    let cell = |index: usize| Cell {
        row: index / cols,
        col: index % cols,
        index,
    };
    MoveResponse {
        player: analysis.player.to_string(),
        chosen: cell(analysis.best_move),
        outcome: analysis.outcome.map(outcome_name),
        plies_to_end: analysis.plies_to_end,
        score: analysis.score,
        solved: analysis.solved,
        depth: analysis.depth,
        nodes: analysis.nodes,
        rows: position.rows(),
        cols,
        k: position.k(),
        moves: analysis
            .moves
            .iter()
            .map(|m| MoveValue {
                row: m.index / cols,
                col: m.index % cols,
                index: m.index,
                outcome: m.outcome.map(outcome_name),
                plies_to_end: m.plies_to_end,
                score: m.score,
            })
            .collect(),
        principal_variation: analysis.principal_variation.iter().map(|&i| cell(i)).collect(),
    }
}

pub async fn best_move(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Json<MoveResponse>, ApiError> {
    let k = match request.k {
        None => None,
        Some(k) => Some(
            usize::try_from(k)
                .map_err(|_| ApiError::unprocessable(format!("k must be a positive integer (got {k})")))?,
        ),
    };
    let position = Position::parse(&request.board, k).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let solver = state.tictactoe.clone();
    let searched = position.clone();
    let analysis = run_search_cheap_first(
        &state,
        "tictactoe",
        request.max_ms,
        |a: &Analysis| a.solved,
        move |limits| solver.analyse(&searched, limits),
    )
    .await?;
    Ok(Json(response(&position, analysis)))
}
