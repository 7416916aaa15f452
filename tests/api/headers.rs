//! Headers every answer, or a kind of answer, carries (issue 45): `Allow`
//! on a 405, `X-Content-Type-Options` everywhere, `Cache-Control: no-store`
//! on the answer with a match's token, and no CORS on `/metrics`.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_on, spawn_ready_app, TestApp, TestDb, TestResponse};

fn request(method: &str, path: &str) -> Request<Body> {
    Request::builder().method(method).uri(path).body(Body::empty()).unwrap()
}

#[tokio::test]
async fn a_405_lists_the_methods_served_at_its_path_in_allow() {
    let app = spawn_app().await;
    for (method, path, allowed) in [
        ("POST", "/", "GET, HEAD"),
        ("DELETE", "/healthz", "GET, HEAD"),
        ("INVENTED", "/healthz", "GET, HEAD"),
        ("GET", "/pig/decision", "POST"),
        ("DELETE", "/matches/0123", "GET, HEAD"),
        ("GET", "/matches/0123/moves", "POST"),
        ("POST", "/playground/pig.js", "GET, HEAD"),
    ] {
        let r = app.send(request(method, path)).await;
        let detail = r.assert_problem(StatusCode::METHOD_NOT_ALLOWED);
        let allow = r.headers.get(header::ALLOW).map(|v| v.to_str().unwrap());
        assert_eq!(allow, Some(allowed), "{method} {path}: {detail}");
        assert!(detail.contains(allowed), "{method} {path}: {detail}");
    }
    // What Allow lists is served.
    assert_eq!(app.send(request("HEAD", "/healthz")).await.status, StatusCode::OK);
    assert_eq!(app.send(request("HEAD", "/")).await.status, StatusCode::OK);
}

fn nosniff(r: &TestResponse) -> bool {
    r.headers
        .get(header::X_CONTENT_TYPE_OPTIONS)
        .is_some_and(|v| v == "nosniff")
}

#[tokio::test]
async fn every_answer_says_nosniff() {
    let app = spawn_app().await;
    let pig = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0});
    let post = |path: &str, content_type: &str, body: String| {
        Request::post(path)
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap()
    };
    let answers = [
        ("GET /healthz", app.get("/healthz").await),
        ("GET /", app.get("/").await),
        ("GET /openapi.yaml", app.get("/openapi.yaml").await),
        ("GET /metrics", app.get("/metrics").await),
        ("POST /pig/decision", app.post_json("/pig/decision", &pig).await),
        ("404", app.get("/no/such/thing").await),
        ("405", app.send(request("DELETE", "/healthz")).await),
        (
            "400",
            app.post_raw("/pig/decision", Some("application/json"), "{").await,
        ),
        ("415", app.post_raw("/pig/decision", Some("text/plain"), "{}").await),
        (
            "413",
            app.send(post("/pig/decision", "application/json", " ".repeat(70_000)))
                .await,
        ),
        (
            "501",
            app.send(
                Request::post("/pig/decision")
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::TRANSFER_ENCODING, "gzip, chunked")
                    .body(Body::from(pig.to_string()))
                    .unwrap(),
            )
            .await,
        ),
        (
            "NDJSON",
            app.send(
                Request::post("/tictactoe/move")
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::ACCEPT, "application/x-ndjson")
                    .body(Body::from(json!({"board": ["X..", "...", "..."]}).to_string()))
                    .unwrap(),
            )
            .await,
        ),
    ];
    for (what, r) in &answers {
        assert!(nosniff(r), "{what} ({}) lacks nosniff: {:?}", r.status, r.headers);
    }
    let statuses: Vec<u16> = answers.iter().map(|(_, r)| r.status.as_u16()).collect();
    assert_eq!(statuses, [200, 200, 200, 200, 200, 404, 405, 400, 415, 413, 501, 200]);
    // The metrics port's answers too.
    let metrics = kibitz::http::metrics_router(app.state.clone());
    let r = TestResponse::from(metrics, request("GET", "/metrics")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(nosniff(&r), "{:?}", r.headers);
}

#[tokio::test]
async fn the_answer_that_carries_a_match_token_is_not_to_be_stored() {
    let app = spawn_ready_app().await;
    let created = app.post_json("/matches", &json!({"game": "ishitori"})).await;
    assert_eq!(created.status, StatusCode::CREATED);
    assert!(created.json()["token"].is_string());
    assert_eq!(created.headers.get(header::CACHE_CONTROL).unwrap(), "no-store");
}

/// GET `path` from a page of `origin`.
async fn from_origin(app: &TestApp, method: Method, path: &str, origin: &str) -> TestResponse {
    let mut builder = Request::builder()
        .method(method.clone())
        .uri(path)
        .header(header::ORIGIN, origin);
    if method == Method::OPTIONS {
        builder = builder.header(header::ACCESS_CONTROL_REQUEST_METHOD, "GET");
    }
    app.send(builder.body(Body::empty()).unwrap()).await
}

#[tokio::test]
async fn metrics_are_served_but_never_to_a_page_of_another_origin() {
    for (origins, origin) in [
        (vec!["*".to_string()], "https://any.example"),
        (vec!["https://ok.example".to_string()], "https://ok.example"),
    ] {
        let app = spawn_app_on(TestDb::Sqlite, |c| c.cors_origins = origins).await;
        // The origin may call the API...
        let health = from_origin(&app, Method::GET, "/healthz", origin).await;
        assert!(
            health.headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN),
            "{:?}",
            health.headers
        );
        // ...but not read the metrics, which are still served.
        let metrics = from_origin(&app, Method::GET, "/metrics", origin).await;
        assert_eq!(metrics.status, StatusCode::OK);
        let preflight = from_origin(&app, Method::OPTIONS, "/metrics", origin).await;
        for r in [&metrics, &preflight] {
            let cors: Vec<_> = r
                .headers
                .keys()
                .filter(|name| name.as_str().starts_with("access-control-"))
                .collect();
            assert!(cors.is_empty(), "{cors:?}");
        }
    }
}

#[tokio::test]
async fn a_page_of_another_origin_can_read_when_to_retry() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.cors_origins = vec!["https://game.example".into()]).await;
    let r = from_origin(&app, Method::GET, "/healthz", "https://game.example").await;
    let exposed = r
        .headers
        .get(header::ACCESS_CONTROL_EXPOSE_HEADERS)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    for name in ["retry-after", "location", "x-request-id"] {
        assert!(
            exposed.split(',').any(|h| h.trim() == name),
            "{name} not exposed: {exposed}"
        );
    }
}

#[tokio::test]
async fn the_favicon_is_served_where_browsers_ask() {
    let app = spawn_app().await;
    for path in ["/favicon.ico", "/playground/favicon.svg"] {
        let r = app.get(path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_eq!(r.content_type(), "image/svg+xml");
        assert!(String::from_utf8_lossy(&r.body).starts_with("<svg"), "{path}");
    }
    let page = String::from_utf8_lossy(&app.get("/").await.body).to_string();
    assert!(page.contains("rel=\"icon\""), "the page names no icon");
}
