//! Chess over HTTP against a real Stockfish: `POST /chess/move`,
//! `GET /chess/cloud-eval`, chess in `/analyze` and the catalog, and the
//! server without its engine.
//!
//! Stockfish is found where the server finds it (PATH, /usr/games); the
//! engine tests fail without it unless the run chose to skip them
//! (support/stockfish.rs).

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{chess_settings, spawn_app, spawn_app_on, TestApp, TestDb, TestResponse};

/// Engine tests take turns: each search wants a core, and two cores are
/// shared with the rest of the suite.
static ENGINE_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
/// 1.Nf6+ gxf6 2.Bxf7#.
const WHITE_MATES_IN_TWO: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
/// 1...Rg1+ 2.Kxg1 Rxf1#.
const BLACK_MATES_IN_TWO: &str = "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

/// True when Stockfish is there to test against; false only when the run
/// said to skip the engine tests.
fn stockfish() -> bool {
    super::stockfish_support::stockfish().is_some()
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

async fn best(app: &TestApp, request: Value) -> Value {
    app.post_ok("/chess/move", &request).await
}

/// The checks every answer passes: its shape, SAN beside every UCI move,
/// the scores' two views and win% by the formula.
fn assert_answer_shape(answer: &Value) {
    let player = answer["player"].as_str().expect("player");
    assert!(player == "white" || player == "black", "{answer}");
    let uci = answer["move"]["uci"].as_str().expect("move.uci");
    assert!((4..=5).contains(&uci.len()), "{answer}");
    assert!(
        answer["move"]["san"].as_str().is_some_and(|s| !s.is_empty()),
        "{answer}"
    );
    let flip = |s: &Value| match (s["cp"].as_i64(), s["mate"].as_i64()) {
        (Some(cp), _) => json!({"cp": -cp}),
        (None, Some(n)) => json!({"mate": -n}),
        _ => panic!("{s}"),
    };
    let score = &answer["score"];
    let white = if player == "white" { score.clone() } else { flip(score) };
    assert_eq!(answer["white_score"], white, "{answer}");
    let wp = answer["win_percent"].as_f64().expect("win_percent");
    assert!((wp - win_percent(score)).abs() < 1e-6, "{wp} vs {}", win_percent(score));
    assert!(answer["depth"].as_u64().is_some_and(|d| d >= 1), "{answer}");
    assert!(answer["nodes"].as_u64().is_some(), "{answer}");
    let pvs = answer["pvs"].as_array().expect("pvs");
    assert!(!pvs.is_empty(), "{answer}");
    for pv in pvs {
        let moves = pv["moves"].as_array().expect("pv moves");
        assert_eq!(moves.len(), pv["san"].as_array().expect("pv san").len(), "{pv}");
        assert!(pv["score"].is_object(), "{pv}");
    }
    assert_eq!(pvs[0]["moves"][0], answer["move"]["uci"], "{answer}");
    assert_eq!(pvs[0]["san"][0], answer["move"]["san"], "{answer}");
    assert_eq!(
        answer["solved"],
        json!(score.get("mate").is_some()),
        "solved only for a proved mate: {answer}"
    );
}

#[tokio::test]
async fn a_mate_in_one_is_played_with_mate_1_and_solved() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let answer = best(&app, json!({"fen": MATE_IN_ONE, "depth": 12, "max_ms": 5000})).await;
    assert_answer_shape(&answer);
    assert_eq!(answer["move"], json!({"uci": "d1d8", "san": "Rd8#"}));
    assert_eq!(answer["score"], json!({"mate": 1}));
    assert_eq!(answer["white_score"], json!({"mate": 1}));
    assert_eq!(answer["solved"], true);
    assert_eq!(answer["player"], "white");
}

#[tokio::test]
async fn a_mate_in_two_is_found_with_its_distance_for_either_side() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let white = best(&app, json!({"fen": WHITE_MATES_IN_TWO, "depth": 14, "max_ms": 5000})).await;
    assert_answer_shape(&white);
    assert_eq!(white["move"], json!({"uci": "d5f6", "san": "Nf6+"}));
    assert_eq!(white["score"], json!({"mate": 2}));
    assert_eq!(white["solved"], true);
    let black = best(&app, json!({"fen": BLACK_MATES_IN_TWO, "depth": 14, "max_ms": 5000})).await;
    assert_answer_shape(&black);
    assert_eq!(black["player"], "black");
    assert_eq!(black["move"], json!({"uci": "g2g1", "san": "Rg1+"}));
    assert_eq!(black["score"], json!({"mate": 2}));
    assert_eq!(black["white_score"], json!({"mate": -2}), "White's view: mated in 2");
    assert_eq!(black["solved"], true);
    // The mating line itself, in SAN.
    assert_eq!(black["pvs"][0]["san"], json!(["Rg1+", "Kxg1", "Rxf1#"]));
}

