//! /matches: whole games against the AI, stored, on SQLite and PostgreSQL.
//!
//! Every scenario runs twice, once per database (`on_both_databases!`); the
//! PostgreSQL run needs KIBITZ_TEST_DATABASE_URL (scripts/test.sh sets it)
//! and says so loudly when it is missing.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{postgres_server, spawn_app_on, TestApp, TestDb, TestResponse};

macro_rules! on_both_databases {
    ($($scenario:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $scenario() {
                    super::$scenario(super::TestDb::Sqlite).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $scenario() {
                    let Some(server) = super::postgres_server() else {
                        eprintln!("NOT RUN against PostgreSQL: KIBITZ_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
                        return;
                    };
                    super::$scenario(super::TestDb::Postgres(server)).await;
                }
            )*
        }
    };
}

on_both_databases!(
    a_tictactoe_match_is_created_read_back_and_played_to_the_end,
    every_game_plays_to_the_end_with_a_consistent_history,
    tokens_are_checked,
    a_stale_or_repeated_ply_is_refused_and_changes_nothing,
    concurrent_requests_with_the_same_ply_apply_exactly_once,
    illegal_moves_and_bad_requests_are_refused,
    finished_matches_are_purged_after_their_retention,
    since_returns_only_the_later_history,
    ishitori_heaps_beyond_2_to_the_53_come_with_decimal_strings,
    a_move_rebuilds_the_game_from_its_record_and_old_rows_from_their_history,
    rows_without_records_are_rewritten_from_their_history_at_start_up,
);

/// Runs `sql` with `$1` bound to `id` on the app's database.
async fn alter_row(app: &TestApp, sql: &str, id: &str) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let url = app.state.config.database_url.clone().expect("a database");
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    let done = sqlx::query(sql).bind(id).execute(&mut conn).await.unwrap();
    assert_eq!(done.rows_affected(), 1, "{sql}");
}

/// The number `sql` counts on the app's database.
async fn count(app: &TestApp, sql: &str) -> i64 {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let url = app.state.config.database_url.clone().expect("a database");
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query(sql).fetch_one(&mut conn).await.unwrap().get::<i64, _>(0)
}

const UNRECORDED: &str = "SELECT COUNT(*) FROM matches WHERE saved IS NULL OR saved_ply IS NULL OR saved_ply <> ply";

async fn app_on(db: TestDb) -> TestApp {
    // Concurrent moves wait for a search worker rather than getting 503 on
    // a machine busy with other work (the pool itself is tested in limits.rs).
    let app = spawn_app_on(db, |c| c.search_queue_ms = 30_000).await;
    let ready = app.wait_ready().await;
    assert_eq!(ready.status, StatusCode::OK, "{}", String::from_utf8_lossy(&ready.body));
    app
}

