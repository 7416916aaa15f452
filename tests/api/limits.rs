//! Bounded resources: the search pool turns a flood of long searches into
//! quick refusals while cheap lookups keep answering: a 429 to the client
//! whose own searches hold the workers (a 503 when others' do).

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::json;
use tower::ServiceExt;

use kibitz::games::chess::settings::ChessSettings;
use kibitz::games::pig::settings::PigSettings;

use crate::helpers::{spawn_app_on, TestDb};

/// An 11x11 five-in-a-row search, far from solved within `max_ms`.
fn big_board_body(max_ms: u64) -> serde_json::Value {
    let board: Vec<String> = (0..11)
        .map(|r| {
            if r == 5 {
                ".....X.....".to_string()
            } else {
                ".".repeat(11)
            }
        })
        .collect();
    json!({"board": board, "k": 5, "max_ms": max_ms})
}

fn big_board_search(max_ms: u64) -> Request<Body> {
    Request::builder()
        .method(Method::POST)
        .uri("/tictactoe/move")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(big_board_body(max_ms).to_string()))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_search_pool_answers_429_to_the_client_holding_it_while_others_and_pig_are_answered() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.search_concurrency = 1;
        c.search_queue_ms = 100;
    })
    .await;
    let long = tokio::spawn(app.router.clone().oneshot(big_board_search(1500)));
    tokio::time::sleep(Duration::from_millis(300)).await;

    // The same client: its own search holds the only worker.
    let refused = app.send(big_board_search(100)).await;
    let detail = refused.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    assert!(
        detail.contains("own requests hold 1 of the 1 search workers"),
        "{detail}"
    );
    assert_eq!(refused.headers.get(header::RETRY_AFTER).unwrap(), "1");

    let pig = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": 10, "opponent_score": 20, "turn_total": 5}),
        )
        .await;
    assert_eq!(pig.status, StatusCode::OK);

    let metrics = String::from_utf8(app.get("/metrics").await.body).unwrap();
    assert!(metrics.contains("kibitz_search_workers_busy 1"), "{metrics}");

    // Another client is answered meanwhile: the long search yields to it
    // (see tests/api/fairness.rs).
    let body = big_board_body(1000);
    let other = app
        .send(crate::fairness::from(
            9,
            Method::POST,
            "/tictactoe/move",
            None,
            Some(&body),
        ))
        .await;
    assert_eq!(other.status, StatusCode::OK);

    let first = long.await.unwrap().unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    // The worker is free again.
    assert_eq!(app.send(big_board_search(50)).await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_optional_rate_limit_answers_429_with_retry_after_but_never_limits_health() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.rate_limit_per_sec = 1;
        c.rate_limit_burst = 3;
    })
    .await;
    let pig = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0});
    for _ in 0..3 {
        assert_eq!(app.post_json("/pig/decision", &pig).await.status, StatusCode::OK);
    }
    let limited = app.post_json("/pig/decision", &pig).await;
    limited.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = limited.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    for _ in 0..10 {
        assert_eq!(app.get("/healthz").await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn without_configuration_there_is_no_rate_limit() {
    let app = spawn_app_on(TestDb::Sqlite, |_| {}).await;
    let pig = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0});
    for _ in 0..50 {
        assert_eq!(app.post_json("/pig/decision", &pig).await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn cache_bounds_come_from_the_configuration() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.sequence_cache_mib = 7;
        c.memo_capacity = 1000;
    })
    .await;
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::ishitori::solve::SubtractionSolver>()
            .config()
            .cache_bytes,
        7 << 20
    );
    let metrics = String::from_utf8(app.get("/metrics").await.body).unwrap();
    assert!(
        metrics.contains("kibitz_memo_capacity{game=\"tictactoe\"} 1000"),
        "{metrics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pig_table_to_solve_waits_for_a_search_worker_like_any_search() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.search_concurrency = 1;
        c.search_queue_ms = 100;
    })
    .await;
    let long = tokio::spawn(app.router.clone().oneshot(big_board_search(1500)));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let refused = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": 151, "die_sides": 5}),
        )
        .await;
    // The client's own search holds the only worker: a 429.
    refused.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers.get(header::RETRY_AFTER).unwrap(), "1");
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    let policy = app.get("/pig/policy?goal=151&die_sides=5").await;
    policy.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(long.await.unwrap().unwrap().status(), StatusCode::OK);
    // With the worker free, the table is solved, and then read like a
    // default one, without a worker.
    let decision = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": 151, "die_sides": 5});
    assert_eq!(app.post_json("/pig/decision", &decision).await.status, StatusCode::OK);
    let long = tokio::spawn(app.router.clone().oneshot(big_board_search(1000)));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.post_json("/pig/decision", &decision).await.status, StatusCode::OK);
    long.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_pig_policy_is_written_once_and_served_again_from_the_cache() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_concurrency = 1).await;
    let first = app.get("/pig/policy?goal=60").await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.content_type(), "application/json");
    let started = std::time::Instant::now();
    let again = app.get("/pig/policy?goal=60").await;
    assert_eq!(again.body, first.body);
    // A cache hit needs no search worker: it answers with the pool taken.
    let long = tokio::spawn(app.router.clone().oneshot(big_board_search(800)));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.get("/pig/policy?goal=60").await.body, first.body);
    assert!(started.elapsed() < Duration::from_secs(2));
    long.await.unwrap().unwrap();
}