#[tokio::test]
async fn a_promotion_that_mates_is_written_in_san() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let answer = best(&app, json!({"fen": "8/P7/8/8/8/8/8/k1K5 w - - 0 1", "depth": 8})).await;
    assert_answer_shape(&answer);
    let played = (answer["move"]["uci"].as_str(), answer["move"]["san"].as_str());
    assert!(
        [(Some("a7a8q"), Some("a8=Q#")), (Some("a7a8r"), Some("a8=R#"))].contains(&played),
        "{answer}"
    );
    assert_eq!(answer["score"], json!({"mate": 1}));
}

#[tokio::test]
async fn a_normal_position_answers_every_field_with_multi_pv_lines() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let answer = best(
        &app,
        json!({"moves": ["e2e4", "e7e5", "g1f3"], "depth": 10, "multi_pv": 3, "max_ms": 5000}),
    )
    .await;
    assert_answer_shape(&answer);
    assert_eq!(answer["player"], "black");
    assert!(answer["score"]["cp"].is_i64(), "an opening is no mate: {answer}");
    assert_eq!(answer["solved"], false);
    assert_eq!(answer["pvs"].as_array().map(Vec::len), Some(3), "{answer}");
    // Three different first moves, best first.
    let firsts: Vec<&Value> = answer["pvs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pv| &pv["moves"][0])
        .collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{answer}"
    );
    let wp = answer["win_percent"].as_f64().unwrap();
    assert!((20.0..80.0).contains(&wp), "an opening is about even: {wp}");
    // The same position given as a FEN is the same question.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    let again = best(&app, json!({"fen": fen, "depth": 10, "multi_pv": 3, "max_ms": 5000})).await;
    assert_eq!(again, answer, "one position, one cache entry, one answer");
}

