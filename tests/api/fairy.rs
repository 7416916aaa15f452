//! What the xiangqi and shogi tests share: both are answered by
//! Fairy-Stockfish in one shape (`kibitz::engines::analysis`), so their
//! answers are checked by the same function, each game giving its rules'
//! list of legal moves.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::Value;

use crate::helpers::{TestApp, TestResponse};

/// Engine tests take turns: each search wants a core, and two cores are
/// shared with the rest of the suite.
pub static ENGINE_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// True when Fairy-Stockfish is there to test against; false only when
/// the run said to skip its tests.
pub fn available() -> bool {
    crate::fairy_support::fairy_stockfish()
}

/// lichess's win% for a score from the mover's view, computed here from
/// the contract's formula rather than taken from the server.
fn win_percent(score: &Value) -> f64 {
    let cp = match (score["cp"].as_f64(), score["mate"].as_f64()) {
        (Some(cp), _) => cp.clamp(-1000.0, 1000.0),
        (None, Some(mate)) => 1000.0_f64.copysign(mate),
        _ => panic!("a score is {{cp}} or {{mate}}: {score}"),
    };
    50.0 + 50.0 * (2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0)
}

/// The answer to `request` at `path`, which must be a 200.
pub async fn best(app: &TestApp, path: &str, request: &Value) -> Value {
    app.post_ok(path, request).await
}

/// The contract's shape: `players` names the side to move, `legal` is
/// the rules' list of moves in the position (the answer's move must be
/// one of them), win% by the formula, every line's evaluation.
pub fn assert_answer(answer: &Value, players: [&str; 2], legal: &[String]) {
    let player = answer["player"].as_str().expect("player");
    assert!(players.contains(&player), "{answer}");
    let notation = answer["move"]["notation"].as_str().expect("move.notation");
    assert!(
        legal.iter().any(|m| m == notation),
        "{notation} is not legal by kibitz's rules: {answer}"
    );
    let score = &answer["score"];
    let wp = answer["win_percent"].as_f64().expect("win_percent");
    assert!((wp - win_percent(score)).abs() < 1e-6, "{answer}");
    let chance = answer["evaluation"]["win_chance"].as_f64().expect("evaluation");
    let solved = answer["solved"] == true;
    assert_eq!(solved, score["mate"].is_i64(), "{answer}");
    assert_eq!(answer["evaluation"]["exact"], solved, "{answer}");
    if !solved {
        assert!((chance * 100.0 - wp).abs() < 1e-9, "{answer}");
    }
    assert!(answer["depth"].as_u64().is_some_and(|d| d >= 1), "{answer}");
    assert!(answer["nodes"].as_u64().is_some(), "{answer}");
    let pvs = answer["pvs"].as_array().expect("pvs");
    assert!(!pvs.is_empty(), "{answer}");
    assert_eq!(pvs[0]["moves"][0], answer["move"]["notation"], "{answer}");
    assert_eq!(pvs[0]["score"], *score, "{answer}");
    for pv in pvs {
        assert!(pv["evaluation"]["win_chance"].is_f64(), "{pv}");
        assert!(pv["moves"].as_array().is_some_and(|m| !m.is_empty()), "{pv}");
    }
}

/// `body` posted to `path` asking for NDJSON.
pub async fn post_ndjson(app: &TestApp, path: &str, body: &Value) -> TestResponse {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/x-ndjson")
        .body(Body::from(body.to_string()))
        .unwrap();
    app.send(request).await
}

/// The lines of a streamed answer: every one but the last `final: false`
/// with a growing depth and an evaluation; the last `final: true`.
pub fn assert_stream(r: &TestResponse) -> Vec<Value> {
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.content_type(), "application/x-ndjson");
    let text = String::from_utf8_lossy(&r.body);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(lines.len() >= 2, "{text}");
    let (last, partial) = lines.split_last().unwrap();
    assert_eq!(last["final"], true, "{text}");
    let mut depth = 0;
    for line in partial {
        assert_eq!(line["final"], false, "{line}");
        let d = line["depth"].as_u64().unwrap();
        assert!(d > depth, "depths grow: {text}");
        depth = d;
        assert!(line["evaluation"]["win_chance"].is_f64(), "{line}");
    }
    lines
}

/// `body` posted to `path` with a match's token.
pub async fn post_authorized(app: &TestApp, path: &str, token: &str, body: &Value) -> TestResponse {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from(body.to_string()))
        .unwrap();
    app.send(request).await
}

/// A GET with a match's token.
pub async fn get_authorized(app: &TestApp, path: &str, token: &str) -> TestResponse {
    let request = Request::builder()
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    app.send(request).await
}
