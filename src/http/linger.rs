//! Lingering close for bodies over the limit (what nginx calls
//! `lingering_close`).
//!
//! The 413 is decided before the body is read: by its Content-Length, or by
//! the extractor once the limit is passed. An ordinary client (Python's
//! urllib, curl without `Expect: 100-continue`) writes the whole body before
//! it reads anything; if the server closes with the rest of the body unread,
//! the kernel answers the unread bytes with a reset and the client sees
//! "connection reset" or "broken pipe" instead of the 413. So, when a
//! response leaves a request body unread, this layer first reads and throws
//! away the rest of it, up to [`MAX_BYTES`] and [`MAX_TIME`], and then lets
//! the response go out with `Connection: close`.
//!
//! Only requests whose body may pass the limit are watched (no
//! Content-Length, or one over the limit): the others cost nothing.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};

/// At most this much of an unread body is read and discarded.
pub const MAX_BYTES: u64 = 64 << 20;
/// For at most this long.
pub const MAX_TIME: Duration = Duration::from_secs(5);

/// The body limit the inner layers enforce, in bytes.
#[derive(Clone, Copy)]
pub struct Limit(pub usize);

pub async fn linger(State(Limit(limit)): State<Limit>, request: Request, next: Next) -> Response {
    // A body in a transfer coding the server would misread is refused
    // before anything reads it (and not lingered over: it closes).
    if let Some(refused) = super::transfer_encoding::refusal(request.headers()) {
        return refused;
    }
    let declared = content_length(request.headers());
    let may_overflow = match declared {
        Some(length) => length > limit as u64,
        None => !request.body().is_end_stream(),
    };
    if !may_overflow {
        return next.run(request).await;
    }
    let slot = Arc::new(Mutex::new(None));
    let request = request.map(|body| {
        Body::new(Reclaim {
            inner: Some(body),
            slot: Arc::clone(&slot),
        })
    });
    let mut response = next.run(request).await;
    // The inner layers have dropped the request by now; what they left
    // unread is in the slot.
    let unread = slot.lock().ok().and_then(|mut s| s.take());
    let Some(body) = unread else {
        return response;
    };
    if declared.is_none_or(|length| length <= MAX_BYTES) {
        match tokio::time::timeout(MAX_TIME, discard(body, MAX_BYTES)).await {
            Ok(Some(bytes)) => tracing::debug!(bytes, "discarded the rest of an unread body"),
            Ok(None) => tracing::debug!("an unread body was larger than the server discards"),
            Err(_) => tracing::debug!("an unread body took too long to discard"),
        }
    }
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Reads `body` to its end, keeping nothing; the bytes read, or None when
/// it ends in an error or goes past `max` bytes.
async fn discard(mut body: Body, max: u64) -> Option<u64> {
    let mut total = 0u64;
    loop {
        match poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
            None => return Some(total),
            Some(Err(_)) => return None,
            Some(Ok(frame)) => {
                total += frame.data_ref().map_or(0, |d| d.len() as u64);
                if total > max {
                    return None;
                }
            }
        }
    }
}

/// A request body that, when dropped before its end, hands what is left of
/// it to the slot instead of discarding it.
struct Reclaim {
    inner: Option<Body>,
    slot: Arc<Mutex<Option<Body>>>,
}

impl HttpBody for Reclaim {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        match self.get_mut().inner.as_mut() {
            Some(body) => Pin::new(body).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(HttpBody::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), HttpBody::size_hint)
    }
}

impl Drop for Reclaim {
    fn drop(&mut self) {
        if let Some(body) = self.inner.take().filter(|b| !b.is_end_stream()) {
            if let Ok(mut slot) = self.slot.lock() {
                *slot = Some(body);
            }
        }
    }
}