#[tokio::test]
async fn bad_input_is_a_422_that_names_the_field_or_the_move() {
    // No engine needed: the rules answer before any search starts.
    let app = spawn_app().await;
    let cases = [
        (
            json!({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}),
            "side to move",
        ),
        (
            json!({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}),
            "piece placement",
        ),
        (json!({"fen": "not a fen"}), "fen"),
        (json!({"moves": ["e2e4", "e2e4"]}), "moves[1]"),
        (json!({"moves": ["e2e4", "xyz"]}), "moves[1]"),
        // Fool's mate: the game is over.
        (json!({"moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}), "checkmate"),
        (json!({"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}), "stalemate"),
        (json!({"multi_pv": 6}), "multi_pv"),
        (json!({"multi_pv": 0}), "multi_pv"),
        (json!({"depth": 0}), "depth"),
        (json!({"depth": 100}), "depth"),
        (json!({"depth": 4_294_967_296_u64}), "depth"),
    ];
    for (body, named) in cases {
        let r = app.post_json("/chess/move", &body).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{body}: {detail:?} does not name {named}");
    }
    let r = app.post_json("/chess/move", &json!({"fen": 7})).await;
    r.assert_problem(StatusCode::BAD_REQUEST);
    let r = app.get("/chess/cloud-eval?fen=8/8/8/8&multiPv=1").await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("fen"), "{detail}");
    let r = app
        .get(&format!("/chess/cloud-eval?fen={}&multiPv=9", encode(AFTER_E4)))
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("multiPv"), "{detail}");
    app.get("/chess/cloud-eval")
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
}

/// What schemathesis found in an earlier version: each a server error then.
#[tokio::test]
async fn tiny_budgets_and_null_fields_are_answered_not_failed() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    for body in [
        json!({"max_ms": 0}),
        json!({"fen": null, "moves": ["e2e4"], "max_ms": 0, "depth": 1, "multi_pv": 1}),
        json!({"fen": null, "moves": null, "max_ms": 1, "depth": null, "multi_pv": null}),
    ] {
        let answer = best(&app, body).await;
        assert_answer_shape(&answer);
    }
    let r = app
        .get(&format!("/chess/cloud-eval?multiPv=1&fen={}", encode(AFTER_E4)))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let r = app
        .post_json(
            "/analyze",
            &json!({"positions": [{"game": "chess"}, {"game": "chess", "max_ms": 0}], "max_ms": 1000}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    for result in r.json()["results"].as_array().expect("results") {
        assert_answer_shape(result);
    }
}

/// A FEN in a query string: spaces as %20, slashes kept.
fn encode(fen: &str) -> String {
    fen.replace(' ', "%20")
}

#[tokio::test]
async fn cloud_eval_answers_in_lichesss_shape_from_whites_view() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let r = app
        .get(&format!("/chess/cloud-eval?fen={}&multiPv=2", encode(AFTER_E4)))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.content_type(), "application/json");
    let cloud = r.json();
    let keys: Vec<&str> = cloud.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["depth", "fen", "knodes", "pvs"], "{cloud}");
    // The FEN as lichess gives it back: no en passant square where no pawn
    // can take.
    assert_eq!(cloud["fen"], AFTER_E4.replace(" e3 ", " - "));
    assert!(
        cloud["knodes"].is_u64() && cloud["depth"].as_u64().is_some_and(|d| d >= 1),
        "{cloud}"
    );
    let pvs = cloud["pvs"].as_array().expect("pvs");
    assert_eq!(pvs.len(), 2, "{cloud}");
    for pv in pvs {
        let moves = pv["moves"].as_str().expect("moves is one string");
        assert!(moves.split(' ').all(|m| (4..=5).contains(&m.len())), "{moves}");
        assert!(pv["cp"].is_i64() != pv["mate"].is_i64(), "cp or mate: {pv}");
    }
    // The same question through /chess/move (the same default budget, so
    // the cached answer): its White's view is cloud-eval's first line.
    let answer = best(&app, json!({"fen": AFTER_E4, "multi_pv": 2})).await;
    assert_eq!(answer["player"], "black");
    assert_eq!(pvs[0]["cp"], answer["white_score"]["cp"], "{cloud} vs {answer}");
    let first: Vec<&str> = pvs[0]["moves"].as_str().unwrap().split(' ').collect();
    assert_eq!(json!(first), answer["pvs"][0]["moves"]);
}

#[tokio::test]
async fn a_repeated_question_is_answered_from_the_cache() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let analyzer = kibitz::games::chess::api::analyzer(&app.state);
    let question = json!({"moves": ["d2d4", "g8f6"], "max_ms": 300});
    let first = best(&app, question.clone()).await;
    let stats = || {
        let s = analyzer.cache_stats();
        (s.hits, s.misses)
    };
    assert_eq!(stats(), (0, 1));
    let bodies = kibitz::games::chess::api::body_cache(&app.state);
    assert_eq!((bodies.stats().hits, bodies.stats().misses), (0, 1));
    let spawned = analyzer.pool().spawned();
    // The same request: its answer as it was written out.
    let second = best(&app, question.clone()).await;
    assert_eq!(second, first, "the cached answer is the same answer");
    assert_eq!(bodies.stats().hits, 1, "the second was a hit");
    assert_eq!(stats(), (0, 1), "answered before the analyzer");
    // The same position as a FEN: another request, the analyzer's hit.
    let as_fen = json!({"fen": "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2", "max_ms": 300});
    let third = best(&app, as_fen).await;
    assert_eq!(third, first, "the same position, the same answer");
    assert_eq!(stats(), (1, 1), "the position was a hit");
    assert_eq!(analyzer.pool().spawned(), spawned);
    // Other limits are another question.
    best(&app, json!({"moves": ["d2d4", "g8f6"], "max_ms": 300, "multi_pv": 2})).await;
    assert_eq!(stats(), (1, 2));
}

async fn post_ndjson(app: &TestApp, body: &Value) -> TestResponse {
    let request = Request::builder()
        .method(Method::POST)
        .uri("/chess/move")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/x-ndjson")
        .body(Body::from(body.to_string()))
        .unwrap();
    app.send(request).await
}

#[tokio::test]
async fn a_streamed_search_sends_a_line_per_completed_depth() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let r = post_ndjson(&app, &json!({"moves": ["e2e4"], "depth": 8, "max_ms": 5000})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.content_type(), "application/x-ndjson");
    let text = String::from_utf8_lossy(&r.body);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(lines.len() >= 2, "{text}");
    let (last, partial) = lines.split_last().unwrap();
    assert_eq!(last["final"], true);
    assert_eq!(last["depth"], 8);
    let mut depth = 0;
    for line in partial {
        assert_eq!(line["final"], false, "{line}");
        let d = line["depth"].as_u64().unwrap();
        assert!(d > depth, "depths grow: {text}");
        depth = d;
        let mut line = line.clone();
        line.as_object_mut().unwrap().remove("final");
        assert_answer_shape(&line);
    }
    // A search that ends within one read of the engine's output (depth 5:
    // under a millisecond) still sends its depths before the answer.
    let r = post_ndjson(&app, &json!({"moves": ["d2d4"], "depth": 5})).await;
    let text = String::from_utf8_lossy(&r.body);
    assert!(text.lines().count() >= 3, "{text}");
    // Bad input with the header is still a problem, not a stream.
    let r = post_ndjson(&app, &json!({"moves": ["e2e5"]})).await;
    r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn chess_positions_in_a_batch_are_answered_like_the_endpoint() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let position = json!({"game": "chess", "fen": MATE_IN_ONE, "depth": 6, "max_ms": 2000});
    let r = app
        .post_json(
            "/analyze",
            &json!({"positions": [position, {"game": "chess", "moves": ["e2e5"]}], "max_ms": 5000}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let results = r.json()["results"].as_array().expect("results").clone();
    assert_answer_shape(&results[0]);
    assert_eq!(results[0]["move"]["san"], "Rd8#");
    assert_eq!(results[1]["error"]["status"], 422);
    assert!(results[1]["error"]["detail"].as_str().unwrap().contains("moves[0]"));
    assert_eq!(results.len(), 2);
}

#[tokio::test]
async fn without_stockfish_chess_is_listed_unavailable_and_answers_503_with_how_to_install_it() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        chess_settings(c).stockfish_path = Some("/nonexistent/kibitz-test/stockfish".into());
    })
    .await;
    let r = app.get("/games").await;
    assert_eq!(r.status, StatusCode::OK);
    for game in r.json()["games"].as_array().expect("games") {
        let expected = game["id"] != "chess";
        assert_eq!(game["available"], expected, "{game}");
    }
    for r in [
        app.post_json("/chess/move", &json!({"moves": ["e2e4"]})).await,
        app.get(&format!("/chess/cloud-eval?fen={}", encode(AFTER_E4))).await,
        app.post_json("/matches", &json!({"game": "chess"})).await,
        app.post_json("/chess/review", &json!({"moves": [{"uci": "e2e4"}]}))
            .await,
        app.post_json(
            "/arena",
            &json!({"game": "chess", "a": "best", "b": "random", "games": 1}),
        )
        .await,
    ] {
        let detail = r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
        assert!(detail.contains("apt-get install stockfish"), "{detail}");
        assert!(detail.contains("--stockfish-path"), "{detail}");
    }
    // The input is still checked first.
    let r = app.post_json("/chess/move", &json!({"moves": ["e2e5"]})).await;
    r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
}

