//! Every error an answer can be: an RFC 9457 problem (a status, a plain
//! detail naming what is wrong, and at most a Retry-After). Games, solvers
//! and the generic layers return it; `http::error` writes it as a response,
//! and a batch writes it as one item.

use http::{HeaderName, HeaderValue, StatusCode};
use serde::Serialize;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// Seconds a client is told to wait before retrying a 429 or a 503 whose
/// cause gives no better figure (a search queue, a timeout).
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 1;

#[derive(Debug, Clone)]
pub struct Problem {
    status: StatusCode,
    detail: String,
    retry_after_secs: Option<u64>,
    /// Boxed: rare, and errors travel in every handler's `Result`.
    extra_header: Option<Box<(HeaderName, HeaderValue)>>,
    /// A problem type finer than the status's (see [`Problem::with_kind`]).
    kind: Option<&'static str>,
}

#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'a str,
    status: u16,
    detail: &'a str,
    /// The Retry-After header's seconds, in the body too: a page on another
    /// origin may not read the header, and a batch item has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after: Option<u64>,
}

impl Problem {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        Self {
            status,
            detail: detail.into(),
            retry_after_secs: None,
            extra_header: None,
            kind: None,
        }
    }

    /// Names the problem more precisely than its status does (the problem
    /// `type` becomes `/problems/{kind}`), so a client can tell apart two
    /// 422s without reading the detail.
    pub fn with_kind(mut self, kind: &'static str) -> Self {
        self.kind = Some(kind);
        self
    }

    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after_secs = Some(secs);
        self
    }

    /// Adds a header the status calls for (WWW-Authenticate with a 401).
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.extra_header = Some(Box::new((name, value)));
        self
    }

    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, detail)
    }

    pub fn unprocessable(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, detail)
    }

    /// 429: the client asks for more than its share now (its own requests
    /// hold what it waits for), with when to try again.
    pub fn too_many_requests(detail: impl Into<String>, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, detail)
        }
    }

    pub fn unavailable(detail: impl Into<String>, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, detail)
        }
    }

    /// A 500 whose cause goes to the log, never to the client.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed to answer; the cause is logged",
        )
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn detail(&self) -> &str {
        &self.detail
    }

    /// Seconds a client should wait before trying again: the cause's own
    /// figure, else [`DEFAULT_RETRY_AFTER_SECS`] for every 429 and 503.
    pub fn retry_after_secs(&self) -> Option<u64> {
        let refused_for_now = matches!(
            self.status,
            StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE
        );
        self.retry_after_secs
            .or(refused_for_now.then_some(DEFAULT_RETRY_AFTER_SECS))
    }

    /// The header the status calls for, if any (see [`Problem::with_header`]).
    pub fn extra_header(&self) -> Option<&(HeaderName, HeaderValue)> {
        self.extra_header.as_deref()
    }

    /// A stable slug per status, used as the problem `type`.
    fn slug(&self) -> &'static str {
        match self.status {
            StatusCode::BAD_REQUEST => "malformed-request",
            StatusCode::UNAUTHORIZED => "unauthorized",
            StatusCode::FORBIDDEN => "forbidden",
            StatusCode::NOT_FOUND => "not-found",
            StatusCode::METHOD_NOT_ALLOWED => "method-not-allowed",
            StatusCode::REQUEST_TIMEOUT => "timeout",
            StatusCode::CONFLICT => "conflict",
            StatusCode::PAYLOAD_TOO_LARGE => "payload-too-large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported-media-type",
            StatusCode::UNPROCESSABLE_ENTITY => "invalid-input",
            StatusCode::TOO_MANY_REQUESTS => "rate-limited",
            StatusCode::SERVICE_UNAVAILABLE => "unavailable",
            StatusCode::NOT_IMPLEMENTED => "not-implemented",
            _ if self.status.is_server_error() => "internal",
            _ => "error",
        }
    }

    /// The problem details object, as JSON, appended to `out` (the body of
    /// the response, or one item of a batch's results).
    pub fn write_problem(&self, out: &mut Vec<u8>) {
        let body = ProblemBody {
            kind: format!("/problems/{}", self.kind.unwrap_or_else(|| self.slug())),
            title: self.status.canonical_reason().unwrap_or("Error"),
            status: self.status.as_u16(),
            detail: &self.detail,
            retry_after: self.retry_after_secs(),
        };
        // Writing strings and integers into a Vec cannot fail.
        let _ = serde_json::to_writer(out, &body);
    }
}