pub async fn authorized(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> TestResponse {
    let mut builder = Request::builder().method(method).uri(path);
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let body = match body {
        Some(v) => {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    app.send(builder.body(body).unwrap()).await
}

/// A created match: its id, token and first body.
struct Created {
    id: String,
    token: String,
    body: Value,
}

async fn create(app: &TestApp, request: Value) -> Created {
    let r = app.post_json("/matches", &request).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    let id = body["id"].as_str().expect("id").to_string();
    let token = body["token"].as_str().expect("token").to_string();
    let location = r.headers.get(header::LOCATION).and_then(|v| v.to_str().ok());
    assert_eq!(location, Some(format!("/matches/{id}").as_str()));
    Created { id, token, body }
}

async fn get(app: &TestApp, m: &Created) -> Value {
    let r = authorized(app, Method::GET, &format!("/matches/{}", m.id), Some(&m.token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

async fn send_move(app: &TestApp, m: &Created, ply: &Value, mv: Value) -> TestResponse {
    let path = format!("/matches/{}/moves", m.id);
    authorized(
        app,
        Method::POST,
        &path,
        Some(&m.token),
        Some(&json!({"ply": ply, "move": mv})),
    )
    .await
}

/// A legal move for the person in `state`: simple, not good.
pub fn some_legal_move(game: &str, state: &Value, options: &Value) -> Value {
    let legal = legal_moves_by_rules(game, state, options);
    match game {
        "pig" => {
            let turn_total = state["turn_total"].as_u64().unwrap();
            json!({"action": if turn_total < 20 { "roll" } else { "hold" }})
        }
        "nine-square" => {
            // The first cells, as many as the die says (or as are left).
            let dice = state["dice"].as_u64().unwrap() as usize;
            json!({"placements": legal.into_iter().take(dice).collect::<Vec<_>>()})
        }
        _ => legal
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no legal move in {state}")),
    }
}

/// The person's legal moves by the test's own reading of the rules, in the
/// move format (Nine Square: the empty cells a placement may use).
fn legal_moves_by_rules(game: &str, state: &Value, options: &Value) -> Vec<Value> {
    let cells = |empty: char| -> Vec<Value> {
        let mut cells = Vec::new();
        for (r, row) in state["board"].as_array().unwrap().iter().enumerate() {
            for (c, ch) in row.as_str().unwrap().chars().enumerate() {
                if ch == empty {
                    cells.push(json!({"row": r, "col": c}));
                }
            }
        }
        cells
    };
    let moves = match game {
        // The turn total never nears its cap in these games.
        "pig" => vec![json!({"action": "roll"}), json!({"action": "hold"})],
        "tictactoe" | "nine-square" => cells('.'),
        "ishitori" => {
            let heaps: Vec<u64> = match state.get("heaps") {
                Some(list) => list.as_array().unwrap().iter().map(|h| h.as_u64().unwrap()).collect(),
                None => vec![state["remaining"].as_u64().unwrap()],
            };
            let takes: Vec<u64> = options["take"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_u64)
                .collect();
            let mut moves = Vec::new();
            for (heap, &size) in heaps.iter().enumerate() {
                for &take in takes.iter().filter(|&&t| t <= size) {
                    moves.push(json!({"take": take, "heap": heap}));
                }
            }
            moves
        }
        "number-square" => {
            let board: Vec<Vec<Value>> = state["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row.as_array().unwrap().clone())
                .collect();
            let n = board.len();
            let taken = |r: usize, c: usize| board[r][c].is_null();
            let mut moves = Vec::new();
            for (r, row) in board.iter().enumerate() {
                for (c, tile) in row.iter().enumerate() {
                    let on_edge = r == 0 || c == 0 || r + 1 == n || c + 1 == n;
                    let exposed = on_edge || taken(r - 1, c) || taken(r + 1, c) || taken(r, c - 1) || taken(r, c + 1);
                    if !tile.is_null() && exposed {
                        moves.push(json!({"row": r, "col": c}));
                    }
                }
            }
            moves
        }
        "connect-four" => state["board"][0]
            .as_str()
            .unwrap()
            .chars()
            .enumerate()
            .filter(|&(_, ch)| ch == '.')
            .map(|(c, _)| json!({"column": c + 1}))
            .collect(),
        other => panic!("unknown game {other}"),
    };
    moves
}

fn sorted_texts(moves: &[Value]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(Value::to_string).collect();
    texts.sort();
    texts
}

/// An answer's `legal_moves` agree with the rules while the person is to
/// move, and are null once the match is over.
fn check_legal_moves(m: &Value) {
    if m["status"] == "finished" {
        assert!(m["legal_moves"].is_null(), "{m}");
        return;
    }
    let listed = m["legal_moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no legal_moves in {m}"));
    let game = m["game"].as_str().unwrap();
    let by_rules = legal_moves_by_rules(game, &m["state"], &m["options"]);
    assert_eq!(sorted_texts(listed), sorted_texts(&by_rules), "{m}");
}

/// A finished match says why it ended, and the reason fits its final state.
fn check_reason(m: &Value) {
    let result = &m["result"];
    let reason = result["reason"].as_str().unwrap_or_else(|| panic!("no reason in {m}"));
    let state = &m["state"];
    let expected: &[&str] = match m["game"].as_str().unwrap() {
        "pig" => &["goal_reached"],
        "ishitori" => &["no_move"],
        "nine-square" => &["board_full"],
        "tictactoe" | "connect-four" if result["winner"] == "draw" => &["board_full"],
        "tictactoe" | "connect-four" => &["line"],
        "number-square" => {
            let all_taken = state["board"]
                .as_array()
                .unwrap()
                .iter()
                .all(|row| row.as_array().unwrap().iter().all(Value::is_null));
            if all_taken {
                // The last tile may also complete a crossing path.
                &["all_taken", "crossing_path"]
            } else {
                &["crossing_path"]
            }
        }
        other => panic!("unknown game {other}"),
    };
    assert!(expected.contains(&reason), "{reason} for {m}");
}

/// Plays the person's simple moves until the match is finished; returns the
/// final match object after checking every answer's history, legal moves
/// and result.
async fn play_to_the_end(app: &TestApp, m: &Created) -> Value {
    let mut current = m.body.clone();
    for _ in 0..2_000 {
        check_history(&current);
        check_legal_moves(&current);
        if current["status"] == "finished" {
            check_reason(&current);
            return current;
        }
        assert_eq!(current["status"], "in_progress");
        assert!(current["result"].is_null());
        let mv = some_legal_move(
            current["game"].as_str().unwrap(),
            &current["state"],
            &current["options"],
        );
        let r = send_move(app, m, &current["ply"], mv.clone()).await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "{mv} in {current}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let next = r.json();
        let before = current["ply"].as_u64().unwrap() as usize;
        assert_eq!(next["history"][before]["actor"], "human", "{next}");
        // The history keeps the move as sent, defaults filled in.
        let recorded = &next["history"][before]["move"];
        for (key, value) in mv.as_object().unwrap() {
            assert_eq!(&recorded[key], value, "{recorded} records {mv}");
        }
        current = next;
    }
    panic!("match did not finish: {current}");
}

/// `ply` counts the entries, numbered 1.., each with a valid actor, exactly
/// one of move/roll, a fair die, and an RFC 3339 time.
fn check_history(m: &Value) {
    let history = m["history"].as_array().expect("history");
    assert_eq!(m["ply"].as_u64(), Some(history.len() as u64), "{m}");
    for (i, e) in history.iter().enumerate() {
        assert_eq!(e["ply"].as_u64(), Some(i as u64 + 1), "{e}");
        let at = e["at"].as_str().expect("at");
        assert!(chrono::DateTime::parse_from_rfc3339(at).is_ok(), "{at}");
        match e["actor"].as_str() {
            Some("dice") => {
                assert!(e["move"].is_null());
                let sides = m["options"]["die_sides"].as_u64().unwrap_or(6);
                let roll = e["roll"].as_u64().expect("roll");
                assert!((1..=sides).contains(&roll), "{e}");
            }
            Some("human") | Some("ai") => {
                assert!(e["roll"].is_null());
                assert!(e["move"].is_object(), "{e}");
            }
            other => panic!("actor {other:?}"),
        }
    }
}

async fn a_tictactoe_match_is_created_read_back_and_played_to_the_end(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "tictactoe"})).await;
    assert_eq!(m.token.len(), 64);
    assert!(m.token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(m.body["options"], json!({"rows": 3, "cols": 3, "k": 3}));
    assert_eq!(m.body["ai"], json!({"strategy": "best", "level": 10}));
    assert_eq!(m.body["status"], "in_progress");
    assert_eq!(m.body["ply"], 0);
    assert_eq!(m.body["state"]["human_plays"], "X");

    // Read back: the same object, without the token.
    let mut expected = m.body.clone();
    expected.as_object_mut().unwrap().remove("token");
    assert_eq!(get(&app, &m).await, expected);

    let end = play_to_the_end(&app, &m).await;
    // The AI at level 10 never loses at tic-tac-toe.
    assert_ne!(end["result"]["winner"], "human", "{end}");
    assert_eq!(get(&app, &m).await, end);
    // No more moves once finished.
    let r = send_move(&app, &m, &end["ply"], json!({"row": 0, "col": 0})).await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("finished"), "{detail}");
    assert_eq!(problem_type(&r), "/problems/match-finished");
}

async fn every_game_plays_to_the_end_with_a_consistent_history(db: TestDb) {
    let app = app_on(db).await;
    let requests = [
        json!({"game": "pig", "options": {"goal": 30}, "ai": {"level": 3}}),
        json!({"game": "pig", "ai_first": true, "options": {"goal": 20, "die_sides": 4, "variant": "progressive"}}),
        json!({"game": "tictactoe", "ai_first": true, "options": {"rows": 4, "cols": 4, "k": 3}, "ai": {"level": 5}}),
        json!({"game": "ishitori", "options": {"remaining": 30, "take": [1, 3, 4], "misere": false}}),
        json!({"game": "ishitori", "ai_first": true}),
        json!({"game": "nine-square", "ai": {"level": 2}}),
        json!({"game": "nine-square", "ai_first": true}),
        json!({"game": "number-square", "options": {"size": 4}}),
        json!({"game": "number-square", "ai_first": true, "options": {"board": [[5, 1, 2], [7, 9, 3], [4, 8, 6]]}}),
        json!({"game": "connect-four", "options": {"cols": 5, "rows": 4}}),
        json!({"game": "connect-four", "ai_first": true, "ai": {"level": 4}}),
    ];
    for request in requests {
        let m = create(&app, request.clone()).await;
        if request["ai_first"] == true {
            let first_mover = m.body["history"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["actor"] != "dice")
                .map(|e| e["actor"].clone());
            assert_eq!(first_mover, Some(json!("ai")), "{}", m.body);
        }
        let end = play_to_the_end(&app, &m).await;
        let result = &end["result"];
        assert!(
            ["human", "ai", "draw"].contains(&result["winner"].as_str().unwrap()),
            "{end}"
        );
        if let Some(scores) = result.get("scores") {
            let (human, ai) = (scores["human"].as_u64().unwrap(), scores["ai"].as_u64().unwrap());
            let expected = match human.cmp(&ai) {
                std::cmp::Ordering::Greater => "human",
                std::cmp::Ordering::Less => "ai",
                std::cmp::Ordering::Equal => "draw",
            };
            assert_eq!(result["winner"], expected, "{end}");
        }
        if end["game"] == "pig" {
            let goal = end["options"]["goal"].as_u64().unwrap();
            let scores = &result["scores"];
            assert!(scores["human"].as_u64().unwrap() >= goal || scores["ai"].as_u64().unwrap() >= goal);
            assert!(end["history"].as_array().unwrap().iter().any(|e| e["actor"] == "dice"));
        }
        assert_eq!(get(&app, &m).await, end, "stored match differs from the last answer");
    }
}

async fn a_move_rebuilds_the_game_from_its_record_and_old_rows_from_their_history(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "tictactoe"})).await;
    // A shown state the rules could never reach: were it read back, the
    // move below would be refused or answered from it.
    alter_row(
        &app,
        r#"UPDATE matches SET state = '{"board":["OOO","OOO","OOO"],"human_plays":"X"}' WHERE id = $1"#,
        &m.id,
    )
    .await;
    let r = send_move(&app, &m, &json!(0), json!({"row": 1, "col": 1})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let board = r.json()["state"]["board"].to_string();
    assert_eq!(board.matches('X').count(), 1, "{board}");
    assert_eq!(board.matches('O').count(), 1, "{board}");

    // A row written before the record was kept (no `saved`) gets it from
    // its history, then moves.
    alter_row(
        &app,
        "UPDATE matches SET saved = NULL, saved_ply = NULL WHERE id = $1",
        &m.id,
    )
    .await;
    assert_eq!(count(&app, UNRECORDED).await, 1);
    let before = get(&app, &m).await;
    let mv = some_legal_move("tictactoe", &before["state"], &before["options"]);
    let r = send_move(&app, &m, &before["ply"], mv).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let board = r.json()["state"]["board"].to_string();
    assert_eq!(board.matches('X').count(), 2, "{board}");
    assert_eq!(board.matches('O').count(), 2, "{board}");
    assert_eq!(count(&app, UNRECORDED).await, 0);

    // A row whose history does not replay to what it shows is the store's
    // fault: 500, and the row is left as it is.
    alter_row(&app, "UPDATE matches SET saved = NULL WHERE id = $1", &m.id).await;
    alter_row(
        &app,
        "UPDATE match_events SET move = '{\"row\":0,\"col\":0}' WHERE match_id = $1 AND ply = 1",
        &m.id,
    )
    .await;
    let before = get(&app, &m).await;
    let mv = some_legal_move("tictactoe", &before["state"], &before["options"]);
    let r = send_move(&app, &m, &before["ply"], mv).await;
    assert_eq!(
        r.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(get(&app, &m).await, before);
}

async fn rows_without_records_are_rewritten_from_their_history_at_start_up(db: TestDb) {
    let old = app_on(db).await;
    let games = [
        json!({"game": "tictactoe"}),
        json!({"game": "pig", "options": {"goal": 20}}),
        json!({"game": "ishitori", "options": {"heaps": [4, 5]}}),
        json!({"game": "nine-square"}),
        json!({"game": "connect-four", "ai_first": true}),
        json!({"game": "othello", "options": {"size": 4}}),
        json!({"game": "number-square", "options": {"size": 3}}),
    ];
    let mut matches = Vec::new();
    for request in games {
        let m = create(&old, request).await;
        let now = get(&old, &m).await;
        let r = send_move(&old, &m, &now["ply"], a_legal_move(&now)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        matches.push(m);
    }
    // As a version before records (and end reasons) were kept left them.
    let shown_before = {
        let mut shown = Vec::new();
        for m in &matches {
            shown.push(get(&old, m).await);
        }
        shown
    };
    alter_all(&old, "UPDATE matches SET saved = NULL, saved_ply = NULL").await;
    assert_eq!(count(&old, UNRECORDED).await, matches.len() as i64);

    // A server started on that database rewrites every row once.
    let url = old.state.config.database_url.clone().unwrap();
    let new = app_on(TestDb::Url(url)).await;
    let mut waited = 0;
    while count(&new, UNRECORDED).await > 0 {
        assert!(waited < 300, "the rows were not rewritten within 30 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    for (m, before) in matches.iter().zip(&shown_before) {
        let now = get(&new, m).await;
        assert_eq!(&now, before, "a rewritten row shows what it showed");
        if now["status"] == "in_progress" {
            let r = send_move(&new, m, &now["ply"], a_legal_move(&now)).await;
            assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        }
    }
}

/// A move the match offers: its first legal move, or for the games whose
/// move is more than one (a roll's placements, a decision) one made by
/// their rules.
fn a_legal_move(m: &Value) -> Value {
    match m["game"].as_str().unwrap() {
        game @ ("pig" | "nine-square") => some_legal_move(game, &m["state"], &m["options"]),
        _ => m["legal_moves"][0].clone(),
    }
}

/// Runs `sql` (no parameters) on the app's database.
async fn alter_all(app: &TestApp, sql: &str) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let url = app.state.config.database_url.clone().expect("a database");
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query(sql).execute(&mut conn).await.unwrap();
}

async fn tokens_are_checked(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "ishitori"})).await;
    let path = format!("/matches/{}", m.id);

    let r = authorized(&app, Method::GET, &path, None, None).await;
    r.assert_problem(StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers.get(header::WWW_AUTHENTICATE).unwrap(), "Bearer");
    let r = app
        .send(
            Request::get(&path)
                .header(header::AUTHORIZATION, format!("Basic {}", m.token))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    r.assert_problem(StatusCode::UNAUTHORIZED);

    let other = create(&app, json!({"game": "ishitori"})).await;
    assert_ne!(other.token, m.token);
    let r = authorized(&app, Method::GET, &path, Some(&other.token), None).await;
    r.assert_problem(StatusCode::FORBIDDEN);
    let mut wrong = m.token.clone();
    wrong.replace_range(0..1, if wrong.starts_with('0') { "1" } else { "0" });
    authorized(&app, Method::GET, &path, Some(&wrong), None)
        .await
        .assert_problem(StatusCode::FORBIDDEN);
    let r = authorized(
        &app,
        Method::POST,
        &format!("{path}/moves"),
        Some(&other.token),
        Some(&json!({"ply": 0, "move": {"take": 1}})),
    )
    .await;
    r.assert_problem(StatusCode::FORBIDDEN);
    assert_eq!(get(&app, &m).await["ply"], 0, "a refused move changed the match");

    for unknown in ["0123456789abcdef0123456789abcdef", "nope", "%20"] {
        authorized(&app, Method::GET, &format!("/matches/{unknown}"), Some(&m.token), None)
            .await
            .assert_problem(StatusCode::NOT_FOUND);
    }
}

async fn a_stale_or_repeated_ply_is_refused_and_changes_nothing(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "ishitori", "options": {"remaining": 40}})).await;
    let first = send_move(&app, &m, &json!(0), json!({"take": 1})).await;
    assert_eq!(first.status, StatusCode::OK);
    let after = first.json();
    assert_eq!(after["ply"], 2, "{after}");

    // The same request again (a retry): refused, nothing applied twice.
    let retry = send_move(&app, &m, &json!(0), json!({"take": 1})).await;
    let detail = retry.assert_problem(StatusCode::CONFLICT);
    assert!(detail.contains("current ply 2"), "{detail}");
    assert_eq!(problem_type(&retry), "/problems/stale-ply");
    // A ply from the future, too.
    send_move(&app, &m, &json!(9), json!({"take": 1}))
        .await
        .assert_problem(StatusCode::CONFLICT);
    assert_eq!(get(&app, &m).await, after);
}