// ---- Chess as a match game, an arena game and in reviews ----

/// White mates with f1f8 or stalemates with f1f7.
const MATE_OR_STALEMATE: &str = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
/// White's king takes the last black piece: two bare kings.
const KING_TAKES_THE_ROOK: &str = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
/// The 100th ply without a capture or a pawn move is White's.
const FIFTY_MOVES_DUE: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";

/// A server whose database is ready for matches.
async fn matches_app() -> TestApp {
    let app = spawn_app().await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK, "the database is ready");
    app
}

/// A created match and its token.
async fn create_match(app: &TestApp, request: Value) -> (Value, String) {
    let r = app.post_json("/matches", &request).await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "{request}: {}",
        String::from_utf8_lossy(&r.body)
    );
    let body = r.json();
    let token = body["token"].as_str().expect("token").to_string();
    (body, token)
}

/// The person's move `uci` in match `m`, answered 200.
async fn play_move(app: &TestApp, m: &Value, token: &str, uci: &str) -> Value {
    let r = send_move(app, m, token, json!({"uci": uci})).await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "{uci} in {m}: {}",
        String::from_utf8_lossy(&r.body)
    );
    r.json()
}

async fn send_move(app: &TestApp, m: &Value, token: &str, mv: Value) -> TestResponse {
    let path = format!("/matches/{}/moves", m["id"].as_str().unwrap());
    let body = json!({"ply": m["ply"], "move": mv});
    crate::matches::authorized(app, Method::POST, &path, Some(token), Some(&body)).await
}

