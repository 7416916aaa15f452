//! The request timeout over a streamed answer's whole body.
//!
//! tower-http's timeout ends when the response's head is ready; a search
//! streamed as NDJSON writes its lines after that. Here the body of an
//! answer of unknown length is held to the same deadline, counted from the
//! request's arrival: past it the body ends with an error, so the
//! connection is closed mid-answer as with any failed stream, and the
//! search the body owns is dropped, which stops it. A search within
//! `max_ms_cap` always ends first: the timeout is derived from the cap, or
//! refused at start-up when set below it (`Config::validate`).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};
use tokio::time::{sleep_until, Instant, Sleep};

/// Middleware: answers of unknown length end by `limit` after the request
/// arrived; answers of known length are handed on as they are (the
/// timeout layer has bounded them already).
pub async fn bound_streams(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    let deadline = Instant::now() + limit;
    let response = next.run(request).await;
    if http_body::Body::size_hint(response.body()).exact().is_some() {
        return response;
    }
    response.map(|body| {
        Body::new(Bounded {
            body,
            deadline: Box::pin(sleep_until(deadline)),
            limit,
            cut: false,
        })
    })
}

/// A body that ends with an error at its deadline.
struct Bounded {
    body: Body,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
    cut: bool,
}

impl http_body::Body for Bounded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if this.cut {
            return Poll::Ready(None);
        }
        if this.deadline.as_mut().poll(cx).is_ready() {
            this.cut = true;
            // Dropping the rest stops the search that writes it.
            this.body = Body::empty();
            let ms = this.limit.as_millis();
            tracing::warn!(
                timeout_ms = ms,
                "a streamed answer reached the request timeout and was cut off"
            );
            metrics::counter!("kibitz_streams_cut_total").increment(1);
            return Poll::Ready(Some(Err(axum::Error::new(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the answer took longer than the request timeout ({ms} ms)"),
            )))));
        }
        Pin::new(&mut this.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.cut || self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use axum::{middleware, Router};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    fn app(limit: Duration) -> Router {
        Router::new()
            .route(
                "/endless",
                get(|| async {
                    let lines = futures_util::stream::unfold(0u64, |n| async move {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        Some((Ok::<_, std::io::Error>(Bytes::from(format!("{n}\n"))), n + 1))
                    });
                    Body::from_stream(lines)
                }),
            )
            .route(
                "/short",
                get(|| async {
                    let lines = futures_util::stream::iter(
                        ["a\n", "b\n"].map(|line| Ok::<_, std::io::Error>(Bytes::from(line))),
                    );
                    Body::from_stream(lines)
                }),
            )
            .layer(middleware::from_fn_with_state(limit, bound_streams))
    }

    async fn get_body(router: Router, path: &str) -> Result<Bytes, axum::Error> {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = router.oneshot(request).await.unwrap();
        response.into_body().collect().await.map(|body| body.to_bytes())
    }

    #[tokio::test]
    async fn a_stream_is_cut_off_at_the_request_timeout() {
        let started = std::time::Instant::now();
        let error = get_body(app(Duration::from_millis(300)), "/endless").await.unwrap_err();
        let took = started.elapsed();
        assert!(error.to_string().contains("request timeout"), "{error}");
        assert!(
            took >= Duration::from_millis(300) && took < Duration::from_secs(2),
            "{took:?}"
        );
    }

    #[tokio::test]
    async fn a_stream_within_the_timeout_is_whole() {
        let body = get_body(app(Duration::from_secs(5)), "/short").await.unwrap();
        assert_eq!(body, "a\nb\n");
    }
}
