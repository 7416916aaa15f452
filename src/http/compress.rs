//! Which responses the compression layer compresses: what tower-http's
//! default predicate compresses, except NDJSON streams (a compressor would
//! hold their lines back). A plain JSON answer, by far the most common, is
//! recognised by its exact Content-Type first: the default predicate looks
//! for three substrings in every answer's Content-Type, which cost a hot
//! JSON route more than its own answer does.

use axum::http::{header, Response};
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::compression::DefaultPredicate;

use super::stream;

/// Zero-sized: the layer clones its predicate for every response.
#[derive(Clone, Copy)]
pub struct WorthCompressing;

impl WorthCompressing {
    pub fn new() -> Self {
        WorthCompressing
    }
}

impl Predicate for WorthCompressing {
    fn should_compress<B: http_body::Body>(&self, response: &Response<B>) -> bool {
        let plain_json = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes() == b"application/json");
        if plain_json {
            SizeAbove::default().should_compress(response)
        } else {
            DefaultPredicate::new()
                .and(NotForContentType::const_new(stream::NDJSON))
                .should_compress(response)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn response(content_type: &str, body: &'static str) -> Response<Body> {
        Response::builder()
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap()
    }

    /// The same verdict as the predicate it stands for, on every kind of
    /// answer the server gives and a few it does not.
    #[test]
    fn decides_as_the_default_predicate_without_ndjson() {
        let reference = DefaultPredicate::new().and(NotForContentType::const_new(stream::NDJSON));
        let ours = WorthCompressing::new();
        let long = "x".repeat(100).leak();
        for content_type in [
            "application/json",
            "application/problem+json",
            "application/json; charset=utf-8",
            stream::NDJSON,
            "text/event-stream",
            "application/grpc",
            "image/png",
            "text/html; charset=utf-8",
            "text/javascript",
        ] {
            for body in ["{}", &*long] {
                let r = response(content_type, body);
                assert_eq!(
                    ours.should_compress(&r),
                    reference.should_compress(&r),
                    "{content_type}, {} bytes",
                    body.len()
                );
            }
        }
        assert!(ours.should_compress(&response("application/json", long)));
        assert!(!ours.should_compress(&response(stream::NDJSON, long)));
    }
}