fn legal_ucis(m: &Value) -> Vec<String> {
    m["legal_moves"]
        .as_array()
        .unwrap_or_else(|| panic!("legal_moves: {m}"))
        .iter()
        .map(|mv| mv["uci"].as_str().expect("legal moves are {uci}").to_string())
        .collect()
}

/// A person who weakens their king (f3, g4: the fool's mate) and then
/// plays the first legal move the match lists, against the AI at full
/// strength, on `db`: the AI mates, every answer keeps the contract's
/// shape, and the stored match reads back as the last answer.
async fn the_ai_mates_a_careless_person(db: TestDb) -> (TestApp, Value, String) {
    let app = spawn_app_on(db, |_| {}).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK, "the database is ready");
    let (mut m, token) = create_match(&app, json!({"game": "chess"})).await;
    assert_eq!(m["options"], json!({"fen": kibitz::games::chess::START_FEN}), "{m}");
    assert_eq!(m["state"]["fen"], kibitz::games::chess::START_FEN, "{m}");
    assert_eq!(m["state"]["human_plays"], "white");
    assert_eq!(m["state"]["check"], false);
    let legal = legal_ucis(&m);
    assert_eq!(legal.len(), 20, "{legal:?}");
    assert!(legal.contains(&"e2e4".to_string()) && legal.contains(&"g1f3".to_string()));
    for turn in 0..150 {
        if m["status"] == "finished" {
            break;
        }
        let legal = legal_ucis(&m);
        let uci = ["f2f3", "g2g4"]
            .into_iter()
            .find(|u| turn < 2 && legal.iter().any(|l| l == u))
            .map_or_else(|| legal[0].clone(), str::to_string);
        let before = m["ply"].as_u64().unwrap();
        m = play_move(&app, &m, &token, &uci).await;
        let history = m["history"].as_array().unwrap();
        assert_eq!(m["ply"].as_u64(), Some(history.len() as u64));
        assert_eq!(history[before as usize]["move"], json!({"uci": uci}), "{m}");
        assert_eq!(history[before as usize]["actor"], "human");
        if m["status"] != "finished" {
            // The AI answered: one move of its own, in the move format.
            assert_eq!(m["ply"].as_u64(), Some(before + 2), "{m}");
            assert_eq!(history[before as usize + 1]["actor"], "ai");
            let reply = history[before as usize + 1]["move"]["uci"].as_str().unwrap();
            assert!((4..=5).contains(&reply.len()), "{m}");
            assert_eq!(m["state"]["to_move"], "white");
        }
    }
    assert_eq!(m["status"], "finished", "no end after 150 moves: {m}");
    assert_eq!(m["result"]["winner"], "ai", "{m}");
    assert_eq!(m["result"]["reason"], "checkmate", "{m}");
    assert_eq!(m["state"]["check"], true, "the mated side is in check: {m}");
    assert!(m["legal_moves"].is_null(), "{m}");
    let moves = m["state"]["moves"].as_array().unwrap().len() as u64;
    assert_eq!(m["ply"].as_u64(), Some(moves), "every ply is a move: {m}");
    let path = format!("/matches/{}", m["id"].as_str().unwrap());
    let mut stored = crate::matches::authorized(&app, Method::GET, &path, Some(&token), None)
        .await
        .json();
    let mut answered = m.clone();
    for body in [&mut stored, &mut answered] {
        body.as_object_mut().unwrap().remove("token");
    }
    assert_eq!(stored, answered, "the stored match differs from the last answer");
    // Nothing more can be played.
    let r = send_move(&app, &m, &token, json!({"uci": "e2e4"})).await;
    r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    (app, m, token)
}

