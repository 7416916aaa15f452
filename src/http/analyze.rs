//! POST /analyze: many positions of any games in one request.
//!
//! Each position is answered by the same code as its game's own endpoint
//! (`pig::decide`, `tictactoe::analyze`, ...), so each result is exactly the
//! JSON that endpoint would send for it, or `{"error": <problem>}` with the
//! problem it would send. One time budget covers the whole batch: every
//! search ends by the shared deadline, and a search that would start after it
//! answers 503 instead (answers that need no search are still given).

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::extract::ApiJson;
use super::games;
use super::state::AppState;
use crate::core::problem::Problem;
use crate::solve::run::SharedDeadline;

/// How long past the shared deadline a position may still be working before
/// it is cut off with the budget's problem. Searches stop at the deadline
/// themselves; this only bounds anything else (a Pig table being solved).
const GRACE: Duration = Duration::from_millis(50);

#[derive(Deserialize)]
pub struct AnalyzeRequest {
    /// Kept as their JSON text: each is read like a body sent alone.
    positions: Vec<Box<RawValue>>,
    max_ms: Option<u64>,
}

/// Only the game of a position; its other fields are the game's.
#[derive(Deserialize)]
struct Tag {
    game: Option<serde_json::Value>,
}

pub async fn analyze(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnalyzeRequest>,
) -> Result<Response, Problem> {
    let count = request.positions.len();
    let limit = state.config.batch_max_positions;
    if count == 0 {
        return Err(Problem::unprocessable(format!(
            "positions is empty: send from 1 to {limit} positions, each {{\"game\": ..., and that game's fields}}"
        )));
    }
    if count > limit {
        return Err(Problem::unprocessable(format!(
            "positions has {count} entries, more than this server's batch_max_positions = {limit} \
             (KIBITZ_BATCH_MAX_POSITIONS); split the batch"
        )));
    }
    let shared = SharedDeadline::starting_now(state.config.search_budget_ms(request.max_ms));
    // As many positions in flight as the pool has workers: searches use
    // every worker, while a batch never queues more at the pool's door than
    // a worker each (other requests keep their turn). An answer that needs
    // no search is given in the same poll, so cheap positions flow through
    // the free slots.
    let in_flight = state.search_pool.concurrency().max(1);
    let mut results: Vec<Option<Result<Bytes, Problem>>> = vec![None; count];
    let mut waiting = request.positions.into_iter().enumerate();
    let mut running = FuturesUnordered::new();
    loop {
        while running.len() < in_flight {
            let Some((i, position)) = waiting.next() else { break };
            running.push(answer_in_time(i, &state, position, shared));
        }
        let Some((i, answer)) = running.next().await else { break };
        results[i] = Some(answer);
    }
    Ok(body(results))
}

/// `{"results": [...]}`, each answer's JSON copied as it is.
fn body(results: Vec<Option<Result<Bytes, Problem>>>) -> Response {
    let size: usize = results
        .iter()
        .map(|r| match r {
            Some(Ok(json)) => json.len() + 1,
            _ => 256,
        })
        .sum();
    let mut out = Vec::with_capacity(size + 16);
    out.extend_from_slice(b"{\"results\":[");
    for (i, result) in results.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match result {
            Some(Ok(json)) => out.extend_from_slice(&json),
            Some(Err(problem)) => {
                out.extend_from_slice(b"{\"error\":");
                problem.write_problem(&mut out);
                out.push(b'}');
            }
            // Every position is answered before the body is written.
            None => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"]}");
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        out,
    )
        .into_response()
}

/// The answer of the `i`-th position, or the budget's problem if it is not
/// done shortly after the shared deadline.
async fn answer_in_time(
    i: usize,
    state: &AppState,
    position: Box<RawValue>,
    shared: SharedDeadline,
) -> (usize, Result<Bytes, Problem>) {
    let cutoff = tokio::time::Instant::from_std(shared.at() + GRACE);
    let answer = tokio::time::timeout_at(cutoff, answer(state, position.get(), shared))
        .await
        .unwrap_or_else(|_| Err(shared.ran_out()));
    (i, answer)
}

/// One position's answer, as its game's endpoint would give it.
async fn answer(state: &AppState, position: &str, shared: SharedDeadline) -> Result<Bytes, Problem> {
    let json = position.as_bytes();
    let game = match serde_json::from_slice::<Tag>(json) {
        Ok(Tag { game }) => game,
        Err(_) => {
            return Err(Problem::bad_request(
                "each position must be a JSON object: {\"game\": ..., and that game's fields}",
            ))
        }
    };
    match game.as_ref().and_then(|g| g.as_str()) {
        Some(id) => match games::analyze_position(id, state, json, shared) {
            Some(answer) => answer.await,
            None => Err(unknown_game(game.as_ref())),
        },
        None => Err(unknown_game(game.as_ref())),
    }
}

fn unknown_game(game: Option<&serde_json::Value>) -> Problem {
    let games = crate::registry::ids().join(", ");
    match game {
        None | Some(serde_json::Value::Null) => {
            Problem::unprocessable(format!("game is missing: each position names its game, one of {games}"))
        }
        Some(other) => Problem::unprocessable(format!("game must be one of {games} (got {other})")),
    }
}
