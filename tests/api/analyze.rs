//! POST /analyze: a batch of positions of any games, each answered exactly
//! as its game's own endpoint answers it.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_on, TestApp, TestDb};

/// The endpoint that answers a position of `game` alone: its catalog
/// entry's, as the registry makes it.
fn endpoint(game: &str) -> &'static str {
    kibitz::registry::catalog(&kibitz::config::Config::defaults())
        .into_iter()
        .find(|entry| entry.id == game)
        .map(|entry| entry.endpoints.analysis)
        .unwrap_or_else(|| panic!("no game {game} in the registry"))
}

/// What the game's own endpoint answers for `position` sent alone: its JSON,
/// or `{"error": <its problem>}`.
async fn alone(app: &TestApp, position: &Value) -> Value {
    let r = app
        .post_json(endpoint(position["game"].as_str().unwrap()), position)
        .await;
    if r.status == StatusCode::OK {
        r.json()
    } else {
        r.assert_problem(r.status);
        json!({"error": r.json()})
    }
}

async fn batch(app: &TestApp, body: &Value) -> Vec<Value> {
    let r = app.post_json("/analyze", body).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.content_type(), "application/json");
    r.json()["results"].as_array().expect("results").clone()
}

fn nine_square_endgame() -> Vec<String> {
    // Five empty cells: the search reaches the end of the game and is exact.
    let mut board: Vec<String> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| if (r * 9 + c + r / 3) % 2 == 0 { 'X' } else { 'O' })
                .collect()
        })
        .collect();
    board[8] = "XOXO.....".into();
    board
}

