//! The tic-tac-toe, Ishitori and Nine Square endpoints through the router.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::game::number_square::brute as number_square_brute;
use crate::helpers::{spawn_app, spawn_app_on, TestApp, TestDb};

#[tokio::test]
async fn tictactoe_the_empty_board_is_a_draw_with_every_move_explained() {
    let app = spawn_app().await;
    let r = app
        .post_json("/tictactoe/move", &json!({"board": ["...", "...", "..."]}))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let body = r.json();
    assert_eq!(body["player"], "X");
    assert_eq!(body["outcome"], "draw");
    assert_eq!(body["plies_to_end"], 9);
    assert_eq!(body["solved"], true);
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|m| m["outcome"] == "draw"));
    let index = body["move"]["index"].as_u64().unwrap();
    assert_eq!(
        body["move"]["row"].as_u64().unwrap() * 3 + body["move"]["col"].as_u64().unwrap(),
        index
    );
    assert_eq!(body["principal_variation"].as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn tictactoe_takes_a_win_and_knows_whose_turn_it_is() {
    let app = spawn_app().await;
    let body = app
        .post_json("/tictactoe/move", &json!({"board": ["XX.", "OO.", "..."]}))
        .await
        .json();
    assert_eq!(body["player"], "X");
    assert_eq!(body["move"], json!({"row": 0, "col": 2, "index": 2}));
    assert_eq!(body["outcome"], "win");
    assert_eq!(body["plies_to_end"], 1);
}

/// A 15 x 15 board where X, to move, has an open four.
fn open_four_on_fifteen() -> Vec<String> {
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = format!("{}XXXX{}", ".".repeat(5), ".".repeat(6));
    rows[8] = format!("{}OOO{}", ".".repeat(5), ".".repeat(7));
    rows[9] = format!("{}O{}", ".".repeat(5), ".".repeat(9));
    rows
}

#[tokio::test]
async fn tictactoe_big_boards_answer_within_the_budget_unsolved() {
    let app = spawn_app().await;
    let rows = open_four_on_fifteen();
    let body = app
        .post_json("/tictactoe/move", &json!({"board": rows, "max_ms": 200}))
        .await
        .json();
    // O has four to block; X to move wins at either end of its four.
    assert_eq!(body["player"], "X");
    let col = body["move"]["col"].as_u64().unwrap();
    assert_eq!(body["move"]["row"], 7);
    assert!(col == 4 || col == 9, "{body}");
    assert_eq!(body["outcome"], "win");
}

#[tokio::test]
async fn tictactoe_impossible_and_finished_boards_are_422() {
    let app = spawn_app().await;
    for (board, needle) in [
        (json!(["XXX", "OO.", "..."]), "over"),
        (json!(["XX.", "...", "..."]), "X"),
        (json!(["X.", "..."]), "row"),
        (json!(["XQ.", "...", "..."]), "Q"),
    ] {
        let detail = app
            .post_json("/tictactoe/move", &json!({"board": board}))
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(needle), "{board}: {detail}");
    }
    app.post_json("/tictactoe/move", &json!({"board": ["...", "...", "..."], "k": -1}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    app.post_json("/tictactoe/move", &json!({"board": "..."}))
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
}

/// Positions with one X and one O (X to move): 72 distinct, each solved
/// in well under a millisecond.
fn two_stone_boards() -> Vec<Value> {
    let mut boards = Vec::new();
    for x in 0..9 {
        for o in (0..9).filter(|&o| o != x) {
            let mut cells = ['.'; 9];
            cells[x] = 'X';
            cells[o] = 'O';
            let rows: Vec<String> = cells.chunks(3).map(|r| r.iter().collect()).collect();
            boards.push(json!({ "board": rows }));
        }
    }
    boards
}

/// An answer without the statistics of the search that produced it (a
/// warmer memo visits fewer nodes).
fn without_search_stats(mut body: Value) -> Value {
    let fields = body.as_object_mut().unwrap();
    fields.remove("nodes");
    fields.remove("depth");
    body
}

async fn tictactoe_body(app: &TestApp, request: &Value) -> Vec<u8> {
    let r = app.post_json("/tictactoe/move", request).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.content_type(), "application/json");
    r.body
}

#[tokio::test]
async fn tictactoe_a_cached_answer_is_the_answer_a_fresh_server_gives() {
    let cached = spawn_app().await;
    let fresh = spawn_app().await;
    let uncached = spawn_app_on(TestDb::Sqlite, |c| c.answer_cache = 0).await;
    let boards = two_stone_boards();
    for request in boards.iter().take(12) {
        let first = tictactoe_body(&cached, request).await;
        let again = tictactoe_body(&cached, request).await;
        // The same searches in the same order on a fresh server: the same
        // bytes, search statistics included.
        assert_eq!(again, first, "{request}");
        assert_eq!(tictactoe_body(&fresh, request).await, first, "{request}");
        // Without the cache a repeated request searches again from a warm
        // memo: only the search's own statistics may differ.
        tictactoe_body(&uncached, request).await;
        let searched: Value = serde_json::from_slice(&tictactoe_body(&uncached, request).await).unwrap();
        let kept: Value = serde_json::from_slice(&again).unwrap();
        assert_eq!(without_search_stats(kept), without_search_stats(searched), "{request}");
    }
    let stats = cached
        .state
        .solvers
        .of::<kibitz::games::tictactoe::api::AnswerCache>()
        .stats();
    assert_eq!((stats.entries, stats.hits), (12, 12));
    assert_eq!(
        uncached
            .state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats()
            .entries,
        0
    );
}

#[tokio::test]
async fn tictactoe_answers_are_cached_by_board_and_k_as_sent() {
    let app = spawn_app().await;
    let board = json!(["X..", ".O.", "..."]);
    let default_k = app
        .post_json("/tictactoe/move", &json!({ "board": board }))
        .await
        .json();
    let three = app
        .post_json("/tictactoe/move", &json!({"board": board, "k": 3}))
        .await
        .json();
    assert_eq!(
        without_search_stats(three),
        without_search_stats(default_k.clone()),
        "k = 3 is the default"
    );
    let two = app
        .post_json("/tictactoe/move", &json!({"board": board, "k": 2}))
        .await
        .json();
    assert_eq!(
        (default_k["outcome"].clone(), two["outcome"].clone()),
        (json!("draw"), json!("win"))
    );
    assert_eq!((two["k"].clone(), two["plies_to_end"].clone()), (json!(2), json!(1)));
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats()
            .entries,
        3
    );
    // A request that fails validation is never answered from the cache.
    app.post_json("/tictactoe/move", &json!({"board": board, "k": 9}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn tictactoe_answers_not_proved_in_full_are_not_cached() {
    let app = spawn_app().await;
    // No time to search: an estimate, not kept...
    let board = json!(["...", "...", "..."]);
    let hurried = app
        .post_json("/tictactoe/move", &json!({"board": board, "max_ms": 0}))
        .await
        .json();
    assert_eq!(hurried["solved"], false, "{hurried}");
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats()
            .entries,
        0
    );
    // ...so the next request searches and proves the draw.
    let body = app
        .post_json("/tictactoe/move", &json!({ "board": board }))
        .await
        .json();
    assert_eq!(
        (body["solved"].clone(), body["outcome"].clone()),
        (json!(true), json!("draw"))
    );
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats()
            .entries,
        1
    );
    // A big board's proved win leaves the other moves unproved: not kept.
    let rows = open_four_on_fifteen();
    let body = app
        .post_json("/tictactoe/move", &json!({"board": rows, "max_ms": 200}))
        .await
        .json();
    assert_eq!(body["outcome"], "win");
    assert_eq!(
        app.state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats()
            .entries,
        1
    );
}

#[tokio::test]
async fn tictactoe_the_answer_cache_stays_within_its_bound() {
    let bound = 6;
    let app = spawn_app_on(TestDb::Sqlite, |c| c.answer_cache = bound).await;
    let reference = spawn_app_on(TestDb::Sqlite, |c| c.answer_cache = 0).await;
    let boards = two_stone_boards();
    // Twice over, so that evicted answers are searched again.
    for request in boards.iter().chain(boards.iter()) {
        let body: Value = serde_json::from_slice(&tictactoe_body(&app, request).await).unwrap();
        let stats = app
            .state
            .solvers
            .of::<kibitz::games::tictactoe::api::AnswerCache>()
            .stats();
        assert!(stats.entries <= bound, "{} entries", stats.entries);
        assert_eq!(stats.capacity, bound);
        let expected: Value = serde_json::from_slice(&tictactoe_body(&reference, request).await).unwrap();
        for field in ["move", "outcome", "plies_to_end", "score", "moves", "solved"] {
            assert_eq!(body[field], expected[field], "{request}: {field}");
        }
    }
}

#[tokio::test]
async fn ishitori_finds_the_seeds_rule_by_itself() {
    let app = spawn_app().await;
    let body = app.post_json("/ishitori/move", &json!({"remaining": 24})).await.json();
    assert_eq!(body["take"], 3);
    assert_eq!(body["remaining_after"], 21);
    assert_eq!(body["outcome"], "win");
    assert_eq!(body["period"], 4);
    assert_eq!(body["losing_residues"], json!([1]));
}

#[tokio::test]
async fn ishitori_answers_the_largest_heap_exactly_as_integer_or_string() {
    let app = spawn_app().await;
    let max = u64::MAX;
    let as_int = app
        .post_raw(
            "/ishitori/move",
            Some("application/json"),
            format!("{{\"remaining\": {max}}}"),
        )
        .await;
    assert_eq!(
        as_int.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&as_int.body)
    );
    let text = String::from_utf8_lossy(&as_int.body).to_string();
    // 2^64-1 = 3 (mod 4): take 2 to leave 1 (mod 4), exactly.
    assert!(text.contains(&format!("\"remaining_after\":{}", max - 2)), "{text}");
    let as_string = app
        .post_json("/ishitori/move", &json!({"remaining": max.to_string()}))
        .await;
    let without_nodes = |mut v: Value| {
        v["nodes"] = Value::Null;
        v
    };
    assert_eq!(without_nodes(as_string.json()), without_nodes(as_int.json()));
}