#[tokio::test]
async fn one_memory_figure_bounds_every_cache() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.memory_mib = Some(512);
        // Replaced by the budget's share.
        c.memo_capacity = 7;
    })
    .await;
    let config = &app.state.config;
    assert_eq!(config.games.of::<PigSettings>().cache_mib, 128);
    // 35% of 512 MiB over two memos of 192-byte entries.
    assert_eq!(config.memo_capacity, 512 * 1024 * 1024 * 35 / 100 / 2 / 192);
    // 5% of 512 MiB of chess answers counted at 16 KiB.
    assert_eq!(config.games.of::<ChessSettings>().cache_entries, 1638);
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::ishitori::solve::SubtractionSolver>()
            .config()
            .cache_bytes,
        25 << 20
    );
    let metrics = String::from_utf8(app.get("/metrics").await.body).unwrap();
    // The memo's own capacity: the configured one rounded down to an even
    // number (two generations).
    let gauge: usize = metrics
        .lines()
        .find_map(|l| l.strip_prefix("kibitz_memo_capacity{game=\"tictactoe\"} "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no tic-tac-toe memo capacity in {metrics}"));
    assert!(
        gauge <= config.memo_capacity && gauge + 64 >= config.memo_capacity,
        "{gauge} for {}",
        config.memo_capacity
    );
    // Every share's worst case together stays within the figure.
    let c = &**config;
    let worst = c.games.of::<PigSettings>().cache_mib * (1 << 20)
        + 2 * c.memo_capacity * 192
        // Connect Four, Othello and Kalah keep one table each, with its
        // small tables.
        + 3 * (c.table_entries * 16 + (4 << 20))
        + (c.sequence_cache_mib << 20)
        + c.answer_cache * 8 * 1024
        + c.review_cache * 256 * 1024
        + c.games.of::<PigSettings>().policy_cache * 1_500_000
        + c.games.of::<ChessSettings>().cache_entries * 16 * 1024;
    assert!(worst <= 512 << 20, "{worst}");
}

/// Othello's 8x8 start: far from solved, so a search runs its whole
/// budget.
fn othello_opening(max_ms: u64, streamed: bool) -> Request<Body> {
    let board = [
        "........", "........", "........", "...OX...", "...XO...", "........", "........", "........",
    ];
    let mut request = Request::builder()
        .method(Method::POST)
        .uri("/othello/move")
        .header(header::CONTENT_TYPE, "application/json");
    if streamed {
        request = request.header(header::ACCEPT, "application/x-ndjson");
    }
    request
        .body(Body::from(
            json!({"board": board, "player": "X", "max_ms": max_ms}).to_string(),
        ))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_timeout_follows_the_cap_so_a_search_within_it_is_answered_plain_or_streamed() {
    // The case is a 60 s cap and max_ms 30000 against a fixed 15 s
    // timeout; the same at a scale a test can wait for: unset, the timeout
    // is the cap plus 5 s, whatever the cap is.
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.max_ms_cap = 6_000;
        c.search_concurrency = 2;
        c.search_queue_ms = 2_000;
    })
    .await;
    assert_eq!(app.state.config.request_timeout_ms, None);
    assert_eq!(app.state.config.request_timeout_in_ms(), 11_000);
    let started = std::time::Instant::now();
    let (plain, streamed) = tokio::join!(
        app.send(othello_opening(4_000, false)),
        app.send(othello_opening(4_000, true))
    );
    let took = started.elapsed();
    assert_eq!(plain.status, StatusCode::OK, "{}", String::from_utf8_lossy(&plain.body));
    assert_eq!(plain.json()["solved"], false);
    assert_eq!(streamed.status, StatusCode::OK);
    assert_eq!(streamed.content_type(), "application/x-ndjson");
    let text = String::from_utf8(streamed.body.clone()).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["final"], true, "{text}");
    assert!(last["move"]["square"].is_string(), "{last}");
    // Both searched their whole budget, and answered within it.
    assert!(
        took >= Duration::from_millis(3_900) && took < Duration::from_secs(9),
        "{took:?}"
    );
}