async fn concurrent_requests_with_the_same_ply_apply_exactly_once(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "pig", "options": {"goal": 200}})).await;
    let mut ply = m.body["ply"].clone();
    for _round in 0..5 {
        let sends = (0..6).map(|_| send_move(&app, &m, &ply, json!({"action": "roll"})));
        let answers = futures_util::future::join_all(sends).await;
        let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status).collect();
        let ok: Vec<&TestResponse> = answers.iter().filter(|r| r.status == StatusCode::OK).collect();
        // Exactly one move applies. The others were not applied: refused as
        // stale (409), or, on a loaded machine, turned away before they
        // were read because this client's own requests held the workers
        // (429). Anything else (a 5xx, a second 200) is a failure.
        assert_eq!(ok.len(), 1, "statuses: {statuses:?}");
        let not_applied = [StatusCode::CONFLICT, StatusCode::TOO_MANY_REQUESTS];
        assert!(
            statuses
                .iter()
                .filter(|&&s| s != StatusCode::OK)
                .all(|s| not_applied.contains(s)),
            "statuses: {statuses:?}"
        );
        for refused in answers.iter().filter(|r| r.status == StatusCode::CONFLICT) {
            assert_eq!(problem_type(refused), "/problems/stale-ply", "statuses: {statuses:?}");
        }
        let stored = get(&app, &m).await;
        assert_eq!(stored, ok[0].json(), "the stored match is not the one answered 200");
        check_history(&stored);
        ply = stored["ply"].clone();
        if stored["status"] == "finished" {
            break;
        }
    }
}

