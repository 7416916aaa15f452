//! Large answers kept written out are compressed once, when they are
//! written, off the async threads; every client that accepts gzip is then
//! sent those bytes. A Pig policy is 1.2 MB of JSON: compressed again for
//! every request on the async threads, 24 connections asking for it took
//! `/healthz`'s median from 0.9 ms to 192 ms (issue 45). Smaller answers
//! go through the compression layer as before.

use std::io::Write;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use flate2::write::GzEncoder;

use super::extract::JsonBytes;

/// Bodies at least this long are worth compressing once and keeping
/// compressed; below it, compressing per request costs less than a
/// millisecond.
pub const COMPRESS_ONCE_FROM: usize = 64 * 1024;

/// A JSON answer, with its gzip form when it was made ahead.
#[derive(Clone, Debug)]
pub struct KeptBody {
    json: Bytes,
    /// Shared by every clone, so that a cache and the answers in flight
    /// hold one copy.
    gzip: Option<Arc<Bytes>>,
}

impl From<Bytes> for KeptBody {
    /// A body sent as it is (the compression layer compresses it per
    /// request where that is worth it).
    fn from(json: Bytes) -> Self {
        KeptBody { json, gzip: None }
    }
}

impl KeptBody {
    /// `json` with its gzip form made now, when it is long enough to be
    /// worth it. CPU-bound (about 20 ms for a megabyte): call it off the
    /// async threads, where the body was written.
    pub fn compressed(json: Bytes) -> Self {
        let gzip = (json.len() >= COMPRESS_ONCE_FROM)
            .then(|| gzip(&json))
            .flatten()
            .map(Arc::new);
        KeptBody { json, gzip }
    }

    pub fn json(&self) -> &Bytes {
        &self.json
    }

    /// The bytes it holds: its JSON and its gzip form.
    pub fn len(&self) -> usize {
        self.json.len() + self.gzip.as_ref().map_or(0, |g| g.len())
    }

    pub fn is_empty(&self) -> bool {
        self.json.is_empty()
    }

    /// The answer to a request with `headers`: the gzip form made ahead
    /// when there is one and the client accepts gzip, else the JSON (which
    /// the compression layer compresses where it is worth it).
    pub fn respond(self, headers: &HeaderMap) -> Response {
        let Some(gzip) = self.gzip.filter(|_| accepts_gzip(headers)) else {
            return JsonBytes(self.json).into_response();
        };
        let mut response = Response::new(Body::from(Bytes::clone(&gzip)));
        let answer = response.headers_mut();
        answer.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        // Set here, the compression layer leaves the body alone.
        answer.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        answer.append(header::VARY, HeaderValue::from_static("accept-encoding"));
        response
    }
}

/// `json` compressed with gzip at the compression layer's level, or None
/// when that would not make it smaller.
fn gzip(json: &[u8]) -> Option<Bytes> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(json.len() / 4), flate2::Compression::default());
    encoder.write_all(json).ok()?;
    let mut compressed = encoder.finish().ok()?;
    compressed.shrink_to_fit();
    (compressed.len() < json.len()).then(|| Bytes::from(compressed))
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
        let response = kept.clone().respond(&asking("gzip, br"));
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(response.headers()[header::VARY], "accept-encoding");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let mut read = Vec::new();
        GzDecoder::new(&body[..]).read_to_end(&mut read).unwrap();
        assert_eq!(read, json);
        // Not asked for gzip: the JSON, for the layer to decide on.
        let plain = kept.respond(&asking("br"));
        assert!(!plain.headers().contains_key(header::CONTENT_ENCODING));
        assert_eq!(plain.into_body().collect().await.unwrap().to_bytes(), json);
    }

    #[test]
    fn a_short_body_is_not_compressed_ahead() {
        let kept = KeptBody::compressed(Bytes::from_static(b"{\"a\":1}"));
        assert_eq!(kept.len(), 7);
    }
}
