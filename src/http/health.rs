//! Liveness, readiness, metrics and the API description.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::json;

use super::state::AppState;
use crate::core::problem::Problem;
use crate::store::StoreError;
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

pub async fn readyz(State(state): State<AppState>) -> Result<Json<Readiness>, Problem> {
    let mut reasons = Vec::new();
    if state.is_draining() {
        reasons.push("the server is shutting down".to_string());
    }
    reasons.extend(crate::registry::not_ready(&state));
    if let Err(error) = state.store.check().await {
        // The database's own words (hosts, paths, SQL) go to the log only.
        tracing::warn!(%error, "readiness: the database check failed");
        let what = match error {
            StoreError::NotMigrated => "its schema is not in place yet",
            _ => "it does not answer",
        };
        reasons.push(format!("{} database: {what}", state.store.backend().as_str()));
    }
    if reasons.is_empty() {
        Ok(Json(Readiness {
            status: "ready",
            tables: "loaded",
            database: state.store.backend().as_str(),
        }))
    } else {
        Err(Problem::unavailable(format!("not ready: {}", reasons.join("; ")), 1))
    }
}

pub async fn metrics(State(state): State<AppState>) -> Response {
    metrics::gauge!("kibitz_search_workers_busy").set(state.search_pool.busy() as f64);
    metrics::gauge!("kibitz_search_workers").set(state.search_pool.concurrency() as f64);
    crate::registry::record_metrics(&state);
    match telemetry::prometheus() {
        Some(handle) => (
            [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
            handle.render(),
        )
            .into_response(),
        None => Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "metrics are not available in this process",
        )
        .into_response(),
    }
}

pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}
