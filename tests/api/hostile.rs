//! What a hostile client controls (issue 31): connections, methods,
//! framing, ids, and how much it may create.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use kibitz::app;
use kibitz::config::Config;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{spawn_app, spawn_app_on, test_config, TestDb};
use crate::matches::authorized;

#[tokio::test]
async fn invented_methods_share_one_metrics_label() {
    let app = spawn_app().await;
    for i in 0..50 {
        let request = Request::builder()
            .method(format!("INVENTED{i}").as_str())
            .uri("/healthz")
            .body(Body::empty())
            .unwrap();
        app.send(request).await.assert_problem(StatusCode::METHOD_NOT_ALLOWED);
    }
    let text = String::from_utf8(app.get("/metrics").await.body).unwrap();
    assert!(!text.contains("INVENTED"), "an invented method became a label");
    assert!(
        text.contains("kibitz_http_requests_total{method=\"other\",route=\"/healthz\",status=\"405\"}"),
        "{text}"
    );
}

#[tokio::test]
async fn match_creation_has_a_quota_on_by_default_answering_429_with_retry_after() {
    assert!(Config::defaults().match_quota_per_hour > 0);
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.match_quota_per_hour = 60;
        c.match_quota_burst = 3;
    })
    .await;
    app.wait_ready().await;
    let new_match = json!({"game": "ishitori"});
    for _ in 0..3 {
        assert_eq!(app.post_json("/matches", &new_match).await.status, StatusCode::CREATED);
    }
    let refused = app.post_json("/matches", &new_match).await;
    let detail = refused.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    assert!(detail.contains("matches"), "{detail}");
    let retry: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    // One match a minute comes back.
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    // Only creation counts: everything else goes on.
    let pig = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0});
    assert_eq!(app.post_json("/pig/decision", &pig).await.status, StatusCode::OK);
}

