//! NDJSON answers of the search endpoints (`Accept: application/x-ndjson`).
//!
//! The search reports on its blocking thread through [`Lines`], which
//! queues each report as a line on a small bounded channel and drops it
//! when the channel is full: a slow reader costs lines, never memory, and
//! never holds the search up. The body stream owns the search's future, so
//! a client that goes away drops it, and with it the guard that cancels the
//! search (see [`crate::solve::run`]).
//!
//! The response starts once there is something to send: the first report,
//! or the whole answer. An error before that (bad input, every search worker
//! busy) is still an ordinary problem response with its status.

use std::future::Future;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::extract::JsonBytes;
use crate::core::problem::Problem;
use crate::solve::lines::{line, Lines, LINES_BUFFERED};

pub const NDJSON: &str = "application/x-ndjson";

/// True when the request's Accept header names NDJSON.
pub fn wants_ndjson(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|range| {
            range
                .split(';')
                .next()
                .is_some_and(|media| media.trim().eq_ignore_ascii_case(NDJSON))
        })
}

/// The search's state inside the body stream.
enum Progress<F> {
    Running {
        search: std::pin::Pin<Box<F>>,
        reports: mpsc::Receiver<Bytes>,
    },
    /// The answer is in, behind reports still queued: a search that reads
    /// an engine's output within its own poll (chess) can queue several
    /// depths and finish in one poll.
    Draining {
        reports: mpsc::Receiver<Bytes>,
        last: Bytes,
    },
    Done,
}

/// Runs `search` (given the [`Lines`] to report to; it resolves to the
/// finished response body, a JSON object) and answers with its reports as
/// NDJSON lines, then the finished body with `"final": true`.
pub async fn respond<S, F>(search: S) -> Response
where
    S: FnOnce(Lines) -> F,
    F: Future<Output = Result<Bytes, Problem>> + Send + 'static,
{
    let (tx, reports) = mpsc::channel(LINES_BUFFERED);
    let state = Progress::Running {
        // The body is polled after the handler returns: the search stays
        // the client's.
        search: Box::pin(crate::fair::keep_client(search(Lines::new(tx)))),
        reports,
    };
    let mut lines = Box::pin(futures_util::stream::unfold(state, |state| async move {
        let (mut search, mut reports) = match state {
            Progress::Running { search, reports } => (search, reports),
            Progress::Draining { mut reports, last } => {
                return Some(match reports.try_recv() {
                    Ok(report) => (Ok(report), Progress::Draining { reports, last }),
                    Err(_) => (Ok(last), Progress::Done),
                });
            }
            Progress::Done => return None,
        };
        // Reports first: every report of a search is queued before its
        // answer is, so none is lost behind the final line.
        tokio::select! {
            biased;
            Some(report) = reports.recv() => Some((Ok(report), Progress::Running { search, reports })),
            answer = &mut search => {
                let last = answer.and_then(|body| {
                    line(body.to_vec(), true).ok_or_else(|| Problem::internal(&"a search answer is not a JSON object"))
                });
                // A failed search is answered as it is (an ordinary
                // problem when nothing was sent yet).
                Some(match (last, reports.try_recv()) {
                    (Ok(last), Ok(report)) => (Ok(report), Progress::Draining { reports, last }),
                    (last, _) => (last, Progress::Done),
                })
            }
        }
    }));
    match lines.next().await {
        Some(Ok(first)) => {
            let rest = lines.map(|line| {
                line.map_err(|e| {
                    tracing::warn!(status = %e.status(), detail = e.detail(), "a streamed search failed");
                    std::io::Error::other(e.detail().to_string())
                })
            });
            let body = Body::from_stream(futures_util::stream::once(async { Ok(first) }).chain(rest));
            ([(header::CONTENT_TYPE, NDJSON)], body).into_response()
        }
        Some(Err(e)) => e.into_response(),
        None => Problem::internal(&"a search ended without an answer").into_response(),
    }
}

/// The same for an answer that makes its own body (`body_of`), streamed
/// when `streamed` says the client asked for lines.
pub async fn plain_or_lines_with<T: Send + 'static, S, F>(
    streamed: bool,
    search: S,
    body_of: fn(T) -> Result<Bytes, Problem>,
) -> Result<Response, Problem>
where
    S: FnOnce(Option<Lines>) -> F,
    F: Future<Output = Result<T, Problem>> + Send + 'static,
{
    if streamed {
        let answer = |lines| {
            let search = search(Some(lines));
            async move { body_of(search.await?) }
        };
        return Ok(respond(answer).await);
    }
    Ok(JsonBytes(body_of(search(None).await?)?).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_header_is_read_as_a_list() {
        let mut headers = HeaderMap::new();
        assert!(!wants_ndjson(&headers));
        headers.insert(header::ACCEPT, "application/json".parse().unwrap());
        assert!(!wants_ndjson(&headers));
        headers.insert(
            header::ACCEPT,
            "application/problem+json, Application/X-NDJSON;q=0.9".parse().unwrap(),
        );
        assert!(wants_ndjson(&headers));
    }
}
