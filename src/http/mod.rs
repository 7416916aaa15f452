//! The HTTP face of kibitz: routes, middleware, errors.

pub mod analyze;
pub mod arena;
pub mod catalog;
mod compress;
mod deadline;
pub mod error;
pub mod extract;
pub mod games;
pub mod health;
pub mod linger;
mod match_access;
pub mod matches;
pub mod metrics;
pub mod playground;
pub mod precompressed;

pub mod problems;
pub mod rate_limit;
mod request_id;
pub mod review;
pub mod serve;
pub mod state;
pub mod stream;
mod transfer_encoding;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, Method, StatusCode};
use axum::routing::{get, post, MethodRouter};
use axum::{middleware, Router};
use tower::util::MapRequestLayer;
use tower::ServiceBuilder;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::map_response_body::MapResponseBodyLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::config::Config;
use crate::core::problem::Problem;
pub use state::AppState;

/// Every route the server answers, as (method, path, handler). The OpenAPI
/// test checks this list against openapi.yaml in both directions.
pub fn routes() -> Vec<(Method, &'static str, MethodRouter<AppState>)> {
    let mut routes = vec![
        (Method::GET, "/healthz", get(health::healthz)),
        (Method::GET, "/readyz", get(health::readyz)),
        (Method::GET, "/metrics", get(health::metrics)),
        (Method::GET, "/openapi.yaml", get(health::openapi)),
        (Method::GET, "/games", get(catalog::games)),
        (Method::POST, "/analyze", post(analyze::analyze)),
        (Method::POST, "/arena", post(arena::run)),
        (Method::POST, "/matches", post(matches::create)),
        (Method::GET, "/matches/{id}", get(matches::get_match)),
        (Method::POST, "/matches/{id}/moves", post(matches::play)),
        (Method::GET, "/matches/{id}/review", get(review::match_review)),
        (Method::GET, "/", get(playground::index)),
        (Method::GET, "/playground/{file}", get(playground::asset)),
        (Method::GET, "/favicon.ico", get(playground::favicon)),
    ];
    routes.extend(games::routes());
    routes
}

/// The methods served at a concrete path (templates such as `{id}` match any
/// one segment), as a 405's `Allow` lists them: HEAD with every GET (axum
/// answers it with the GET's headers).
pub fn allowed_methods(path: &str) -> Vec<String> {
    // Trimmed alike, so that "/" is the root's template too.
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let matches = |template: &str| {
        let parts: Vec<&str> = template.trim_end_matches('/').split('/').collect();
        parts.len() == segments.len()
            && parts
                .iter()
                .zip(&segments)
                .all(|(t, s)| t == s || (t.starts_with('{') && t.ends_with('}')))
    };
    let mut methods = Vec::new();
    for (method, _, _) in routes().into_iter().filter(|(_, template, _)| matches(template)) {
        let head = method == Method::GET;
        methods.push(method.to_string());
        if head {
            methods.push(Method::HEAD.to_string());
        }
    }
    methods
}