#[tokio::test]
async fn a_chess_match_against_the_ai_ends_in_its_checkmate_and_is_reviewed() {
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    let (app, end, token) = the_ai_mates_a_careless_person(TestDb::Sqlite).await;
    let path = format!("/matches/{}/review", end["id"].as_str().unwrap());
    let r = crate::matches::authorized(&app, Method::GET, &path, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review = r.json();
    let entries = review["moves"].as_array().expect("moves");
    let history = end["history"].as_array().unwrap();
    assert_eq!(entries.len(), history.len(), "{review}");
    for (entry, event) in entries.iter().zip(history) {
        assert_eq!(entry["ply"], event["ply"]);
        assert_eq!(entry["actor"], event["actor"]);
        assert_eq!(entry["move"], event["move"]);
        assert_eq!(entry["exact"], false, "chess reviews are estimates: {entry}");
        assert_judged_by_lichess_thresholds(entry);
    }
    assert_eq!(review["exact"], false);
    let human = &review["players"]["human"];
    let ai = &review["players"]["ai"];
    assert!(
        human["blunders"].as_u64().unwrap() + human["mistakes"].as_u64().unwrap() >= 1,
        "a careless game without a mistake: {review}"
    );
    assert!(
        human["accuracy"].as_f64().unwrap() < ai["accuracy"].as_f64().unwrap(),
        "{review}"
    );
}

#[tokio::test]
async fn a_chess_match_on_postgres_is_played_and_stored_the_same() {
    let Some(server) = crate::helpers::postgres_server() else {
        return;
    };
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    the_ai_mates_a_careless_person(TestDb::Postgres(server)).await;
}

/// An entry's judgment is lichess's for its drop in win% (loss x 100):
/// 5, 10, 15 points an inaccuracy, a mistake, a blunder; below 5 the
/// engine's own move is `best`, another `good`.
fn assert_judged_by_lichess_thresholds(entry: &Value) {
    let drop = entry["loss"].as_f64().expect("loss") * 100.0;
    let expected = if drop >= 15.0 {
        "blunder"
    } else if drop >= 10.0 {
        "mistake"
    } else if drop >= 5.0 {
        "inaccuracy"
    } else if entry["best_moves"][0] == entry["move"] {
        "best"
    } else {
        "good"
    };
    assert_eq!(entry["judgment"], expected, "{entry}");
    let before = entry["value_before"]["win_percent"].as_f64().unwrap();
    let played = entry["value_played"]["win_percent"].as_f64().unwrap();
    assert!(((before - played).max(0.0) - drop).abs() < 1e-9, "{entry}");
    assert!(entry["value_before"]["score"].is_object(), "{entry}");
}

#[tokio::test]
async fn a_match_from_a_fen_ends_with_the_reason_the_rules_give() {
    if !stockfish() {
        return;
    }
    let app = matches_app().await;
    let cases = [
        (MATE_OR_STALEMATE, "f1f8", "human", "checkmate", true),
        (MATE_OR_STALEMATE, "f1f7", "draw", "stalemate", false),
        (KING_TAKES_THE_ROOK, "e1e2", "draw", "insufficient_material", false),
        (FIFTY_MOVES_DUE, "a1a2", "draw", "fifty_moves", false),
    ];
    for (fen, uci, winner, reason, check) in cases {
        let (m, token) = create_match(
            &app,
            json!({"game": "chess", "options": {"fen": fen}, "ai": {"level": 1}}),
        )
        .await;
        assert_eq!(m["options"]["fen"], fen, "{m}");
        assert!(legal_ucis(&m).contains(&uci.to_string()), "{m}");
        let end = play_move(&app, &m, &token, uci).await;
        assert_eq!(end["status"], "finished", "{fen} {uci}: {end}");
        assert_eq!(end["ply"], 1, "the AI had nothing to play: {end}");
        assert_eq!(end["result"]["winner"], winner, "{fen} {uci}: {end}");
        assert_eq!(end["result"]["reason"], reason, "{fen} {uci}: {end}");
        assert_eq!(end["state"]["check"], check, "{end}");
        assert_eq!(end["state"]["moves"], json!([uci]), "{end}");
    }
}

#[tokio::test]
async fn bad_chess_match_requests_are_422s_that_name_what_is_wrong() {
    if !stockfish() {
        return;
    }
    let app = matches_app().await;
    let cases = [
        (
            json!({"game": "chess", "options": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}}),
            "fen",
        ),
        (
            json!({"game": "chess", "options": {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}}),
            "fen",
        ),
        (
            json!({"game": "chess", "options": {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}}),
            "stalemate",
        ),
        (json!({"game": "chess", "options": {"size": 8}}), "options.size"),
        (json!({"game": "chess", "ai": {"level": 11}}), "ai.level"),
        (json!({"game": "chess", "ai": {"level": 0}}), "ai.level"),
    ];
    for (request, named) in cases {
        let r = app.post_json("/matches", &request).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{request}: {detail}");
    }
    let r = app
        .post_json(
            "/matches",
            &json!({"game": "chess", "options": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.starts_with("options: fen"), "the option is named: {detail}");

    let (m, token) = create_match(&app, json!({"game": "chess", "options": {"fen": MATE_OR_STALEMATE}})).await;
    for (mv, named) in [
        (json!({"uci": "f1f9"}), "uci"),
        (json!({"uci": "g6g7"}), "g6g7"),
        (json!({"uci": "h8h7"}), "h8h7"),
        (json!({"square": "f8"}), "move"),
    ] {
        let r = send_move(&app, &m, &token, mv.clone()).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{mv}: {detail}");
    }
}

#[tokio::test]
async fn a_chess_record_is_reviewed_with_lichess_measures() {
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let moves: Vec<Value> = fools_mate.iter().map(|u| json!({"uci": u})).collect();
    let r = app
        .post_json("/chess/review", &json!({"moves": moves, "max_ms": 2000}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review = r.json();
    let entries = review["moves"].as_array().expect("moves");
    let actors: Vec<&str> = entries.iter().map(|e| e["actor"].as_str().unwrap()).collect();
    assert_eq!(actors, ["white", "black", "white", "black"], "{review}");
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry["ply"], i + 1);
        assert_eq!(entry["move"], json!({"uci": fools_mate[i]}));
        assert_judged_by_lichess_thresholds(entry);
    }
    assert_eq!(entries[2]["judgment"], "blunder", "g4 allows mate in one: {review}");
    assert_eq!(entries[3]["judgment"], "best", "the mate: {review}");
    // A mate counts as 1000 cp in lichess's win%.
    assert_eq!(entries[3]["value_played"]["score"], json!({"mate": 1}), "{review}");
    let mated = entries[3]["value_played"]["win_percent"].as_f64().unwrap();
    assert!((mated - 97.5447).abs() < 1e-3, "{review}");
    assert!(entries[3]["value"].as_f64().unwrap() < -0.95, "Black has won: {review}");
    let (white, black) = (&review["players"]["white"], &review["players"]["black"]);
    assert!(white["blunders"].as_u64().unwrap() >= 1, "{review}");
    assert_eq!(black["blunders"], 0, "{review}");
    assert!(
        black["accuracy"].as_f64().unwrap() > white["accuracy"].as_f64().unwrap(),
        "{review}"
    );

    // From a start with Black to move, Black is the first side.
    let r = app
        .post_json(
            "/chess/review",
            &json!({"options": {"fen": AFTER_E4}, "moves": [{"uci": "e7e5"}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["moves"][0]["actor"], "black");

    // An illegal move is named by its index; a bad FEN by its field.
    let r = app
        .post_json("/chess/review", &json!({"moves": [{"uci": "e2e4"}, {"uci": "e2e4"}]}))
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("moves[1]"), "{detail}");
    // A field a move does not have is named, as in every game's review.
    let r = app
        .post_json("/chess/review", &json!({"moves": [{"uci": "e2e4", "from": "e2"}]}))
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("moves[0].from is not a known field"), "{detail}");
    let r = app
        .post_json(
            "/chess/review",
            &json!({"options": {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "moves": []}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("fen"), "{detail}");
}

#[tokio::test]
async fn chess_arena_games_end_and_stockfish_beats_random() {
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.arena_max_total_ms = 60_000;
        c.max_ms_cap = 60_000;
    })
    .await;
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "chess", "a": "best", "b": "random", "games": 2, "seed": 3}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let report = r.json();
    assert_eq!(report["games"], 2, "{report}");
    assert_eq!(report["a"]["wins"], 2, "Stockfish against random moves: {report}");
    // Random against random ends too, by the draw rules if not by mate.
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "chess", "a": "random", "b": "random", "games": 4, "seed": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let report = r.json();
    let a = &report["a"];
    let played = a["wins"].as_u64().unwrap() + a["draws"].as_u64().unwrap() + a["losses"].as_u64().unwrap();
    assert_eq!(played, 4, "{report}");
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "chess", "a": "greedy", "b": "random", "games": 1}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("best, random, level:N"), "{detail}");
}

