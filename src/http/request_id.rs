//! Which client-sent `X-Request-Id` is kept.
//!
//! The id is echoed in the response and written into every log line of the
//! request: one of any length or content would let a client bloat the log
//! or forge log text. A client's id is kept only when it looks like an id
//! (at most [`MAX_LEN`] characters of letters, digits, `-`, `_`, `.`, `:`);
//! any other is dropped, and the next layer gives the request a fresh one.

use axum::extract::Request;

pub const MAX_LEN: usize = 128;

const X_REQUEST_ID: &str = "x-request-id";

/// Drops the client's id unless there is exactly one and it is valid
/// (a plain map of the request: no future to box on the hot path).
pub fn keep_valid(mut request: Request) -> Request {
    let mut ids = request.headers().get_all(X_REQUEST_ID).iter();
    let keep = match (ids.next(), ids.next()) {
        (None, _) => true,
        (Some(id), None) => is_valid(id.as_bytes()),
        _ => false,
    };
    if !keep {
        request.headers_mut().remove(X_REQUEST_ID);
    }
    request
}

fn is_valid(id: &[u8]) -> bool {
    !id.is_empty()
        && id.len() <= MAX_LEN
        && id
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn ids_are_short_and_plain() {
        assert!(is_valid(b"3f2b7c1e-9d4a-4b8e-a1c2-0d9e8f7a6b5c"));
        assert!(is_valid(b"trace.42:span_7"));
        assert!(!is_valid(b""));
        assert!(!is_valid(&[b'a'; 129]));
        assert!(!is_valid(b"id with spaces"));
        assert!(!is_valid(b"id\"quoted\""));
    }
}