#[tokio::test]
async fn transfer_codings_other_than_chunked_are_refused_with_501() {
    let app = spawn_app().await;
    let request = Request::post("/pig/decision")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::TRANSFER_ENCODING, "gzip, chunked")
        .body(Body::from(r#"{"my_score": 0, "opponent_score": 0, "turn_total": 0}"#))
        .unwrap();
    let r = app.send(request).await;
    r.assert_problem(StatusCode::NOT_IMPLEMENTED);
    assert_eq!(r.headers[header::CONNECTION], "close");
}

#[tokio::test]
async fn a_clients_request_id_is_kept_only_when_it_looks_like_an_id() {
    let app = spawn_app().await;
    let echoed = |id: String| {
        let request = Request::get("/healthz")
            .header("x-request-id", id)
            .body(Body::empty())
            .unwrap();
        let app = &app;
        async move {
            app.send(request).await.headers["x-request-id"]
                .to_str()
                .unwrap()
                .to_string()
        }
    };
    assert_eq!(echoed("trace-42.a_b".into()).await, "trace-42.a_b");
    let long = "a".repeat(10_000);
    let answered = echoed(long.clone()).await;
    assert!(answered != long && answered.len() <= 128, "{answered}");
    let forged = "x\" level=error msg=forged".to_string();
    assert_ne!(echoed(forged.clone()).await, forged);
}

#[tokio::test]
async fn readyz_does_not_show_the_databases_own_words() {
    // Port 9 (discard) has no PostgreSQL on this machine.
    let app = spawn_app_on(TestDb::Url("postgres://nobody@127.0.0.1:9/none".into()), |_| {}).await;
    let detail = app.get("/readyz").await.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(detail.contains("database"), "{detail}");
    for internal in ["127.0.0.1", "refused", "nobody", "error"] {
        assert!(!detail.contains(internal), "{detail}");
    }
}

#[tokio::test]
async fn metrics_can_move_to_a_port_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    config.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
    let (_, router) = app::build(config).unwrap();
    let r = crate::helpers::TestResponse::from(router, Request::get("/metrics").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let metrics_only = kibitz::http::metrics_router(spawn_app().await.state);
    let r =
        crate::helpers::TestResponse::from(metrics_only, Request::get("/metrics").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::OK);
}

/// A real server with short connection bounds.
async fn serve(adjust: impl FnOnce(&mut Config)) -> (app::RunningServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(dir.path());
    adjust(&mut config);
    (app::spawn(config).await.unwrap(), dir)
}

/// Reads until the server closes; how long that took (None: still open
/// after `within`).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((started + within).into(), stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

async fn healthz(addr: std::net::SocketAddr) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("a fresh client is answered")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn slow_headers_and_idle_connections_are_closed_after_the_header_timeout() {
    let (server, _dir) = serve(|c| c.header_timeout_ms = 400).await;
    let opened = Instant::now();
    let mut slow = TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        .await
        .unwrap();
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    let mut kept_alive = TcpStream::connect(server.addr).await.unwrap();
    kept_alive
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    for stream in [&mut slow, &mut idle, &mut kept_alive] {
        closed_within(stream, Duration::from_secs(3))
            .await
            .expect("closed by the header timeout");
        let closed = opened.elapsed();
        assert!(closed >= Duration::from_millis(300), "closed after {closed:?}");
    }
    assert!(healthz(server.addr).await.starts_with("HTTP/1.1 200"));
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn headers_beyond_the_limit_are_refused_with_431() {
    let (server, _dir) = serve(|_| {}).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let big = format!(
        "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    // The server may close before reading it all.
    let _ = stream.write_all(big.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 431"));
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn at_the_connection_cap_the_longest_idle_connection_makes_room() {
    let (server, _dir) = serve(|c| c.max_connections = 4).await;
    let mut hogs = Vec::new();
    for _ in 0..4 {
        let mut hog = TcpStream::connect(server.addr).await.unwrap();
        hog.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            .await
            .unwrap();
        hogs.push(hog);
    }
    // Each fresh client is answered at once, though every slot was taken.
    for _ in 0..3 {
        let started = Instant::now();
        assert!(healthz(server.addr).await.starts_with("HTTP/1.1 200"));
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }
    let closed = closed_within(&mut hogs[0], Duration::from_secs(1)).await;
    assert!(closed.is_some(), "the oldest hog was not closed");
    server.shutdown().await.unwrap();
}

/// At the smallest cap allowed, a client arriving while the other
/// connection is busy is answered: a slot is taken when a client comes,
/// so the newcomer is never the "idle" connection closed to make room
/// (taken ahead, it was, before its request was read).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_two_connections_a_busy_one_and_a_fresh_client_are_both_answered() {
    let (server, _dir) = serve(|c| c.max_connections = 2).await;
    let mut busy = TcpStream::connect(server.addr).await.unwrap();
    let board: Vec<String> = (0..11)
        .map(|r| if r == 5 { ".....X.....".into() } else { ".".repeat(11) })
        .collect();
    let body = json!({"board": board, "k": 5, "max_ms": 1500}).to_string();
    busy.write_all(
        format!(
            "POST /tictactoe/move HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..3 {
        let started = Instant::now();
        assert!(healthz(server.addr).await.starts_with("HTTP/1.1 200"));
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    }
    let mut answer = Vec::new();
    busy.read_to_end(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_match_stops_growing_at_its_ply_limit_and_its_history_comes_in_pages() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.match_max_plies = 10;
        c.history_page = 4;
    })
    .await;
    app.wait_ready().await;
    let created = app
        .post_json(
            "/matches",
            &json!({"game": "ishitori", "options": {"remaining": 1000, "take": [1], "misere": false}}),
        )
        .await
        .json();
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    let moves = format!("/matches/{id}/moves");
    let mut ply = 0;
    let refused = loop {
        let r = authorized(
            &app,
            axum::http::Method::POST,
            &moves,
            Some(token),
            Some(&json!({"ply": ply, "move": {"take": 1}})),
        )
        .await;
        if r.status != StatusCode::OK {
            break r;
        }
        let body = r.json();
        // Every answer's history is one page at most, from the start.
        assert!(body["history"].as_array().unwrap().len() <= 4, "{body}");
        assert_eq!(body["history"][0]["ply"], 1);
        ply = body["ply"].as_u64().unwrap();
    };
    assert_eq!(ply, 10);
    refused.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["type"], "/problems/match-too-long");

    let path = format!("/matches/{id}");
    let page = |since: u64| {
        let path = format!("{path}?since={since}");
        let app = &app;
        async move {
            let r = authorized(app, axum::http::Method::GET, &path, Some(token), None).await;
            assert_eq!(r.status, StatusCode::OK);
            r.json()["history"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["ply"].as_u64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(page(0).await, [1, 2, 3, 4]);
    assert_eq!(page(4).await, [5, 6, 7, 8]);
    assert_eq!(page(8).await, [9, 10]);
    // The review reads the whole history, within the cap.
    let review = authorized(
        &app,
        axum::http::Method::GET,
        &format!("{path}/review"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(review.status, StatusCode::OK);
    assert_eq!(review.json()["moves"].as_array().unwrap().len(), 10);
}