#[tokio::test]
async fn a_record_too_long_to_review_within_the_request_time_is_a_422_saying_why() {
    // One engine and 1.3 s a request: 300 ms of searches, 6 positions of
    // 50 ms. Refused before any engine starts, so no Stockfish is needed.
    // (A timeout this short needs the cap, and the wait for a worker, 1 s
    // under it.)
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.max_ms_cap = 300;
        c.default_max_ms = 300;
        c.search_queue_ms = 300;
        c.request_timeout_ms = Some(1300);
        chess_settings(c).engine_count = 1;
    })
    .await;
    let opening = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    let moves: Vec<Value> = opening.iter().map(|u| json!({"uci": u})).collect();
    let r = app.post_json("/chess/review", &json!({"moves": moves})).await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("7 positions") && detail.contains("350 ms"), "{detail}");
    assert!(detail.contains("300 ms"), "{detail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_finishes_while_another_client_uses_chess() {
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        chess_settings(c).engine_count = 2;
        c.search_slice_ms = 200;
    })
    .await;
    // Client 1 keeps both engines busy with long analyses, one after the
    // other, while client 2 reviews a game.
    let busy = |moves: Vec<&'static str>| {
        let router = app.router.clone();
        let body = json!({"moves": moves, "max_ms": 3000});
        tokio::spawn(async move {
            TestResponse::from(
                router,
                crate::fairness::from(1, Method::POST, "/chess/move", None, Some(&body)),
            )
            .await
        })
    };
    let other = [busy(vec!["e2e4"]), busy(vec!["d2d4"])];
    tokio::time::sleep(Duration::from_millis(700)).await;
    let opening = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    let moves: Vec<Value> = opening.iter().map(|u| json!({"uci": u})).collect();
    let started = std::time::Instant::now();
    let r = app
        .send(crate::fairness::from(
            2,
            Method::POST,
            "/chess/review",
            None,
            Some(&json!({"moves": moves, "max_ms": 1000})),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(4), "{took:?}");
    let review = r.json();
    let entries = review["moves"].as_array().expect("moves");
    assert_eq!(entries.len(), opening.len(), "{review}");
    for entry in entries {
        assert!(entry["value_played"]["score"].is_object(), "an evaluation: {entry}");
    }
    // The other client is answered as well (its analyses may have
    // yielded an engine: answered early, not refused).
    for analysis in other {
        let r = analysis.await.unwrap();
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    }
}

