//! Liveness, readiness, metrics and the API description.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::json;

use super::error::ApiError;
use super::state::AppState;
use crate::telemetry;

pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

#[derive(Serialize)]
pub struct Readiness {
    status: &'static str,
    tables: &'static str,
    database: &'static str,
}

pub async fn readyz(State(state): State<AppState>) -> Result<Json<Readiness>, ApiError> {
    let mut reasons = Vec::new();
    if state.is_draining() {
        reasons.push("the server is shutting down".to_string());
    }
    if !state.solvers.pig_tables.defaults_ready() {
        reasons.push("the Pig tables are still loading".to_string());
    }
    if let Err(error) = state.store.check().await {
        reasons.push(format!("{} database: {error}", state.store.backend().as_str()));
    }
    if reasons.is_empty() {
        Ok(Json(Readiness {
            status: "ready",
            tables: "loaded",
            database: state.store.backend().as_str(),
        }))
    } else {
        Err(ApiError::unavailable(format!("not ready: {}", reasons.join("; ")), 1))
    }
}

pub async fn metrics(State(state): State<AppState>) -> Response {
    metrics::gauge!("kibitz_search_workers_busy").set(state.search_pool.busy() as f64);
    metrics::gauge!("kibitz_search_workers").set(state.search_pool.concurrency() as f64);
    let (tables, bytes) = state.solvers.pig_tables.memory();
    metrics::gauge!("kibitz_pig_tables").set(tables as f64);
    metrics::gauge!("kibitz_pig_tables_bytes").set(bytes as f64);
    for (game, memo) in [
        ("tictactoe", state.solvers.tictactoe.memo_stats()),
        ("number_square", state.solvers.number_square.memo_stats()),
    ] {
        metrics::gauge!("kibitz_memo_entries", "game" => game).set(memo.entries as f64);
        metrics::gauge!("kibitz_memo_capacity", "game" => game).set(memo.capacity as f64);
        metrics::gauge!("kibitz_memo_hits", "game" => game).set(memo.hits as f64);
        metrics::gauge!("kibitz_memo_misses", "game" => game).set(memo.misses as f64);
    }
    let answers = state.tictactoe_answers.stats();
    metrics::gauge!("kibitz_answer_cache_entries", "game" => "tictactoe").set(answers.entries as f64);
    metrics::gauge!("kibitz_answer_cache_capacity", "game" => "tictactoe").set(answers.capacity as f64);
    metrics::gauge!("kibitz_answer_cache_hits", "game" => "tictactoe").set(answers.hits as f64);
    metrics::gauge!("kibitz_answer_cache_misses", "game" => "tictactoe").set(answers.misses as f64);
    match telemetry::prometheus() {
        Some(handle) => (
            [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
            handle.render(),
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "metrics are not available in this process",
        )
        .into_response(),
    }
}

pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}
