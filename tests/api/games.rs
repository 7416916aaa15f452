//! The tic-tac-toe, Ishitori and Nine Square endpoints through the router.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::spawn_app;

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

#[tokio::test]
async fn tictactoe_big_boards_answer_within_the_budget_unsolved() {
    let app = spawn_app().await;
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = format!("{}XXXX{}", ".".repeat(5), ".".repeat(6));
    rows[8] = format!("{}OOO{}", ".".repeat(5), ".".repeat(7));
    rows[9] = format!("{}O{}", ".".repeat(5), ".".repeat(9));
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
