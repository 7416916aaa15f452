//! `spawn_app()`: a real router and state on a fresh database, ready.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use kibitz::app;
use kibitz::config::Config;
use kibitz::http::AppState;
use serde_json::Value;
use tower::ServiceExt;

pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    _dir: tempfile::TempDir,
}

pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl TestResponse {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn content_type(&self) -> &str {
        self.headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Asserts an RFC 9457 problem with this status, and returns its detail.
    pub fn assert_problem(&self, status: StatusCode) -> String {
        assert_eq!(self.status, status, "body: {}", String::from_utf8_lossy(&self.body));
        assert!(
            self.content_type().starts_with("application/problem+json"),
            "content type {}",
            self.content_type()
        );
        let body = self.json();
        for field in ["type", "title", "status", "detail"] {
            assert!(body.get(field).is_some(), "problem without {field}: {body}");
        }
        assert_eq!(body["status"], status.as_u16());
        if status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE {
            // When to retry, in the body as in the header.
            let header = self.headers.get(axum::http::header::RETRY_AFTER);
            let header: Option<u64> = header.and_then(|h| h.to_str().ok()).and_then(|h| h.parse().ok());
            assert!(
                body["retry_after"].as_u64().is_some_and(|s| s >= 1),
                "no retry_after: {body}"
            );
            assert_eq!(body["retry_after"].as_u64(), header, "{body}");
        }
        body["detail"].as_str().unwrap_or_default().to_string()
    }
}

/// Tables are shared by all tests of a run (written once, then loaded).
pub fn shared_table_dir() -> PathBuf {
    std::env::temp_dir().join("kibitz-test-tables")
}

/// Which database the test runs on.
pub enum TestDb {
    Sqlite,
    Postgres(String),
    Url(String),
}

/// The PostgreSQL server named by KIBITZ_TEST_DATABASE_URL. None only when
/// the run opted out with KIBITZ_TEST_POSTGRES=skip (scripts/test.sh does so,
/// and says so in its last line, when no server answers); a missing URL
/// without that opt-out fails the test instead of passing it unrun.
pub fn postgres_server() -> Option<String> {
    if let Some(url) = std::env::var("KIBITZ_TEST_DATABASE_URL").ok().filter(|u| !u.is_empty()) {
        return Some(url);
    }
    assert_eq!(
        std::env::var("KIBITZ_TEST_POSTGRES").as_deref(),
        Ok("skip"),
        "KIBITZ_TEST_DATABASE_URL is not set: name a PostgreSQL server (scripts/test.sh finds one on 127.0.0.1:5432), or set KIBITZ_TEST_POSTGRES=skip to run the SQLite half only"
    );
    None
}

/// Creates a database of its own on the test server and returns its URL.
pub async fn fresh_postgres_database(server_url: &str) -> String {
    use sqlx::Connection;
    static N: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        "kibitz_test_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let mut conn = sqlx::PgConnection::connect(server_url)
        .await
        .unwrap_or_else(|e| panic!("KIBITZ_TEST_DATABASE_URL={server_url} does not answer: {e}"));
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .unwrap();
    let base = server_url.rsplit_once('/').map_or(server_url, |(b, _)| b);
    format!("{base}/{name}")
}

/// Chess's settings in `config`, to change.
pub fn chess_settings(config: &mut Config) -> &mut kibitz::games::chess::settings::ChessSettings {
    config
        .games
        .of_mut()
        .expect("chess's settings are parsed with the server's")
}

pub fn test_config(dir: &std::path::Path) -> Config {
    let mut config = Config::defaults();
    config.bind = "127.0.0.1:0".parse().unwrap();
    config.data_dir = shared_table_dir();
    config.database_url = Some(format!("sqlite://{}?mode=rwc", dir.join("kibitz.db").display()));
    // Stockfish starts at the first chess request: most tests never make
    // one, and a pool per test app would cost the suite a core.
    chess_settings(&mut config).engine_warm_up = false;
    config
}

pub async fn spawn_app() -> TestApp {
    spawn_app_on(TestDb::Sqlite, |_| {}).await
}

/// An app on SQLite whose database is migrated and that says it is ready:
/// a test that stores matches then never races the start-up migrations
/// (on a loaded machine they can take seconds).
pub async fn spawn_ready_app() -> TestApp {
    let app = spawn_app().await;
    let ready = app.wait_ready().await;
    assert_eq!(ready.status, StatusCode::OK, "{}", String::from_utf8_lossy(&ready.body));
    app
}

pub async fn spawn_app_on(db: TestDb, adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    match db {
        TestDb::Sqlite => {}
        TestDb::Postgres(server) => config.database_url = Some(fresh_postgres_database(&server).await),
        TestDb::Url(url) => config.database_url = Some(url),
    }
    adjust(&mut config);
    let (state, router) = app::build(config).expect("app builds");
    app::start_background_work(&state);
    let app = TestApp {
        router,
        state,
        _dir: dir,
    };
    app.wait_for_tables().await;
    app
}

impl TestApp {
    pub async fn wait_for_tables(&self) {
        for _ in 0..600 {
            if kibitz::games::pig::tables::shared_tables(&self.state.solvers).defaults_ready() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("Pig tables did not load within 30 s");
    }

    /// Polls /readyz until it answers 200 (or gives up and returns the last answer).
    pub async fn wait_ready(&self) -> TestResponse {
        let mut last = self.get("/readyz").await;
        for _ in 0..300 {
            if last.status == StatusCode::OK {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            last = self.get("/readyz").await;
        }
        last
    }

    pub async fn send(&self, request: Request<Body>) -> TestResponse {
        let response = self.router.clone().oneshot(request).await.expect("router never fails");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.expect("body").to_bytes().to_vec();
        TestResponse { status, headers, body }
    }

    pub async fn get(&self, path: &str) -> TestResponse {
        self.send(Request::get(path).body(Body::empty()).unwrap()).await
    }

    pub async fn post_raw(&self, path: &str, content_type: Option<&str>, body: impl Into<Body>) -> TestResponse {
        let mut builder = Request::builder().method(Method::POST).uri(path);
        if let Some(ct) = content_type {
            builder = builder.header(header::CONTENT_TYPE, ct);
        }
        self.send(builder.body(body.into()).unwrap()).await
    }

    /// A JSON POST that must answer 200: its JSON body.
    pub async fn post_ok(&self, path: &str, body: &Value) -> Value {
        let r = self.post_json(path, body).await;
        assert_eq!(r.status, StatusCode::OK, "{body}: {}", String::from_utf8_lossy(&r.body));
        r.json()
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> TestResponse {
        self.post_raw(path, Some("application/json"), body.to_string()).await
    }
}

impl TestResponse {
    /// The answer of `router` to one request.
    pub async fn from(router: Router, request: Request<Body>) -> TestResponse {
        let response = router.oneshot(request).await.expect("router never fails");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.expect("body").to_bytes().to_vec();
        TestResponse { status, headers, body }
    }
}

/// Whether a catalog entry's game can be played on this test server. Only
/// chess depends on something outside kibitz (Stockfish), and a run may
/// go without it only when it said so (KIBITZ_TEST_STOCKFISH=skip, see
/// support/stockfish.rs): otherwise an unavailable game fails the test.
pub fn available(entry: &serde_json::Value) -> bool {
    if entry["available"] == true {
        return true;
    }
    assert_eq!(
        std::env::var("KIBITZ_TEST_STOCKFISH").as_deref(),
        Ok("skip"),
        "{} is listed unavailable: {entry}",
        entry["id"]
    );
    eprintln!("{} unavailable and KIBITZ_TEST_STOCKFISH=skip: left out", entry["id"]);
    false
}

/// Plays the AI's level 1 against its level 10 in the arena, one game
/// with each moving first, and holds that level 1 lost both: a level whose
/// weakening is lost on the way to the engine plays at full strength and
/// wins the game it moves first in. An engine game takes seconds, more
/// than the arena's default budget of a request.
pub async fn assert_level_one_loses_to_level_ten(game: &str) {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.max_ms_cap = 120_000;
        c.arena_max_total_ms = 120_000;
    })
    .await;
    let request = serde_json::json!({"game": game, "a": "level:1", "b": "level:10", "games": 2, "seed": 1});
    let body = app.post_ok("/arena", &request).await;
    assert_eq!(
        (
            body["a"]["wins"].as_u64(),
            body["a"]["draws"].as_u64(),
            body["a"]["losses"].as_u64()
        ),
        (Some(0), Some(0), Some(2)),
        "{game}: level 1 against level 10: {body}"
    );
}
