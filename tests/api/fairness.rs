//! Fair admission (issue 45): one client's long searches, holding every
//! search worker, never refuse another client's light work. Clients are
//! told apart by their address, as the rate limiter sees it.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{spawn_app_on, TestApp, TestDb, TestResponse};

/// A request from `client` (10.0.0.`client`).
pub fn from(client: u8, method: Method, path: &str, token: Option<&str>, body: Option<&Value>) -> Request<Body> {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    if body.is_some() {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let mut request = request
        .body(body.map_or(Body::empty(), |b| Body::from(b.to_string())))
        .unwrap();
    let address: SocketAddr = ([10, 0, 0, client], 40_000).into();
    request.extensions_mut().insert(ConnectInfo(address));
    request
}

/// Othello's 8x8 start: far from solved, so a search runs its whole budget.
fn othello_opening(max_ms: u64) -> Value {
    let board = [
        "........", "........", "........", "...OX...", "...XO...", "........", "........", "........",
    ];
    json!({"board": board, "player": "X", "max_ms": max_ms})
}

/// The heavy client (1) takes both workers with two long searches; returns
/// them running, once they have held the workers past a slice.
async fn two_long_searches(app: &TestApp, max_ms: u64) -> Vec<tokio::task::JoinHandle<TestResponse>> {
    let heavy: Vec<_> = (0..2)
        .map(|_| {
            let router = app.router.clone();
            let request = from(1, Method::POST, "/othello/move", None, Some(&othello_opening(max_ms)));
            tokio::spawn(TestResponse::from(router, request))
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.state.search_pool.busy(), 2, "the heavy searches hold both workers");
    heavy
}

async fn light(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (TestResponse, Duration) {
    let started = Instant::now();
    let r = app.send(from(2, method, path, token, Some(&body))).await;
    (r, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_clients_two_long_searches_refuse_none_of_a_light_clients_requests() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.search_concurrency = 2;
        c.search_slice_ms = 200;
    })
    .await;
    let heavy = two_long_searches(&app, 6_000).await;

    // A lookup: the opening book answers without a worker.
    let (r, took) = light(&app, Method::POST, "/connect-four/move", None, json!({"moves": "44"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert!(took < Duration::from_millis(500), "a book lookup took {took:?}");
    // A trivial Ishitori heap.
    let (r, _) = light(&app, Method::POST, "/ishitori/move", None, json!({"remaining": 24})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    // A small search that needs a worker: one of the heavy client's yields.
    let board = ["....", ".X..", "....", "...."];
    let (r, took) = light(
        &app,
        Method::POST,
        "/tictactoe/move",
        None,
        json!({"board": board, "max_ms": 800}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert!(took < Duration::from_millis(1_500), "a small search took {took:?}");
    // A match the person starts needs no worker; its AI reply gets one.
    let (r, _) = light(&app, Method::POST, "/matches", None, json!({"game": "tictactoe"})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&r.body));
    let m = r.json();
    let (id, token) = (m["id"].as_str().unwrap(), m["token"].as_str().unwrap());
    let mv = json!({"ply": m["ply"], "move": m["legal_moves"][0]});
    let (r, _) = light(&app, Method::POST, &format!("/matches/{id}/moves"), Some(token), mv).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));

    // The heavy client is answered too: its searches yielded, they were
    // not refused.
    for search in heavy {
        let r = search.await.unwrap();
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.json()["solved"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_waits_for_a_worker_within_its_own_budget_not_a_fixed_half_second() {
    // One worker, held by one client's long search that cannot yield to
    // that same client: the second search waits as long as its max_ms
    // allows, then is refused (429: its own search holds the worker); with
    // a longer max_ms it gets the worker.
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_concurrency = 1).await;
    let router = app.router.clone();
    let long = tokio::spawn(TestResponse::from(
        router,
        from(1, Method::POST, "/othello/move", None, Some(&othello_opening(1_500))),
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let r = app
        .send(from(
            1,
            Method::POST,
            "/othello/move",
            None,
            Some(&othello_opening(700)),
        ))
        .await;
    r.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(650) && took < Duration::from_millis(1_100),
        "{took:?}"
    );
    let r = app
        .send(from(
            1,
            Method::POST,
            "/othello/move",
            None,
            Some(&othello_opening(2_000)),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(long.await.unwrap().status, StatusCode::OK);
}
