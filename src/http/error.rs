//! Every error the API sends: RFC 9457 problem details, mapped in one place.

use crate::core::problem::{Problem, PROBLEM_JSON};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::matches::MatchError;
use crate::store::StoreError;

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let mut json = Vec::with_capacity(128 + self.detail().len());
        self.write_problem(&mut json);
        let mut response = (self.status(), json).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Some(secs) = self.retry_after_secs() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if let Some((name, value)) = self.extra_header() {
            headers.insert(name.clone(), value.clone());
        }
        response
    }
}

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

impl From<MatchError> for Problem {
    fn from(e: MatchError) -> Self {
        if e.is_client_error() {
            Self::unprocessable(e.to_string()).with_kind(match_problem_kind(&e))
        } else if let MatchError::Unavailable {
            detail,
            retry_after_secs,
        } = e
        {
            match retry_after_secs {
                Some(secs) => Self::unavailable(detail, secs),
                None => Self::new(StatusCode::SERVICE_UNAVAILABLE, detail),
            }
        } else {
            Self::internal(&e)
        }
    }
}

impl From<StoreError> for Problem {
    fn from(e: StoreError) -> Self {
        if let StoreError::Corrupt(_) = e {
            return Self::internal(&e);
        }
        tracing::warn!(error = %e, "database unavailable");
        Self::unavailable("the database is not available; try again shortly", 2)
    }
}