/// lichess's own path and parameters: the answer of /chess/cloud-eval,
/// `variant` read as lichess's variant key.
#[tokio::test]
async fn lichess_path_answers_as_cloud_eval_and_refuses_other_variants() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let ours = app
        .get(&format!("/chess/cloud-eval?fen={}&multiPv=2", encode(AFTER_E4)))
        .await;
    assert_eq!(ours.status, StatusCode::OK);
    for variant in ["standard", "fromPosition"] {
        let lichess = app
            .get(&format!(
                "/api/cloud-eval?fen={}&multiPv=2&variant={variant}",
                encode(AFTER_E4)
            ))
            .await;
        assert_eq!(
            lichess.status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&lichess.body)
        );
        // The same default budget, so the cached answer: equal in full.
        assert_eq!(lichess.json(), ours.json(), "{variant}");
    }
    for variant in ["chess960", "atomic", "crazyhouse"] {
        let r = app
            .get(&format!("/api/cloud-eval?fen={}&variant={variant}", encode(AFTER_E4)))
            .await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains("variant") && detail.contains(variant), "{detail}");
    }
}

#[tokio::test]
async fn level_one_loses_every_game_to_level_ten() {
    if !stockfish() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    crate::helpers::assert_level_one_loses_to_level_ten("chess").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_whose_own_search_holds_the_only_engine_gets_429_another_is_served() {
    if !stockfish() {
        return;
    }
    let _engine = ENGINE_LOCK.lock().await;
    let app = spawn_app_on(TestDb::Sqlite, |c| chess_settings(c).engine_count = 1).await;
    let router = app.router.clone();
    let long = tokio::spawn(async move {
        let body = json!({"moves": ["e2e4"], "max_ms": 3000});
        TestResponse::from(
            router,
            crate::fairness::from(1, Method::POST, "/chess/move", None, Some(&body)),
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(700)).await;
    // The same client again, with a budget shorter than the holder's
    // slice: it competes with itself.
    let body = json!({"moves": ["d2d4"], "max_ms": 100});
    let r = app
        .send(crate::fairness::from(1, Method::POST, "/chess/move", None, Some(&body)))
        .await;
    let detail = r.assert_problem(StatusCode::TOO_MANY_REQUESTS);
    assert!(detail.contains("own requests hold 1 of the 1 engine"), "{detail}");
    assert_eq!(
        r.headers.get(header::RETRY_AFTER).map(|v| v.as_bytes()),
        Some(&b"1"[..])
    );
    // Another client with a budget past the slice: the long search yields.
    let body = json!({"moves": ["c2c4"], "max_ms": 1000});
    let r = app
        .send(crate::fairness::from(2, Method::POST, "/chess/move", None, Some(&body)))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(long.await.unwrap().status, StatusCode::OK);
}
