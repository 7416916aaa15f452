//! Which responses the compression layer compresses: what tower-http's
//! default predicate compresses, except NDJSON streams (a compressor would
//! hold their lines back). A plain JSON answer, by far the most common, is
//! recognised by its exact Content-Type first: the default predicate looks
//! for three substrings in every answer's Content-Type, which cost a hot
//! JSON route more than its own answer does.
//!
//! And [`layer`]: the compression layer, except that a request without
//! `Accept-Encoding` (which tower-http answers uncompressed) goes around
//! it, with the one change it would make done here: `Vary:
//! accept-encoding` added to an answer worth compressing. tower-http looks
//! for that name in the `Vary` the CORS layer has already set by comparing
//! at every byte, which cost a JSON answer of more than 32 bytes more than
//! all of a Pig decision's own work.

use std::task::{Context, Poll};

use axum::http::{header, HeaderValue, Request, Response};
use futures_util::future::{Either, FutureExt, Map};
use tower::{Layer, Service};
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::compression::{Compression, CompressionBody, CompressionLayer, DefaultPredicate};

use super::stream;

/// Zero-sized: the layer clones its predicate for every response.
#[derive(Clone, Copy)]
pub struct WorthCompressing;

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

/// Compression by [`WorthCompressing`], as the router uses it.
pub fn layer() -> CompressLayer {
    CompressLayer
}

#[derive(Clone, Copy)]
pub struct CompressLayer;

impl<S> Layer<S> for CompressLayer {
    type Service = Compress<S>;

    fn layer(&self, inner: S) -> Compress<S> {
        Compress(CompressionLayer::new().compress_when(WorthCompressing).layer(inner))
    }
}

#[derive(Clone)]
pub struct Compress<S>(Compression<S, WorthCompressing>);

type Body<B> = http_body_util::Either<CompressionBody<B>, B>;
type Answer<B, E> = Result<Response<Body<B>>, E>;

impl<S, ReqBody, ResBody> Service<Request<ReqBody>> for Compress<S>
where
    S: Service<Request<ReqBody>, Response = Response<ResBody>>,
    ResBody: http_body::Body,
{
    type Response = Response<Body<ResBody>>;
    type Error = S::Error;
    #[allow(clippy::type_complexity)]
    type Future = Either<
        Map<
            <Compression<S, WorthCompressing> as Service<Request<ReqBody>>>::Future,
            fn(Result<Response<CompressionBody<ResBody>>, S::Error>) -> Answer<ResBody, S::Error>,
        >,
        Map<S::Future, fn(Result<Response<ResBody>, S::Error>) -> Answer<ResBody, S::Error>>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // The same as the compression layer's: it only asks its inner
        // service.
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request<ReqBody>) -> Self::Future {
        if request.headers().contains_key(header::ACCEPT_ENCODING) {
            let compressed: fn(_) -> _ = |r: Result<Response<_>, _>| r.map(|r| r.map(http_body_util::Either::Left));
            Either::Left(self.0.call(request).map(compressed))
        } else {
            let plain: fn(_) -> _ = |r: Result<Response<_>, _>| r.map(uncompressed);
            Either::Right(self.0.get_mut().call(request).map(plain))
        }
    }
}

/// What the compression layer does to an answer it sends uncompressed.
fn uncompressed<B: http_body::Body>(mut response: Response<B>) -> Response<Body<B>> {
    let headers = response.headers();
    let worth_compressing = !headers.contains_key(header::CONTENT_ENCODING)
        && !headers.contains_key(header::CONTENT_RANGE)
        && WorthCompressing.should_compress(&response);
    if worth_compressing
        && !response
            .headers()
            .get_all(header::VARY)
            .iter()
            .any(|v| names_accept_encoding(v.as_bytes()))
    {
        response
            .headers_mut()
            .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response.map(http_body_util::Either::Right)
}

/// Whether `accept-encoding`, in any case, is anywhere in `value` (as
/// tower-http looks for it), compared only where an `a` starts. The `Vary`
/// the CORS layer sets on every answer is known not to name it.
fn names_accept_encoding(value: &[u8]) -> bool {
    const NAME: &[u8] = b"accept-encoding";
    const CORS_VARY: &[u8] = b"origin, access-control-request-method, access-control-request-headers";
    if value == CORS_VARY {
        return false;
    }
    value.iter().enumerate().any(|(at, b)| {
        (*b | 0x20) == b'a'
            && value
                .get(at..at + NAME.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(NAME))
    })
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
        let ours = WorthCompressing;
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

    /// Around the layer or through it, a request without `Accept-Encoding`
    /// gets the same answer: status, every header in order, body.
    #[tokio::test]
    async fn going_around_answers_as_the_layer_does() {
        use http_body_util::BodyExt;
        use tower::ServiceExt;

        let varies = [
            None,
            Some("origin, access-control-request-method, access-control-request-headers"),
            Some("Origin, Accept-Encoding"),
            Some("x-accept-encodin"),
            Some("ACCEPT-ENCODING"),
        ];
        let long = "x".repeat(100);
        for content_type in [
            "application/json",
            "application/problem+json",
            stream::NDJSON,
            "image/png",
        ] {
            for body in ["{}", long.as_str()] {
                for vary in varies {
                    for extra in [None, Some("content-encoding"), Some("content-range")] {
                        let make = move |_: Request<Body>| {
                            let mut response = Response::builder().header(header::CONTENT_TYPE, content_type);
                            if let Some(vary) = vary {
                                response = response.header(header::VARY, vary).header(header::VARY, "x-other");
                            }
                            if let Some(name) = extra {
                                response = response.header(name, "identity");
                            }
                            let response = response.body(Body::from(body.to_string())).unwrap();
                            async move { Ok::<_, std::convert::Infallible>(response) }
                        };
                        let request = || Request::get("/").body(Body::empty()).unwrap();
                        let ours = layer().layer(tower::service_fn(make)).oneshot(request()).await.unwrap();
                        let theirs = CompressionLayer::new()
                            .compress_when(WorthCompressing)
                            .layer(tower::service_fn(make))
                            .oneshot(request())
                            .await
                            .unwrap();
                        let case = format!("{content_type} {} {vary:?} {extra:?}", body.len());
                        assert_eq!(ours.status(), theirs.status(), "{case}");
                        let headers = |h: &axum::http::HeaderMap| -> Vec<(String, Vec<u8>)> {
                            h.iter().map(|(n, v)| (n.to_string(), v.as_bytes().to_vec())).collect()
                        };
                        assert_eq!(headers(ours.headers()), headers(theirs.headers()), "{case}");
                        let ours = ours.into_body().collect().await.unwrap().to_bytes();
                        let theirs = theirs.into_body().collect().await.unwrap().to_bytes();
                        assert_eq!(ours, theirs, "{case}");
                    }
                }
            }
        }
    }

    #[test]
    fn finds_the_name_where_tower_http_does() {
        for value in [
            "",
            "a",
            "accept-encoding",
            "xAccept-Encodingx",
            "accept-encodin",
            "aaccept-encoding",
            "origin",
        ] {
            let naive = value
                .as_bytes()
                .windows(15)
                .any(|w| w.eq_ignore_ascii_case(b"accept-encoding"));
            assert_eq!(names_accept_encoding(value.as_bytes()), naive, "{value}");
        }
    }
}
