//! Refuses request transfer codings other than plain `chunked`.
//!
//! hyper reads a body whose last coding is `chunked` as chunked and ignores
//! the others, so `Transfer-Encoding: gzip, chunked` would be read as if
//! the body were not compressed. RFC 9112 (section 6.1) says a server
//! answers a coding it does not understand with 501, as nginx does; a
//! proxy in front that understands it differently is how requests are
//! smuggled. The body is not read: the connection is closed after the
//! answer. The outermost layer (`linger`, which deals with bodies it will
//! not read anyway) asks first, so that no other layer touches such a body.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::core::problem::Problem;

/// The 501 for a request whose transfer coding is not `chunked` alone;
/// None for every other request (most have no Transfer-Encoding at all,
/// and cost one header lookup).
pub fn refusal(headers: &HeaderMap) -> Option<Response> {
    let mut codings = headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|value| value.as_bytes().split(|&b| b == b','))
        .map(|coding| coding.trim_ascii());
    let plain = match (codings.next(), codings.next()) {
        (None, _) => true,
        (Some(only), None) => only.eq_ignore_ascii_case(b"chunked"),
        _ => false,
    };
    if plain {
        return None;
    }
    let mut response = Problem::new(
        StatusCode::NOT_IMPLEMENTED,
        "Transfer-Encoding must be \"chunked\" alone; this server decodes no other transfer coding",
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    Some(response)
}
