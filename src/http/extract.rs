//! JSON and query extractors whose rejections are problem+json like every
//! other error (axum's own answer in plain text).

use axum::body::{Body, Bytes};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use http_body::Body as _;
use http_body_util::{BodyExt, LengthLimitError};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::core::problem::Problem;

pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = Problem;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        parse_object(&json_bytes(req).await?).map(Self)
    }
}

/// A JSON request's body, with the checks and problems every JSON route
/// shares: the Content-Type, and the body limit.
pub async fn json_bytes(req: Request) -> Result<Bytes, Problem> {
    if !declares_json(req.headers()) {
        return Err(json_problem(JsonRejection::MissingJsonContentType(Default::default())));
    }
    // The body is already held to the limit by the outer
    // `RequestBodyLimitLayer` (by Content-Length, and while it streams),
    // so it is read as it is, without axum's second limit around it.
    read_body(req.into_body()).await.map_err(|error| {
        if over_the_limit(&error) {
            Problem::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the request body is larger than the server accepts",
            )
        } else {
            Problem::bad_request(format!("failed to read the request body: {error}"))
        }
    })
}

/// The whole body. A small body arrives as one frame, which is taken as it
/// is; a longer one is gathered frame by frame.
async fn read_body(mut body: Body) -> Result<Bytes, axum::Error> {
    let first = match body.frame().await.transpose()? {
        None => return Ok(Bytes::new()),
        Some(frame) => frame.into_data().unwrap_or_default(),
    };
    if body.is_end_stream() {
        return Ok(first);
    }
    let rest = body.collect().await?.to_bytes();
    let mut whole = Vec::with_capacity(first.len() + rest.len());
    whole.extend_from_slice(&first);
    whole.extend_from_slice(&rest);
    Ok(Bytes::from(whole))
}

/// True when reading the body failed because it passed the body limit.
fn over_the_limit(error: &axum::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if e.is::<LengthLimitError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// Reads a request body (or one position of a batch, which is answered as
/// if it had been sent alone) into `T`, with the same problem for the same
/// mistake wherever it is read.
pub fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    // serde would also read a struct from an array of its fields in
    // order; the contract's bodies are objects, nothing else.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(Problem::bad_request("the body must be a JSON object"));
    }
    // The plain parse first; only a body that fails it goes through
    // axum's (slower, path-tracking) one, for the same error message.
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Ok(value);
    }
    match Json::<T>::from_bytes(bytes) {
        Ok(Json(value)) => Ok(value),
        Err(rejection) => Err(json_problem(rejection)),
    }
}

/// A JSON response, like axum's `Json`, written into a buffer sized for
/// the small answers of the hot endpoints (axum's starts at 128 bytes and
/// grows twice for a Pig decision).
pub struct JsonResponse<T>(pub T);

impl<T: Serialize> IntoResponse for JsonResponse<T> {
    fn into_response(self) -> Response {
        let mut buffer = Vec::with_capacity(512);
        match serde_json::to_writer(&mut buffer, &self.0) {
            Ok(()) => JsonBytes(buffer.into()).into_response(),
            Err(error) => Problem::internal(&error).into_response(),
        }
    }
}

/// A JSON response already written (by a route that writes its own).
pub struct JsonBytes(pub Bytes);

impl IntoResponse for JsonBytes {
    fn into_response(self) -> Response {
        // Built directly: a `(headers, Vec)` pair first sets the Vec's own
        // content type and then replaces it.
        let mut response = Response::new(Body::from(self.0));
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }
}

/// `application/json` or any `application/*+json`, parameters allowed.
fn declares_json(headers: &axum::http::HeaderMap) -> bool {
    let content_type = headers.get(axum::http::header::CONTENT_TYPE);
    // What nearly every client sends, before the general reading.
    if content_type.is_some_and(|v| v.as_bytes() == b"application/json") {
        return true;
    }
    content_type
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim())
        .is_some_and(|mime| {
            let starts = |prefix: &str| mime.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix));
            let ends = |suffix: &str| {
                mime.len() >= suffix.len()
                    && mime
                        .get(mime.len() - suffix.len()..)
                        .is_some_and(|s| s.eq_ignore_ascii_case(suffix))
            };
            mime.eq_ignore_ascii_case("application/json") || (starts("application/") && ends("+json"))
        })
}

fn json_problem(rejection: JsonRejection) -> Problem {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON with Content-Type: application/json",
        ),
        JsonRejection::JsonSyntaxError(e) => {
            Problem::bad_request(format!("the body is not valid JSON: {}", cause(&e.body_text())))
        }
        JsonRejection::JsonDataError(e) => Problem::bad_request(format!(
            "the body does not have the expected shape: {}",
            cause(&e.body_text())
        )),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is larger than the server accepts",
        ),
        other => Problem::new(other.status(), other.body_text()),
    }
}

/// serde's message after axum's generic prefix: it names the field, the
/// expected type and the position.
fn cause(text: &str) -> &str {
    text.split_once(": ").map_or(text, |(_, rest)| rest)
}

pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => Err(Problem::bad_request(format!(
                "the query string is not as expected: {}",
                cause(&e.body_text())
            ))),
            Err(other) => Err(Problem::bad_request(other.body_text())),
        }
    }
}
