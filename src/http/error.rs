//! Every error the API sends: RFC 9457 problem details, mapped in one place.

use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::games::connect_four::ConnectFourError;
use crate::games::ishitori::IshitoriError;
use crate::games::nine_square::PositionError as NineSquarePositionError;
use crate::games::number_square::BoardError as NumberSquareBoardError;
use crate::games::pig::PigError;
use crate::games::tictactoe::TicTacToeError;
use crate::matches::MatchError;
use crate::store::StoreError;
use crate::tables::cache::TableWorkerError;

pub const PROBLEM_JSON: &str = "application/problem+json";

#[derive(Debug, Clone)]
pub struct ApiError {
    status: StatusCode,
    detail: String,
    retry_after_secs: Option<u64>,
    /// Boxed: rare, and errors travel in every handler's `Result`.
    extra_header: Option<Box<(HeaderName, HeaderValue)>>,
    /// A problem type finer than the status's (see [`ApiError::with_kind`]).
    kind: Option<&'static str>,
}

#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'a str,
    status: u16,
    detail: &'a str,
}

impl ApiError {
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
        };
        // Writing strings and integers into a Vec cannot fail.
        let _ = serde_json::to_writer(out, &body);
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut json = Vec::with_capacity(128 + self.detail.len());
        self.write_problem(&mut json);
        let mut response = (self.status, json).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Some(secs) = self.retry_after_secs {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if let Some((name, value)) = self.extra_header.map(|header| *header) {
            headers.insert(name, value);
        }
        response
    }
}

/// The rules' errors: what the request got wrong, in the rules' own words.
macro_rules! unprocessable_from {
    ($($error:ty),* $(,)?) => {
        $(
            impl From<$error> for ApiError {
                fn from(e: $error) -> Self {
                    Self::unprocessable(e.to_string())
                }
            }
        )*
    };
}

unprocessable_from!(
    PigError,
    ConnectFourError,
    TicTacToeError,
    IshitoriError,
    NumberSquareBoardError,
    NineSquarePositionError,
);

/// The problem type of a match error the client caused: the move, the
/// match's state, or what the match was created with.
fn match_problem_kind(e: &MatchError) -> &'static str {
    match e {
        MatchError::IllegalMove(_) => "illegal-move",
        MatchError::Finished => "match-finished",
        MatchError::Field { field, .. } | MatchError::UnknownField { field, .. } if field.starts_with("move") => {
            "illegal-move"
        }
        _ => "invalid-options",
    }
}

impl From<MatchError> for ApiError {
    fn from(e: MatchError) -> Self {
        if e.is_client_error() {
            Self::unprocessable(e.to_string()).with_kind(match_problem_kind(&e))
        } else {
            Self::internal(&e)
        }
    }
}

impl From<TableWorkerError> for ApiError {
    fn from(e: TableWorkerError) -> Self {
        Self::internal(&e)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        if let StoreError::Corrupt(_) = e {
            return Self::internal(&e);
        }
        tracing::warn!(error = %e, "database unavailable");
        Self::unavailable("the database is not available; try again shortly", 2)
    }
}
