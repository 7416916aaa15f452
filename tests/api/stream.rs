//! Streaming a search: `Accept: application/x-ndjson` on the four search
//! endpoints.
//!
//! The plain answer a stream's last line is held to comes from a second,
//! fresh app: its memo and tables start as cold as the streaming app's did,
//! so a deterministic solve does exactly the same work (the same `nodes`
//! too) and nothing is left out of the comparison.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_on, TestApp, TestDb, TestResponse};

const NDJSON: &str = "application/x-ndjson";

async fn post_ndjson(app: &TestApp, path: &str, body: &Value) -> TestResponse {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, NDJSON)
        .body(Body::from(body.to_string()))
        .unwrap();
    app.send(request).await
}

/// The lines of an NDJSON answer, checked: the content type, every line an
/// object, `final` false on all but the last, true on the last.
fn lines(response: &TestResponse) -> Vec<Value> {
    let text = String::from_utf8_lossy(&response.body);
    assert_eq!(response.status, StatusCode::OK, "{text}");
    assert_eq!(response.content_type(), NDJSON);
    assert!(text.ends_with('\n'), "the last line is not ended: {text}");
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    let (last, partial) = lines.split_last().expect("at least one line");
    for line in partial {
        assert_eq!(line["final"], false, "{line}");
    }
    assert_eq!(last["final"], true, "{last}");
    lines
}

/// Every line has the plain answer's fields, and only those plus `final`.
fn assert_shaped_like(lines: &[Value], plain: &Value) {
    let mut expected: Vec<&str> = plain.as_object().unwrap().keys().map(String::as_str).collect();
    expected.push("final");
    expected.sort();
    for line in lines {
        let mut keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, expected, "{line}");
    }
}

/// The last line without `final`.
fn answer(last: &Value) -> Value {
    let mut answer = last.clone();
    answer.as_object_mut().unwrap().remove("final");
    answer
}

/// Streams `body` to `path` on a fresh app and asks a second fresh app the
/// plain question; returns the lines and the plain answer.
async fn stream_and_plain(path: &str, body: &Value) -> (Vec<Value>, Value) {
    let streaming = spawn_app().await;
    let lines = lines(&post_ndjson(&streaming, path, body).await);
    let plain = spawn_app().await.post_json(path, body).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.content_type(), "application/json");
    let plain = plain.json();
    assert_shaped_like(&lines, &plain);
    (lines, plain)
}

#[tokio::test]
async fn tictactoe_streams_each_depth_then_the_plain_answer() {
    let body = json!({"board": ["X...", ".O..", "....", "...."], "max_ms": 10000});
    let (lines, plain) = stream_and_plain("/tictactoe/move", &body).await;
    assert!(lines.len() >= 2, "no intermediate line: {lines:?}");
    assert_eq!(plain["solved"], true, "{plain}");
    assert_eq!(answer(lines.last().unwrap()), plain);
    // One line per completed depth, deeper each time, none yet solved.
    let depths: Vec<u64> = lines.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    for line in &lines[..lines.len() - 1] {
        assert_eq!(line["solved"], false, "{line}");
    }
}

