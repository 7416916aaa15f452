use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{postgres_server, spawn_app, spawn_app_on, TestDb};

#[tokio::test]
async fn healthz_says_ok() {
    let app = spawn_app().await;
    let r = app.get("/healthz").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json(), json!({"status": "ok"}));
}

#[tokio::test]
async fn readyz_is_ready_once_tables_and_sqlite_are() {
    let app = spawn_app().await;
    let r = app.wait_ready().await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["database"], "sqlite");
}

#[tokio::test]
async fn readyz_is_ready_on_postgresql() {
    let Some(server) = postgres_server() else {
        eprintln!("NOT RUN against PostgreSQL: KIBITZ_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
        return;
    };
    let app = spawn_app_on(TestDb::Postgres(server), |_| {}).await;
    let r = app.wait_ready().await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["database"], "postgresql");
}

#[tokio::test]
async fn readyz_comes_back_when_a_dropped_postgresql_database_is_created_again() {
    use sqlx::Connection;
    let Some(server) = postgres_server() else {
        eprintln!("NOT RUN against PostgreSQL: KIBITZ_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
        return;
    };
    let app = spawn_app_on(TestDb::Postgres(server.clone()), |_| {}).await;
    let ready = app.wait_ready().await;
    assert_eq!(ready.status, StatusCode::OK, "{}", String::from_utf8_lossy(&ready.body));
    let url = app.state.config.database_url();
    let name = url.rsplit('/').next().unwrap().to_string();
    let mut admin = sqlx::PgConnection::connect(&server).await.unwrap();
    // FORCE: the server's own connections are cut, as an operator's drop
    // would cut them.
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
    app.get("/readyz").await.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let ready = app.wait_ready().await;
    assert_eq!(ready.status, StatusCode::OK, "{}", String::from_utf8_lossy(&ready.body));
    // The schema is back: a match is stored and read again.
    let created = app.post_json("/matches", &json!({"game": "tictactoe"})).await;
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
}

#[tokio::test]
async fn readyz_says_why_when_the_database_is_down_while_pig_still_answers() {
    // Port 9 (discard) has no PostgreSQL on this machine.
    let app = spawn_app_on(TestDb::Url("postgres://nobody@127.0.0.1:9/none".into()), |_| {}).await;
    let r = app.get("/readyz").await;
    let detail = r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(detail.contains("database"), "{detail}");
    let pig = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": 0, "opponent_score": 0, "turn_total": 0}),
        )
        .await;
    assert_eq!(pig.status, StatusCode::OK);
}

#[tokio::test]
async fn readyz_turns_unavailable_when_draining_starts() {
    let app = spawn_app().await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    app.state.start_draining();
    let detail = app.get("/readyz").await.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(detail.contains("shutting down"), "{detail}");
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status() {
    let app = spawn_app().await;
    app.post_json(
        "/pig/decision",
        &json!({"my_score": 5, "opponent_score": 0, "turn_total": 0}),
    )
    .await;
    app.post_json(
        "/pig/decision",
        &json!({"my_score": 500, "opponent_score": 0, "turn_total": 0}),
    )
    .await;
    let r = app.get("/metrics").await;
    assert_eq!(r.status, StatusCode::OK);
    let text = String::from_utf8_lossy(&r.body);
    for needle in [
        "kibitz_http_requests_total{method=\"POST\",route=\"/pig/decision\",status=\"200\"}",
        "kibitz_http_requests_total{method=\"POST\",route=\"/pig/decision\",status=\"422\"}",
        "kibitz_http_request_duration_seconds_bucket",
        "kibitz_pig_tables_bytes",
        "kibitz_answer_cache_capacity{game=\"tictactoe\"} 4096",
    ] {
        assert!(text.contains(needle), "metrics lack {needle}:\n{text}");
    }
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_cors_allows_any_origin() {
    let app = spawn_app().await;
    let request = axum::http::Request::builder()
        .method("OPTIONS")
        .uri("/pig/decision")
        .header("origin", "https://game.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(axum::body::Body::empty())
        .unwrap();
    let r = app.send(request).await;
    assert_eq!(r.headers.get("access-control-allow-origin").unwrap(), "*");
    assert!(r.headers.get("access-control-allow-credentials").is_none());
    assert!(app.get("/healthz").await.headers.get("x-request-id").is_some());
}

#[tokio::test]
async fn cors_origins_can_be_restricted() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.cors_origins = vec!["https://ok.example".into()]).await;
    let request = |origin: &str| {
        axum::http::Request::get("/healthz")
            .header("origin", origin)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    let allowed = app.send(request("https://ok.example")).await;
    assert_eq!(
        allowed.headers.get("access-control-allow-origin").unwrap(),
        "https://ok.example"
    );
    let other = app.send(request("https://evil.example")).await;
    assert!(other.headers.get("access-control-allow-origin").is_none());
}