pub fn router(state: AppState) -> Router {
    let config = state.config.clone();
    let match_quota = rate_limit::RateLimit::match_quota(
        config.match_quota_per_hour,
        config.match_quota_burst,
        config.rate_limit_trust_forwarded,
    );
    let mut router = Router::new();
    for (method, path, handler) in routes() {
        // Metrics moved to a port of their own are not on the public one.
        if path == "/metrics" && config.metrics_bind.is_some() {
            continue;
        }
        let handler = match &match_quota {
            Some(quota) if method == Method::POST && path == "/matches" => {
                handler.route_layer(middleware::from_fn_with_state(Arc::clone(quota), rate_limit::limit_all))
            }
            _ => handler,
        };
        router = router.route(path, handler);
    }
    let mut router = router
        .route_layer(middleware::from_fn(metrics::record))
        .fallback(not_found)
        .with_state(state);
    if let Some(limit) = rate_limit::RateLimit::new(
        config.rate_limit_per_sec,
        config.rate_limit_burst,
        config.rate_limit_trust_forwarded,
    ) {
        router = router.layer(middleware::from_fn_with_state(limit, rate_limit::limit));
    }
    let router = router.layer(middleware::from_fn_with_state(
        config.rate_limit_trust_forwarded,
        rate_limit::as_client,
    ));
    router.layer(DefaultBodyLimit::max(config.body_limit_bytes)).layer(
        ServiceBuilder::new()
            // On every answer, the linger's own refusals included.
            .layer(nosniff())
            // Outermost, so that neither the timeout nor the request's span
            // covers reading the unread rest of an oversized body.
            // It also refuses, unread, a body in a transfer coding hyper
            // would misread.
            .layer(middleware::from_fn_with_state(
                linger::Limit(config.body_limit_bytes),
                linger::linger,
            ))
            .layer(MapRequestLayer::new(request_id::keep_valid))
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(|req: &axum::http::Request<_>| {
                        let id = req
                            .headers()
                            .get("x-request-id")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("-");
                        tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), id)
                    })
                    .on_request(())
                    .on_response(DefaultOnResponse::new().level(Level::INFO)),
            )
            .layer(PropagateRequestIdLayer::x_request_id())
            // Not NDJSON: a compressor would hold a stream's lines back.
            .layer(compress::layer())
            .layer(middleware::from_fn(no_cors_on_metrics))
            .layer(cors(&config))
            .layer(middleware::from_fn(problems::problem_for_plain_errors))
            // The same limit over a streamed answer's whole body: the
            // timeout layer's ends with the response's head.
            .layer(middleware::from_fn_with_state(
                config.request_timeout(),
                deadline::bound_streams,
            ))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::SERVICE_UNAVAILABLE,
                config.request_timeout(),
            ))
            // Refuses oversized bodies by Content-Length before reading
            // them; the extractors' limit catches streamed ones.
            .layer(MapResponseBodyLayer::new(axum::body::Body::new))
            .layer(RequestBodyLimitLayer::new(config.body_limit_bytes)),
    )
}

/// The router of the metrics port (`--metrics-bind`): GET /metrics only.
pub fn metrics_router(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(health::metrics))
        .route_layer(middleware::from_fn(metrics::record))
        .fallback(not_found)
        .with_state(state)
        .layer(nosniff())
}

/// `X-Content-Type-Options: nosniff`: a browser takes every answer as the
/// type it says (a problem+json never runs as a script or a page).
fn nosniff() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(
        axum::http::header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    )
}

/// `GET /metrics` is served to anyone who can reach the port (or
/// `--metrics-bind` moves it), but never to a page of another origin: its
/// answers carry no CORS headers, whatever `--cors-origins` allows.
async fn no_cors_on_metrics(request: axum::extract::Request, next: middleware::Next) -> axum::response::Response {
    let metrics = request.uri().path() == "/metrics";
    let mut response = next.run(request).await;
    if metrics {
        let headers = response.headers_mut();
        for name in [
            axum::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            axum::http::header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
            axum::http::header::ACCESS_CONTROL_ALLOW_METHODS,
            axum::http::header::ACCESS_CONTROL_ALLOW_HEADERS,
            axum::http::header::ACCESS_CONTROL_EXPOSE_HEADERS,
            axum::http::header::ACCESS_CONTROL_MAX_AGE,
        ] {
            headers.remove(name);
        }
    }
    response
}

fn cors(config: &Config) -> CorsLayer {
    let layer = CorsLayer::new()
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([axum::http::header::CONTENT_TYPE, axum::http::header::AUTHORIZATION])
        // What a page on another origin needs to read beyond the
        // safelisted headers: where a match was created, when to retry,
        // which methods a path takes, the id to quote in a report.
        .expose_headers([
            axum::http::header::LOCATION,
            axum::http::header::RETRY_AFTER,
            axum::http::header::ALLOW,
            axum::http::HeaderName::from_static("x-request-id"),
        ]);
    if config.cors_origins.iter().any(|o| o == "*") {
        layer.allow_origin(Any)
    } else {
        let origins: Vec<HeaderValue> = config
            .cors_origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o.trim()).ok())
            .collect();
        layer.allow_origin(AllowOrigin::list(origins))
    }
}

async fn not_found(uri: axum::http::Uri) -> Problem {
    ::metrics::counter!("kibitz_http_requests_total", "method" => "any", "route" => "unmatched", "status" => "404")
        .increment(1);
    Problem::new(StatusCode::NOT_FOUND, format!("no resource at {}", uri.path()))
}
