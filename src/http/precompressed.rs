//! Large answers kept written out are compressed once, when they are
//! written, off the async threads; every client that accepts gzip is then
//! sent those bytes. A Pig policy is 1.2 MB of JSON: compressed again for
//! every request on the async threads, 24 connections asking for it took
//! `/healthz`'s median from 0.9 ms to 192 ms (issue 45). Smaller answers
//! go through the compression layer as before.

use super::extract::JsonBytes;
pub use crate::kept_body::KeptBody;
use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

/// The answer to a request with `headers`: the gzip form made ahead when
/// there is one and the client accepts gzip, else the JSON (which the
/// compression layer compresses where it is worth it).
pub fn respond(kept: KeptBody, headers: &HeaderMap) -> Response {
    let Some(gzip) = kept.gzip_form().filter(|_| accepts_gzip(headers)).cloned() else {
        return JsonBytes(kept.into_json()).into_response();
    };
    let mut response = Response::new(Body::from(gzip));
    let answer = response.headers_mut();
    answer.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    // Set here, the compression layer leaves the body alone.
    answer.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    answer.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// Whether `Accept-Encoding` takes gzip (RFC 9110: by name, as `x-gzip`,
/// or through `*`, unless its weight is 0).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    let mut named = None;
    let mut any = None;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let weighted = parts.all(|p| {
                let p = p.trim();
                let q = p.strip_prefix("q=").or_else(|| p.strip_prefix("Q="));
                q.is_none_or(|q| q.trim().parse::<f32>().is_ok_and(|q| q > 0.0))
            });
            if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
                named = Some(named.unwrap_or(false) || weighted);
            } else if coding == "*" {
                any = Some(weighted);
            }
        }
    }
    named.or(any).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use flate2::read::GzDecoder;
    use std::io::Read;

    fn asking(accept: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(accept).unwrap());
        headers
    }

    #[test]
    fn gzip_is_taken_by_name_or_star_unless_weighed_zero() {
        for (accept, takes) in [
            ("gzip", true),
            ("br, GZIP;q=0.5", true),
            ("x-gzip", true),
            ("*", true),
            ("gzip;q=0", false),
            ("gzip;q=0, *", false),
            ("*;q=0", false),
            ("br, deflate", false),
            ("identity", false),
            ("", false),
        ] {
            assert_eq!(accepts_gzip(&asking(accept)), takes, "{accept}");
        }
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[tokio::test]
    async fn a_long_body_is_sent_as_the_gzip_made_ahead_and_reads_back_the_same() {
        use http_body_util::BodyExt;
        let json = Bytes::from(format!("[{}0]", "0.123456789,".repeat(20_000)));
        let kept = KeptBody::compressed(json.clone());
        assert!(kept.len() > json.len() && kept.len() < 2 * json.len());
        let response = respond(kept.clone(), &asking("gzip, br"));
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(response.headers()[header::VARY], "accept-encoding");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let mut read = Vec::new();
        GzDecoder::new(&body[..]).read_to_end(&mut read).unwrap();
        assert_eq!(read, json);
        // Not asked for gzip: the JSON, for the layer to decide on.
        let plain = respond(kept, &asking("br"));
        assert!(!plain.headers().contains_key(header::CONTENT_ENCODING));
        assert_eq!(plain.into_body().collect().await.unwrap().to_bytes(), json);
    }

    #[test]
    fn a_short_body_is_not_compressed_ahead() {
        let kept = KeptBody::compressed(Bytes::from_static(b"{\"a\":1}"));
        assert_eq!(kept.len(), 7);
    }
}
