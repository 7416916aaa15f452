//! POST /tictactoe/move.
//!
//! A position the solver has proved completely always gets the same answer,
//! so its finished response body is kept (bounded, see [`AnswerCache`]) and
//! served again without validating, searching or serialising: a warm
//! request costs little more than reading and parsing its body.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::extract::ApiJson;
use super::search::{run_search_cheap_first, Attempt, SearchBudget, SharedDeadline};
use super::state::AppState;
use super::stream::{self, Lines};
use crate::games::tictactoe::Position;
use crate::solve::memo::{BoundedMemo, MemoStats};
use crate::solve::tictactoe::{Analysis, Outcome};

/// Bodies larger than this (boards of more than about 100 cells) are not
/// kept, so that the cache's memory stays below capacity x this.
pub const MAX_CACHED_BODY_BYTES: usize = 8 * 1024;

/// Finished response bodies of positions whose every move is proved: such
/// an answer does not depend on the budget or on what the memo held. (Its
/// `depth` and `nodes` are those of the search that first found it.)
pub struct AnswerCache {
    /// None when the configured capacity is 0.
    bodies: Option<BoundedMemo<AnswerKey, Bytes>>,
}

/// Everything a fully proved answer depends on: the board's rows and `k`
/// exactly as the request sent them (not `max_ms`). Only requests that were
/// answered are stored, so a hit needs no validation; a board written two
/// ways simply takes two entries.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct AnswerKey {
    board: Vec<String>,
    k: Option<i64>,
}

impl AnswerCache {
    /// Holds at most `capacity` answers (none when 0).
    pub fn new(capacity: usize) -> AnswerCache {
        AnswerCache {
            bodies: (capacity > 0).then(|| BoundedMemo::new(capacity.max(2))),
        }
    }

    pub fn get(&self, key: &AnswerKey) -> Option<Bytes> {
        self.bodies.as_ref()?.get(key)
    }

    /// Keeps `body` if `analysis` proved every move and the body is small.
    pub fn offer(&self, key: AnswerKey, analysis: &Analysis, body: &Bytes) {
        let complete = analysis.solved && analysis.moves.iter().all(|m| m.outcome.is_some());
        if let Some(bodies) = &self.bodies {
            if complete && body.len() <= MAX_CACHED_BODY_BYTES {
                bodies.insert(key, body.clone());
            }
        }
    }

    pub fn stats(&self) -> MemoStats {
        self.bodies.as_ref().map_or(
            MemoStats {
                entries: 0,
                capacity: 0,
                hits: 0,
                misses: 0,
            },
            BoundedMemo::stats,
        )
    }
}

/// A JSON body as `Json` would send it.
fn json_body(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

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

fn response(position: &Position, analysis: &Analysis) -> MoveResponse {
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
    headers: HeaderMap,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Response, ApiError> {
    if stream::wants_ndjson(&headers) {
        return Ok(
            stream::respond(move |lines| async move { analyse(&state, request, None, Some(lines)).await }).await,
        );
    }
    analyse(&state, request, None, None).await.map(json_body)
}

/// The finished response body for a request, for the route and for a batch
/// (whose `shared` deadline the search keeps to); the search's
/// intermediate answers go to `lines` when there are any.
pub async fn analyse(
    state: &AppState,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<Bytes, ApiError> {
    let key = AnswerKey {
        board: request.board,
        k: request.k,
    };
    if let Some(body) = state.tictactoe_answers.get(&key) {
        return Ok(body);
    }
    let k = Position::win_length(key.k)?;
    let position = Position::parse(&key.board, k)?;
    let solver = Arc::clone(&state.solvers.tictactoe);
    let searched = position.clone();
    let analysis = run_search_cheap_first(
        &state.config,
        &state.search_pool,
        "tictactoe",
        SearchBudget::own(request.max_ms).within(shared),
        |a: &Analysis| a.solved,
        move |limits, attempt| match (&lines, attempt) {
            (Some(lines), Attempt::Pool) => solver.analyse_reporting(
                &searched,
                limits,
                Some(&mut |a: &Analysis| lines.send(&response(&searched, a))),
            ),
            _ => solver.analyse(&searched, limits),
        },
    )
    .await?;
    let body = Bytes::from(serde_json::to_vec(&response(&position, &analysis)).map_err(|e| ApiError::internal(&e))?);
    state.tictactoe_answers.offer(key, &analysis, &body);
    Ok(body)
}
