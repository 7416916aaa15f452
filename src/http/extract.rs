//! JSON and query extractors whose rejections are problem+json like every
//! other error (axum's own answer in plain text).

use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use super::error::ApiError;

pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !declares_json(req.headers()) {
            return Err(json_problem(JsonRejection::MissingJsonContentType(Default::default())));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request body is larger than the server accepts",
                )
            } else {
                ApiError::bad_request(e.body_text())
            }
        })?;
        // serde would also read a struct from an array of its fields in
        // order; the contract's bodies are objects, nothing else.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ApiError::bad_request("the body must be a JSON object"));
        }
        match Json::<T>::from_bytes(&bytes) {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_problem(rejection)),
        }
    }
}

/// `application/json` or any `application/*+json`, parameters allowed.
fn declares_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
        .is_some_and(|mime| mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json")))
}

fn json_problem(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON with Content-Type: application/json",
        ),
        JsonRejection::JsonSyntaxError(e) => {
            ApiError::bad_request(format!("the body is not valid JSON: {}", cause(&e.body_text())))
        }
        JsonRejection::JsonDataError(e) => ApiError::bad_request(format!(
            "the body does not have the expected shape: {}",
            cause(&e.body_text())
        )),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is larger than the server accepts",
        ),
        other => ApiError::new(other.status(), other.body_text()),
    }
}

/// serde's message after axum's generic prefix: it names the field, the
/// expected type and the position.
fn cause(text: &str) -> &str {
    text.split_once(": ").map_or(text, |(_, rest)| rest)
}

pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => Err(ApiError::bad_request(format!(
                "the query string is not as expected: {}",
                cause(&e.body_text())
            ))),
            Err(other) => Err(ApiError::bad_request(other.body_text())),
        }
    }
}
