//! Request counts and latencies by route and status.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;

pub async fn record(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().to_string();
    // The route template, never the raw path: ids must not explode the
    // number of series.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    let labels = [("method", method), ("route", route), ("status", status)];
    metrics::counter!("kibitz_http_requests_total", &labels).increment(1);
    metrics::histogram!("kibitz_http_request_duration_seconds", &labels).record(started.elapsed().as_secs_f64());
    response
}