async fn illegal_moves_and_bad_requests_are_refused(db: TestDb) {
    let app = app_on(db).await;
    let cases = [
        (json!({}), StatusCode::BAD_REQUEST, "game"),
        (json!({"game": 3}), StatusCode::BAD_REQUEST, "game"),
        (json!({"game": "go"}), StatusCode::UNPROCESSABLE_ENTITY, "game"),
        (
            json!({"game": "pig", "options": {"goal": 0}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "goal",
        ),
        (
            json!({"game": "pig", "options": {"goal": 100000}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "goal",
        ),
        (
            json!({"game": "pig", "ai": {"level": 11}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "level",
        ),
        (
            json!({"game": "pig", "ai": {"strategy": "psychic"}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "strategy",
        ),
        (
            json!({"game": "tictactoe", "options": {"rows": 20}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rows",
        ),
        (
            json!({"game": "ishitori", "options": {"take": []}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "take",
        ),
        (
            json!({"game": "number-square", "options": {"size": 1000}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "size",
        ),
    ];
    for (request, status, word) in cases {
        let r = app.post_json("/matches", &request).await;
        let detail = r.assert_problem(status);
        assert!(detail.contains(word), "{request}: {detail}");
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            assert_eq!(problem_type(&r), "/problems/invalid-options", "{request}");
        }
    }
    app.post_raw("/matches", Some("text/plain"), "{}")
        .await
        .assert_problem(StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let m = create(&app, json!({"game": "tictactoe"})).await;
    let path = format!("/matches/{}/moves", m.id);
    for body in [
        json!({"move": {"row": 0, "col": 0}}),
        json!({"ply": 0}),
        json!({"ply": -1, "move": {}}),
    ] {
        authorized(&app, Method::POST, &path, Some(&m.token), Some(&body))
            .await
            .assert_problem(StatusCode::BAD_REQUEST);
    }
    for mv in [
        json!({"row": 3, "col": 0}),
        json!({"row": 0}),
        json!({"take": 1}),
        json!("e4"),
    ] {
        let r = send_move(&app, &m, &json!(0), mv.clone()).await;
        r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(problem_type(&r), "/problems/illegal-move", "{mv}");
    }
    send_move(&app, &m, &json!(0), json!({"row": 1, "col": 1})).await;
    let occupied = send_move(&app, &m, &json!(2), json!({"row": 1, "col": 1})).await;
    occupied.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(problem_type(&occupied), "/problems/illegal-move");
    assert_eq!(get(&app, &m).await["ply"], 2, "a refused move changed the match");
}

fn problem_type(r: &TestResponse) -> String {
    r.json()["type"].as_str().unwrap_or_default().to_string()
}

async fn since_returns_only_the_later_history(db: TestDb) {
    let app = app_on(db).await;
    let m = create(&app, json!({"game": "pig", "options": {"goal": 200}})).await;
    let mut full = m.body.clone();
    // A few turns, so that the history has rolls, moves and the AI's turns.
    for _ in 0..6 {
        let r = send_move(&app, &m, &full["ply"], json!({"action": "roll"})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        full = r.json();
    }
    let ply = full["ply"].as_u64().unwrap();
    assert!(ply >= 6, "{full}");
    let history = full["history"].as_array().unwrap();
    for since in [0, 1, ply / 2, ply - 1, ply, ply + 10] {
        let path = format!("/matches/{}?since={since}", m.id);
        let r = authorized(&app, Method::GET, &path, Some(&m.token), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        let partial = r.json();
        let expected: Vec<&Value> = history.iter().filter(|e| e["ply"].as_u64().unwrap() > since).collect();
        assert_eq!(
            partial["history"].as_array().unwrap().iter().collect::<Vec<_>>(),
            expected
        );
        // Everything else is the whole match.
        assert_eq!(partial["ply"], full["ply"]);
        assert_eq!(partial["state"], full["state"]);
        assert_eq!(partial["legal_moves"], full["legal_moves"]);
    }
    // A move with ?since= its ply answers with only what it added.
    let path = format!("/matches/{}/moves?since={ply}", m.id);
    let r = authorized(
        &app,
        Method::POST,
        &path,
        Some(&m.token),
        Some(&json!({"ply": ply, "move": {"action": "hold"}})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let after = r.json();
    let added = after["history"].as_array().unwrap();
    assert_eq!(
        added.first().map(|e| e["actor"].clone()),
        Some(json!("human")),
        "{after}"
    );
    assert_eq!(added.first().map(|e| e["ply"].clone()), Some(json!(ply + 1)));
    let whole = get(&app, &m).await;
    assert_eq!(&whole["history"].as_array().unwrap()[ply as usize..], &added[..]);
    for bad in ["-1", "x", "1.5"] {
        let path = format!("/matches/{}?since={bad}", m.id);
        authorized(&app, Method::GET, &path, Some(&m.token), None)
            .await
            .assert_problem(StatusCode::BAD_REQUEST);
    }
}

async fn ishitori_heaps_beyond_2_to_the_53_come_with_decimal_strings(db: TestDb) {
    let app = app_on(db).await;
    let big = u64::MAX - 2;
    let m = create(
        &app,
        json!({"game": "ishitori", "options": {"remaining": big.to_string(), "take": [1, 2, 3]}}),
    )
    .await;
    assert_eq!(m.body["options"]["remaining_decimal"], big.to_string(), "{}", m.body);
    assert_eq!(m.body["state"]["remaining_decimal"], big.to_string());
    assert_eq!(m.body["state"]["remaining"].as_u64(), Some(big));
    let r = send_move(&app, &m, &json!(0), json!({"take": 2})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let after = r.json();
    let left = after["state"]["remaining"].as_u64().unwrap();
    assert!(left < big - 2, "the AI took too: {after}");
    assert_eq!(after["state"]["remaining_decimal"], left.to_string());
    assert_eq!(get(&app, &m).await, after);

    let heaps = [big, 5, u64::MAX];
    let m = create(
        &app,
        json!({"game": "ishitori", "options": {"heaps": heaps.map(|h| h.to_string()), "misere": false}}),
    )
    .await;
    let decimals: Vec<String> = heaps.iter().map(u64::to_string).collect();
    assert_eq!(m.body["options"]["heaps_decimal"], json!(decimals), "{}", m.body);
    assert_eq!(m.body["state"]["heaps_decimal"], json!(decimals));
    assert!(m.body["options"].get("remaining_decimal").is_none());

    let answer = app
        .post_json("/ishitori/move", &json!({"remaining": big.to_string()}))
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    let answer = answer.json();
    let after = answer["remaining_after"].as_u64().unwrap();
    assert_eq!(answer["remaining_after_decimal"], after.to_string());
    assert_eq!(after, big - answer["take"].as_u64().unwrap());
}

async fn finished_matches_are_purged_after_their_retention(db: TestDb) {
    let app = spawn_app_on(db, |c| {
        c.match_retention_secs = 0;
        c.purge_interval_secs = 1;
    })
    .await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    let finished = create(
        &app,
        json!({"game": "ishitori", "options": {"remaining": 1, "take": [1]}}),
    )
    .await;
    let r = send_move(&app, &finished, &json!(0), json!({"take": 1})).await;
    assert_eq!(r.json()["status"], "finished");
    let in_progress = create(&app, json!({"game": "ishitori"})).await;

    let path = format!("/matches/{}", finished.id);
    let mut status = StatusCode::OK;
    for _ in 0..50 {
        status = authorized(&app, Method::GET, &path, Some(&finished.token), None)
            .await
            .status;
        if status == StatusCode::NOT_FOUND {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::NOT_FOUND, "finished match not purged within 5 s");
    assert_eq!(get(&app, &in_progress).await["status"], "in_progress");
}

#[tokio::test]
async fn match_endpoints_answer_503_while_the_database_is_down_and_games_still_work() {
    let app = spawn_app_on(TestDb::Url("postgres://nobody@127.0.0.1:9/none".into()), |_| {}).await;
    let r = app.post_json("/matches", &json!({"game": "tictactoe"})).await;
    r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    let r = authorized(
        &app,
        Method::GET,
        "/matches/0123456789abcdef0123456789abcdef",
        Some("x"),
        None,
    )
    .await;
    r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    let r = app
        .post_json("/tictactoe/move", &json!({"board": ["X..", "...", "..."]}))
        .await;
    assert_eq!(r.status, StatusCode::OK);
}

/// A wrong token is refused before the match is decoded or its history
/// read (a long match's history took 30 ms to load, an unknown id 0.65
/// ms): with the history made unreadable, the wrong token still gets its
/// 403, where reading the history first answered 500.
#[tokio::test]
async fn a_wrong_token_is_refused_before_the_history_is_read() {
    let app = app_on(TestDb::Sqlite).await;
    let m = create(
        &app,
        json!({"game": "ishitori", "options": {"remaining": 1000, "take": [1]}}),
    )
    .await;
    let mut ply = json!(0);
    for _ in 0..3 {
        let r = send_move(&app, &m, &ply, json!({"take": 1})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        ply = r.json()["ply"].clone();
    }
    alter_row(
        &app,
        "UPDATE match_events SET actor = 'nobody' WHERE match_id = $1 AND ply = 1",
        &m.id,
    )
    .await;
    let wrong = "0".repeat(64);
    let path = format!("/matches/{}", m.id);
    for (method, path, body) in [
        (Method::GET, path.clone(), None),
        (Method::GET, format!("{path}/review"), None),
        (
            Method::POST,
            format!("{path}/moves"),
            Some(json!({"ply": ply, "move": {"take": 1}})),
        ),
    ] {
        let r = authorized(&app, method, &path, Some(&wrong), body.as_ref()).await;
        r.assert_problem(StatusCode::FORBIDDEN);
    }
    // The right token reads the history, and meets the damage.
    let r = authorized(&app, Method::GET, &path, Some(&m.token), None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
}