#[tokio::test]
async fn ishitori_refuses_what_it_cannot_answer() {
    let app = spawn_app().await;
    let too_big = app
        .post_raw(
            "/ishitori/move",
            Some("application/json"),
            "{\"remaining\": 18446744073709551616}",
        )
        .await;
    too_big.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    for body in [
        json!({"remaining": "18446744073709551616"}),
        json!({"remaining": 5, "heaps": [1, 2]}),
        json!({}),
        json!({"remaining": 0}),
        json!({"remaining": 10, "take": [0]}),
        json!({"remaining": 10, "take": [2, 2]}),
        json!({"remaining": 10, "take": [-3]}),
        json!({"remaining": -1}),
    ] {
        app.post_json("/ishitori/move", &body)
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn ishitori_plays_several_heaps_by_nim_sum() {
    let app = spawn_app().await;
    let body = app
        .post_json(
            "/ishitori/move",
            &json!({"heaps": [3, 5, 6], "misere": false, "take": [1, 2, 3, 4, 5, 6, 7]}),
        )
        .await
        .json();
    // Grundy values equal heap sizes here: 3 ^ 5 ^ 6 = 0, so the mover loses.
    assert_eq!(body["outcome"], "loss");
    assert_eq!(body["explanation"]["kind"], "nim");
    assert_eq!(body["explanation"]["nim_sum"], 0);
}

fn empty_grid() -> Vec<String> {
    vec![".".repeat(9); 9]
}

fn placements(body: &Value) -> Vec<(u64, u64)> {
    body["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["row"].as_u64().unwrap(), p["col"].as_u64().unwrap()))
        .collect()
}

#[tokio::test]
async fn nine_square_places_exactly_the_dice_on_distinct_empty_cells() {
    let app = spawn_app().await;
    let mut board = empty_grid();
    board[0] = "XXXOOO...".into();
    for strategy in ["best", "greedy"] {
        let body = app
            .post_json(
                "/nine-square/move",
                &json!({"board": board, "player": "O", "dice": 5, "max_ms": 100, "strategy": strategy}),
            )
            .await
            .json();
        let cells = placements(&body);
        assert_eq!(cells.len(), 5, "{body}");
        let mut unique = cells.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 5);
        for (r, c) in cells {
            assert_eq!(
                board[r as usize].as_bytes()[c as usize],
                b'.',
                "placed on a mark at ({r},{c})"
            );
        }
        assert_eq!(body["score"], json!({"X": 1, "O": 1}));
    }
}

#[tokio::test]
async fn nine_square_rejects_bad_input_with_422() {
    let app = spawn_app().await;
    for body in [
        json!({"board": empty_grid(), "player": "Z", "dice": 3}),
        json!({"board": empty_grid(), "player": "X", "dice": 7}),
        json!({"board": vec!["X".repeat(9); 9], "player": "X", "dice": 3}),
        json!({"board": ["........."], "player": "X", "dice": 3}),
        json!({"board": empty_grid(), "player": "X", "dice": 3, "strategy": "psychic"}),
    ] {
        app.post_json("/nine-square/move", &body)
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn number_square_solves_small_boards_exactly() {
    let app = spawn_app().await;
    let board = vec![
        vec![Some(3), Some(9), Some(1)],
        vec![Some(7), Some(5), Some(8)],
        vec![Some(2), Some(6), Some(4)],
    ];
    let body = app
        .post_json(
            "/number-square/move",
            &json!({"board": board, "my_score": 2, "opponent_score": 10}),
        )
        .await
        .json();
    let expected = number_square_brute::brute_margin(&board);
    assert_eq!(body["solved"], true, "{body}");
    assert_eq!(body["value"], expected, "{body}");
    assert_eq!(body["final_margin"], expected - 8);
    let (r, c) = (
        body["move"]["row"].as_u64().unwrap() as usize,
        body["move"]["col"].as_u64().unwrap() as usize,
    );
    let mut after = board.clone();
    let taken = after[r][c].take().unwrap();
    assert_eq!(
        taken - number_square_brute::brute_margin(&after),
        expected,
        "the chosen move must achieve the value"
    );
}

#[tokio::test]
async fn number_square_offers_the_seeds_lookahead2_and_refuses_finished_boards() {
    let app = spawn_app().await;
    let board = json!([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]);
    let body = app
        .post_json(
            "/number-square/move",
            &json!({"board": board, "strategy": "lookahead2"}),
        )
        .await
        .json();
    assert_eq!(body["strategy"], "lookahead2");
    assert_eq!(body["solved"], false);
    // A full column of taken tiles joins top and bottom: the game is over.
    let over = json!([[null, 2, 3], [null, 5, 6], [null, 8, 9]]);
    let detail = app
        .post_json("/number-square/move", &json!({"board": over}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("over"), "{detail}");
    for bad in [json!([[1, 2], [3]]), json!([[1]]), json!([[1, 2], [3, 2000000]])] {
        app.post_json("/number-square/move", &json!({"board": bad}))
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    }
}