#[tokio::test]
async fn connect_four_streams_each_column_proved_then_the_plain_answer() {
    // Eleven stones: past every opening book (the deepest holds positions
    // of ten), so the columns take a search (about a million nodes in all)
    // and are reported one by one.
    let body = json!({"moves": "57142674462", "max_ms": 10000});
    let (lines, plain) = stream_and_plain("/connect-four/move", &body).await;
    assert!(lines.len() >= 2, "no intermediate line: {lines:?}");
    assert_eq!(plain["solved"], true, "{plain}");
    // The same answer but for the nodes counted: with a helper thread
    // sharing the search, that count differs from run to run.
    let without_nodes = |answer: &Value| {
        let mut answer = answer.clone();
        let nodes = answer.as_object_mut().unwrap().remove("nodes");
        assert!(nodes.and_then(|n| n.as_u64()).is_some_and(|n| n > 0), "{answer}");
        answer
    };
    assert_eq!(without_nodes(&answer(lines.last().unwrap())), without_nodes(&plain));
    // Columns once proved stay proved.
    let proved = |line: &Value| {
        line["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["solved"] == true)
            .count()
    };
    assert!(lines.windows(2).all(|w| proved(&w[0]) <= proved(&w[1])));
}

#[tokio::test]
async fn connect_four_open_grid_reports_before_its_budget_runs_out() {
    let app = spawn_app().await;
    // 8x7 has no opening book: far from solved in 300 ms.
    let body = json!({"moves": "", "cols": 8, "rows": 7, "max_ms": 300});
    let lines = lines(&post_ndjson(&app, "/connect-four/move", &body).await);
    assert!(lines.len() >= 2, "no intermediate line: {lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(last["solved"], false);
    assert_eq!(last["cols"], 8);
}

#[tokio::test]
async fn number_square_streams_each_depth_then_the_plain_answer() {
    let board: Vec<Vec<i64>> = (0..4)
        .map(|r| (0..4).map(|c| (r * 7 + c * 5) % 11 + 1).collect())
        .collect();
    let body = json!({"board": board, "my_score": 3, "max_ms": 10000});
    let (lines, plain) = stream_and_plain("/number-square/move", &body).await;
    assert!(lines.len() >= 2, "no intermediate line: {lines:?}");
    assert_eq!(plain["solved"], true, "{plain}");
    assert_eq!(answer(lines.last().unwrap()), plain);
}

#[tokio::test]
async fn number_square_big_board_reports_before_its_budget_runs_out() {
    let app = spawn_app().await;
    let board: Vec<Vec<i64>> = (0..8)
        .map(|r| (0..8).map(|c| (r * 13 + c * 7) % 19 + 1).collect())
        .collect();
    let body = json!({"board": board, "max_ms": 300});
    let lines = lines(&post_ndjson(&app, "/number-square/move", &body).await);
    assert!(lines.len() >= 2, "no intermediate line: {lines:?}");
    assert_eq!(lines.last().unwrap()["solved"], false);
}

fn nine_square_board(marked: usize) -> Vec<String> {
    (0..9)
        .map(|r| {
            (0..9)
                .map(|c| {
                    let i = r * 9 + c;
                    if i >= marked {
                        '.'
                    } else if (i * 5 + r) % 2 == 0 {
                        'X'
                    } else {
                        'O'
                    }
                })
                .collect()
        })
        .collect()
}

/// The exact endgame is deterministic (and not reported on: it is quick);
/// the sampling search is timed, so its answer is held to the plain one's
/// shape only (its `nodes`, and so its choice, follow the clock).
#[tokio::test]
async fn nine_square_endgame_streams_the_plain_answer() {
    let body = json!({"board": nine_square_board(74), "player": "X", "dice": 3, "max_ms": 5000});
    let (lines, plain) = stream_and_plain("/nine-square/move", &body).await;
    assert_eq!(plain["solved"], true, "{plain}");
    assert_eq!(answer(lines.last().unwrap()), plain);
}

#[tokio::test]
async fn nine_square_sampling_reports_every_few_hundred_milliseconds() {
    let body = json!({"board": nine_square_board(10), "player": "O", "dice": 4, "max_ms": 900});
    let (lines, _) = stream_and_plain("/nine-square/move", &body).await;
    assert!(lines.len() >= 3, "expected a line about every 250 ms: {lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(last["solved"], false);
    assert_eq!(last["placements"].as_array().unwrap().len(), 4, "{last}");
    let nodes: Vec<u64> = lines.iter().map(|l| l["nodes"].as_u64().unwrap()).collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
}

#[tokio::test]
async fn bad_input_with_the_accept_header_is_still_a_problem() {
    let app = spawn_app().await;
    for (path, body) in [
        ("/tictactoe/move", json!({"board": ["XX", "O"]})),
        ("/connect-four/move", json!({"moves": "9"})),
        ("/number-square/move", json!({"board": [[1, 2], [3]]})),
        (
            "/nine-square/move",
            json!({"board": nine_square_board(0), "player": "Z", "dice": 3}),
        ),
    ] {
        post_ndjson(&app, path, &body)
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn without_the_accept_header_nothing_changes() {
    let app = spawn_app().await;
    let response = app
        .post_json("/connect-four/move", &json!({"moves": "", "max_ms": 50}))
        .await;
    assert_eq!(response.content_type(), "application/json");
    assert!(response.json().get("final").is_none());
}

/// Sends a streaming request over a real connection, reads up to the first
/// line, and hangs up.
fn read_first_line_and_hang_up(addr: SocketAddr, path: &str, body: &Value) -> String {
    let mut socket = std::net::TcpStream::connect(addr).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let body = body.to_string();
    write!(
        socket,
        "POST {path} HTTP/1.1\r\nHost: kibitz\r\nContent-Type: application/json\r\nAccept: {NDJSON}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("\"final\":false}\n") {
        let n = socket.read(&mut buffer).unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buffer[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[tokio::test]
async fn a_client_that_hangs_up_stops_the_search() {
    // One search worker, and a wait for it far shorter than the search.
    let app = spawn_app_on(TestDb::Sqlite, |config| {
        config.search_concurrency = 1;
        config.search_queue_ms = 200;
    })
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app.router.clone();
    tokio::spawn(
        async move { axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await },
    );
    // The open 8x7 grid (no opening book): the search would use all of its
    // 10 s.
    let body = json!({"moves": "", "cols": 8, "rows": 7, "max_ms": 10000});
    let started = Instant::now();
    let seen = tokio::task::spawn_blocking(move || read_first_line_and_hang_up(addr, "/connect-four/move", &body))
        .await
        .unwrap();
    assert!(seen.contains(NDJSON), "{seen}");
    // The worker is free again long before the 10 s are up...
    let pool = &app.state.search_pool;
    while pool.busy() > 0 {
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the search went on after the client left"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // ... so a search that needs it gets it, without waiting out the queue.
    let response = app
        .post_json("/connect-four/move", &json!({"moves": "", "max_ms": 100}))
        .await;
    assert_eq!(
        response.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn othello_streams_each_midgame_iteration_then_its_answer() {
    // The 8x8 start: far from the end, so the answer is the midgame's
    // estimate after each completed depth.
    let start = [
        "........", "........", "........", "...OX...", "...XO...", "........", "........", "........",
    ];
    let app = spawn_app().await;
    let body = json!({"board": start, "player": "X", "max_ms": 600});
    let lines = lines(&post_ndjson(&app, "/othello/move", &body).await);
    assert!(lines.len() >= 3, "too few lines: {lines:?}");
    let (last, partial) = lines.split_last().unwrap();
    assert_eq!(last["final"], true);
    let depths: Vec<u64> = partial.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    for line in partial {
        assert_eq!(line["solved"], false, "{line}");
        assert_eq!(line["moves"].as_array().unwrap().len(), 4, "{line}");
    }
    assert!(last["depth"].as_u64() >= depths.last().copied(), "{last}");
}

#[tokio::test]
async fn kalah_streams_its_guesses_and_each_house_proved_then_the_plain_answer() {
    // Kalah(6,4) well into the game: out of the book and past the quick
    // try, solved within the budget after the guesses, one house at a time.
    let body = json!({
        "board": {"south": [2, 3, 0, 4, 1, 3], "north": [3, 0, 2, 4, 1, 2], "south_store": 11, "north_store": 12},
        "to_move": "south",
        "max_ms": 10000,
    });
    let (lines, plain) = stream_and_plain("/kalah/move", &body).await;
    assert!(lines.len() >= 3, "too few lines: {lines:?}");
    let (last, partial) = lines.split_last().unwrap();
    assert_eq!(answer(last), plain);
    assert_eq!(plain["solved"], true, "{plain}");
    let proved: Vec<usize> = partial
        .iter()
        .map(|l| {
            l["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["solved"] == true)
                .count()
        })
        .collect();
    // The guesses first, then one more house proved on each line.
    assert_eq!(proved[0], 0, "{proved:?}");
    assert!(proved.windows(2).all(|w| w[1] == w[0] + 1), "{proved:?}");
    for line in partial {
        assert_eq!(line["solved"], false, "{line}");
        assert!(line["evaluation"]["win_chance"].is_number(), "{line}");
    }
}
