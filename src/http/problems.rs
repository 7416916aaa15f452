//! Gives the errors that axum and tower-http produce themselves (404, 405,
//! 413 from the body limit, 408/503 from the timeout, ...) the same
//! problem+json shape as ours, keeping headers such as `Allow`.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::core::problem::{Problem, PROBLEM_JSON};

pub async fn problem_for_plain_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let detail = match status {
        StatusCode::NOT_FOUND => format!("no resource at {path}"),
        StatusCode::METHOD_NOT_ALLOWED => {
            format!(
                "{method} is not allowed on {path}; allowed: {}",
                super::allowed_methods(&path).join(", ")
            )
        }
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is larger than the server accepts".to_string(),
        StatusCode::REQUEST_TIMEOUT | StatusCode::SERVICE_UNAVAILABLE => {
            "the request took longer than the server allows".to_string()
        }
        other => other.canonical_reason().unwrap_or("error").to_string(),
    };
    let (mut parts, _) = response.into_parts();
    let problem = Problem::new(status, detail).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts
        .headers
        .insert(header::CONTENT_TYPE, header::HeaderValue::from_static(PROBLEM_JSON));
    // axum's own `Allow` may be empty (at "/"): ours lists the methods.
    let listed = parts.headers.get(header::ALLOW).is_some_and(|v| !v.is_empty());
    if status == StatusCode::METHOD_NOT_ALLOWED && !listed {
        if let Ok(allow) = header::HeaderValue::from_str(&super::allowed_methods(&path).join(", ")) {
            parts.headers.insert(header::ALLOW, allow);
        }
    }
    let (problem_parts, body) = problem.into_parts();
    if let Some(retry_after) = problem_parts.headers.get(header::RETRY_AFTER) {
        parts.headers.insert(header::RETRY_AFTER, retry_after.clone());
    }
    Response::from_parts(parts, body)
}