/// One position of every game (and two of some), each of a kind whose answer
/// is the same every time it is asked: solved exactly, read from a table, or
/// computed without a search.
pub(crate) fn one_of_each() -> Vec<Value> {
    vec![
        json!({"game": "tictactoe", "board": ["X..", ".O.", "..."]}),
        json!({"game": "pig", "my_score": 37, "opponent_score": 54, "turn_total": 12}),
        json!({"game": "ishitori", "remaining": 24}),
        json!({"game": "ishitori", "heaps": [3, 5, 6], "misere": false, "take": [1, 2, 3, 4, 5, 6, 7]}),
        json!({"game": "number-square", "board": [[3, 9, 1], [7, 5, 8], [2, 6, 4]], "my_score": 2}),
        json!({"game": "number-square", "board": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], "strategy": "lookahead2"}),
        json!({"game": "nine-square", "board": nine_square_endgame(), "player": "X", "dice": 2}),
        json!({"game": "nine-square", "board": nine_square_endgame(), "player": "O", "dice": 3, "strategy": "greedy"}),
        json!({"game": "connect-four", "moves": "7111372676733525156246"}),
        json!({"game": "tictactoe", "board": ["XO.", ".X.", "..O"]}),
        // Two empties: solved by the last-empties code, no table involved,
        // so a warm answer is the same each time, nodes included.
        json!({"game": "othello", "board": ["XXXX", "XXXX", "XXOO", "XO.."], "player": "X"}),
        // One move, which ends the game: nothing to search.
        json!({"game": "kalah", "board": {"south": [0, 0, 1], "north": [1, 0, 3], "south_store": 4, "north_store": 7}, "to_move": "south"}),
        // Within the batch's budget, so its cache key is the one of the
        // request alone: the warm answer is the cached one.
        json!({"game": "chess", "fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "depth": 6, "max_ms": 500}),
        // Mates Fairy-Stockfish proves at a fixed depth: the warm answer
        // is the cached one, as chess's.
        json!({"game": "xiangqi", "position": "4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1", "depth": 6, "max_ms": 500}),
        json!({"game": "shogi", "position": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "depth": 4, "max_ms": 500}),
        // A race kibitz's exact table answers: the same every time, with
        // or without gnubg.
        json!({"game": "backgammon", "board": {"points": [1, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, 0, -2, 0, 0], "bar": {"me": 0, "opponent": 0}, "off": {"me": 11, "opponent": 11}}, "dice": [4, 1]}),
    ]
}

/// The games whose positions need Fairy-Stockfish.
pub(crate) const FAIRY_GAMES: [&str; 2] = ["xiangqi", "shogi"];

/// Whether Fairy-Stockfish is there for the xiangqi and shogi positions:
/// it must be, unless the run said to skip its tests
/// (KIBITZ_TEST_FAIRY_STOCKFISH=skip).
pub(crate) fn fairy_stockfish() -> bool {
    kibitz::engines::EngineConfig::fairy_stockfish("xiangqi", kibitz::engines::Dialect::Uci)
        .resolve()
        .is_ok()
        || std::env::var("KIBITZ_TEST_FAIRY_STOCKFISH").as_deref() != Ok("skip")
}

/// Whether Stockfish is there for the chess positions: it must be, unless
/// the run said to skip the engine tests (KIBITZ_TEST_STOCKFISH=skip).
pub(crate) fn stockfish() -> bool {
    kibitz::engines::EngineConfig::stockfish().resolve().is_ok()
        || std::env::var("KIBITZ_TEST_STOCKFISH").as_deref() != Ok("skip")
}

#[test]
fn one_of_each_covers_every_registered_game() {
    let positions = one_of_each();
    for game in kibitz::registry::ids() {
        assert!(positions.iter().any(|p| p["game"] == game), "no position of {game}");
    }
}

#[tokio::test]
async fn every_game_in_a_batch_answers_exactly_as_its_own_endpoint_in_order() {
    let app = spawn_app().await;
    let mut positions = one_of_each();
    if !stockfish() {
        eprintln!("Stockfish not found and KIBITZ_TEST_STOCKFISH=skip: the chess position is left out");
        positions.retain(|p| p["game"] != "chess");
    }
    if !fairy_stockfish() {
        eprintln!("Fairy-Stockfish not found and KIBITZ_TEST_FAIRY_STOCKFISH=skip: xiangqi and shogi are left out");
        positions.retain(|p| !FAIRY_GAMES.iter().any(|g| p["game"] == *g));
    }
    // Each position once alone first, so that memos and caches are as warm
    // for the batch as for the single requests it is compared with.
    for position in &positions {
        let first = alone(&app, position).await;
        assert!(first.get("error").is_none(), "{position}: {first}");
    }
    let results = batch(&app, &json!({"positions": positions})).await;
    assert_eq!(results.len(), positions.len());
    for (position, result) in positions.iter().zip(&results) {
        // Every field, `nodes` and `depth` included: these positions are
        // solved exactly (or need no search), so a warm answer is the same
        // each time.
        assert_eq!(result, &alone(&app, position).await, "{position}");
    }
    // The games appear in the order sent.
    assert_eq!(results[0]["player"], "X");
    assert_eq!(results[1]["action"], "roll");
    assert!(results[4]["solved"] == true && results[4]["final_margin"].is_i64());
    assert_eq!(results[5]["strategy"], "lookahead2");
    for exact in [0, 4, 6, 8, 9, 10] {
        assert_eq!(results[exact]["solved"], true, "{}", results[exact]);
    }
    assert_eq!(results[7]["strategy"], "greedy");
    assert_eq!(results[9]["player"], "X");
}

#[tokio::test]
async fn a_batch_answers_cold_positions_like_the_endpoint_would() {
    // Nothing asked before: the batch does the searches itself (through the
    // pool), then the endpoint answers the same from warm memos. Tic-tac-toe
    // answers are compared whole (the endpoint serves the batch's cached
    // answer); for the others `nodes` and `depth` count the work of the
    // search that ran, which a warm memo shortens, so the rest is compared.
    let app = spawn_app().await;
    let positions = one_of_each();
    // A budget that a busy machine cannot run out of before the last
    // position (a cold chess engine starts first): the positions are
    // exact, so the budget changes no answer.
    let results = batch(&app, &json!({"positions": positions, "max_ms": 8000})).await;
    let without_work = |mut v: Value| {
        if let Some(o) = v.as_object_mut() {
            o.remove("nodes");
            o.remove("depth");
        }
        v
    };
    for (position, result) in positions.iter().zip(&results) {
        let single = alone(&app, position).await;
        if position["game"] == "tictactoe" {
            assert_eq!(result, &single, "{position}");
        } else {
            assert_eq!(without_work(result.clone()), without_work(single), "{position}");
        }
    }
}

#[tokio::test]
async fn one_bad_position_gets_its_own_problem_and_the_others_their_answers() {
    let app = spawn_app().await;
    let positions = vec![
        json!({"game": "tictactoe", "board": ["X..", "...", "..."]}),
        // Finished: X has a line.
        json!({"game": "tictactoe", "board": ["XXX", "OO.", "..."]}),
        json!({"game": "pig", "my_score": 10, "opponent_score": 20, "turn_total": 5}),
        // Not the shape: a string where an integer belongs.
        json!({"game": "pig", "my_score": "ten", "opponent_score": 20, "turn_total": 5}),
        // Missing a field.
        json!({"game": "connect-four", "cols": 7}),
        json!({"game": "ishitori", "remaining": 0}),
        json!({"game": "number-square", "board": [[1, 2], [3, 4]], "strategy": "worst"}),
        json!({"game": "nine-square", "board": ["X"], "player": "X", "dice": 1}),
        json!({"game": "nine-square", "player": "X", "dice": 1}),
        json!({"game": "ishitori", "remaining": 7}),
    ];
    // Warm, as in the test above (Ishitori's `nodes` is 0 for a rule already
    // known).
    for position in &positions {
        alone(&app, position).await;
    }
    let results = batch(&app, &json!({"positions": positions})).await;
    assert_eq!(results.len(), positions.len());
    let mut errors = 0;
    for (position, result) in positions.iter().zip(&results) {
        let single = alone(&app, position).await;
        // The problem the endpoint answers, field for field (type, title,
        // status, detail), or the endpoint's answer.
        assert_eq!(result, &single, "{position}");
        if let Some(problem) = result.get("error") {
            errors += 1;
            let status = problem["status"].as_u64().unwrap();
            assert!(status == 400 || status == 422, "{problem}");
            assert!(problem["detail"].as_str().is_some_and(|d| !d.is_empty()));
        }
    }
    assert_eq!(errors, 7);
    assert_eq!(results[3]["error"]["status"], 400);
    let detail = results[3]["error"]["detail"].as_str().unwrap();
    assert!(detail.contains("my_score"), "{detail}");
    assert_eq!(results[1]["error"]["status"], 422);
    assert_eq!(results[0]["player"], "O");
    assert!(results[9]["outcome"].as_str().is_some(), "{}", results[9]);
}

#[tokio::test]
async fn a_position_with_an_unknown_or_missing_game_is_its_own_error() {
    let app = spawn_app().await;
    let results = batch(
        &app,
        &json!({"positions": [
            {"game": "go", "board": ["X..", "...", "..."]},
            {"board": ["X..", "...", "..."]},
            {"game": 7},
            {"game": null},
            5,
            ["pig"],
            {"game": "pig", "my_score": 0, "opponent_score": 0, "turn_total": 0},
        ]}),
    )
    .await;
    assert_eq!(results.len(), 7);
    for (i, status) in [(0, 422), (1, 422), (2, 422), (3, 422), (4, 400), (5, 400)] {
        let problem = &results[i]["error"];
        assert_eq!(problem["status"], status, "{i}: {problem}");
        for field in ["type", "title", "detail"] {
            assert!(problem[field].is_string(), "{i}: {problem}");
        }
    }
    let unknown = results[0]["error"]["detail"].as_str().unwrap();
    assert!(
        unknown.contains("go") && unknown.contains("connect-four") && unknown.contains("chess"),
        "{unknown}"
    );
    assert!(results[1]["error"]["detail"].as_str().unwrap().contains("missing"));
    assert_eq!(results[6]["action"], "roll");
}

#[tokio::test]
async fn every_game_of_the_catalog_can_be_named_in_a_batch() {
    let app = spawn_app().await;
    let games: Vec<Value> = app.get("/games").await.json()["games"].as_array().unwrap().clone();
    let positions: Vec<Value> = games.iter().map(|g| json!({"game": g["id"]})).collect();
    for game in &games {
        assert_eq!(game["endpoints"]["batch"], "/analyze", "{}", game["id"]);
    }
    // Time enough for chess's default search (1000 ms) within the batch.
    let results = batch(&app, &json!({"positions": positions, "max_ms": 5000})).await;
    for (game, result) in games.iter().zip(&results) {
        let single = app
            .post_json(
                game["endpoints"]["analysis"].as_str().unwrap(),
                &json!({"game": game["id"]}),
            )
            .await;
        if single.status == StatusCode::OK {
            // Chess: an empty position is the start position.
            assert_eq!(result["player"], single.json()["player"], "{}: {result}", game["id"]);
            continue;
        }
        // An empty position is not valid, but the game is known: the
        // problem is the game endpoint's own.
        assert_eq!(result["error"], single.json(), "{}", game["id"]);
    }
}

#[tokio::test]
async fn an_empty_batch_and_a_batch_that_is_not_a_list_are_refused_whole() {
    let app = spawn_app().await;
    let detail = app
        .post_json("/analyze", &json!({"positions": []}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("empty"), "{detail}");
    for body in [
        json!({}),
        json!({"positions": 5}),
        json!({"positions": [], "max_ms": -1}),
    ] {
        app.post_json("/analyze", &body)
            .await
            .assert_problem(StatusCode::BAD_REQUEST);
    }
    app.post_raw("/analyze", Some("text/plain"), "{}")
        .await
        .assert_problem(StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn a_batch_over_the_configured_limit_is_422_naming_the_limit() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.batch_max_positions = 3).await;
    let pig = json!({"game": "pig", "my_score": 0, "opponent_score": 0, "turn_total": 0});
    assert_eq!(batch(&app, &json!({"positions": [pig, pig, pig]})).await.len(), 3);
    let detail = app
        .post_json("/analyze", &json!({"positions": [pig, pig, pig, pig]}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        detail.contains("batch_max_positions = 3") && detail.contains('4'),
        "{detail}"
    );
}

/// An 11x11 board, five in a row: no search finishes it in seconds.
fn big_tictactoe(max_ms: Option<u64>) -> Value {
    let mut board = vec![".".repeat(11); 11];
    board[5] = ".....X.....".into();
    let mut position = json!({"game": "tictactoe", "board": board, "k": 5});
    if let Some(ms) = max_ms {
        position["max_ms"] = json!(ms);
    }
    position
}

#[tokio::test]
async fn a_shared_budget_that_runs_out_still_answers_every_position_in_time() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_concurrency = 2).await;
    let mut positions: Vec<Value> = (0..6).map(|_| big_tictactoe(None)).collect();
    // Answers that need no search are given whatever the clock says.
    positions.push(json!({"game": "pig", "my_score": 0, "opponent_score": 0, "turn_total": 0}));
    let started = Instant::now();
    let results = batch(&app, &json!({"positions": positions, "max_ms": 300})).await;
    let elapsed = started.elapsed();
    // A hang check, not a speed test: each search alone would take its
    // default second, six of them on two workers three seconds.
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
    assert_eq!(results.len(), 7);
    let mut searched = 0;
    let mut ran_out = 0;
    for result in &results[..6] {
        if let Some(problem) = result.get("error") {
            assert_eq!(problem["status"], 503, "{problem}");
            assert!(
                problem["detail"].as_str().unwrap().contains("budget of 300 ms"),
                "{problem}"
            );
            ran_out += 1;
        } else {
            assert_eq!(result["solved"], false, "{result}");
            searched += 1;
        }
    }
    assert!(searched >= 1, "{results:?}");
    assert!(ran_out >= 1, "{results:?}");
    assert_eq!(results[6]["action"], "roll");
}

#[tokio::test]
async fn each_positions_own_max_ms_is_honoured_within_the_batch() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_concurrency = 2).await;
    let positions: Vec<Value> = (0..4).map(|_| big_tictactoe(Some(100))).collect();
    let started = Instant::now();
    let results = batch(&app, &json!({"positions": positions, "max_ms": 10_000})).await;
    let elapsed = started.elapsed();
    // Four searches of 100 ms on two workers: about 200 ms, far from the
    // batch's ten seconds (loose: a hang check).
    assert!(elapsed < Duration::from_millis(3000), "took {elapsed:?}");
    for result in &results {
        assert_eq!(result["solved"], false, "{result}");
        assert!(result["nodes"].as_u64().unwrap() > 0, "{result}");
    }
}
