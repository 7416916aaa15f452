//! Request counts and latencies by route and status.
//!
//! Every label comes from a fixed set, so no client can grow `/metrics`:
//! the route is the matched template (never the raw path), the method one
//! of the standard ones or "other" (a client may invent any method name,
//! and a 405 for it passes through here).

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

pub async fn record(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = method_label(request.method());
    // The route template, never the raw path: ids must not explode the
    // number of series.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    let labels = [("method", method.to_string()), ("route", route), ("status", status)];
    metrics::counter!("kibitz_http_requests_total", &labels).increment(1);
    metrics::histogram!("kibitz_http_request_duration_seconds", &labels).record(started.elapsed().as_secs_f64());
    response
}

/// The method as a label: the standard methods by name, any other "other".
pub fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_methods_share_one_label() {
        for name in ["FOO", "BREW", &"X".repeat(2048)] {
            let method = Method::from_bytes(name.as_bytes()).unwrap();
            assert_eq!(method_label(&method), "other");
        }
        assert_eq!(method_label(&Method::GET), "GET");
    }
}
