//! POST /connect-four/move through the real router.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use super::brute::{brute_score, Grid};
use crate::helpers::spawn_app;

fn column_scores(body: &Value) -> Vec<Value> {
    body["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["score"].clone())
        .collect()
}

#[tokio::test]
async fn connect_four_answers_every_column_in_the_standard_scores() {
    let app = spawn_app().await;
    // From src/games/connect_four/tests/data/connect_four_7x6_scores.txt (Pons' solver).
    let r = app
        .post_json("/connect-four/move", &json!({"moves": "7111372676733525156246"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(column_scores(&body), vec![json!(-10); 7]);
    assert_eq!(body["player"], "X");
    assert_eq!(body["solved"], true);
    assert_eq!(body["outcome"], "loss");
    assert_eq!(body["score"], -10);
    // Every column loses alike: the centre one is chosen.
    assert_eq!(body["move"]["column"], 4);
    let plies = body["plies_to_end"].as_u64().expect("plies");
    assert_eq!(
        body["principal_variation"].as_array().map(|l| l.len() as u64),
        Some(plies)
    );
    for m in body["moves"].as_array().expect("moves") {
        assert_eq!(m["playable"], true);
        assert_eq!(m["solved"], true);
        assert_eq!(m["outcome"], "loss");
    }
}

/// The grid after `moves` as row strings, top row first.
fn rows_after(moves: &str) -> Vec<String> {
    let mut grid = vec![vec!['.'; 7]; 6];
    let mut heights = [0usize; 7];
    for (i, digit) in moves.chars().enumerate() {
        let col = digit.to_digit(10).expect("a digit") as usize - 1;
        grid[5 - heights[col]][col] = if i % 2 == 0 { 'X' } else { 'O' };
        heights[col] += 1;
    }
    grid.into_iter().map(|row| row.into_iter().collect()).collect()
}

#[tokio::test]
async fn connect_four_takes_a_board_and_marks_full_columns() {
    let app = spawn_app().await;
    // From src/games/connect_four/tests/data/connect_four_7x6_scores.txt: column 1 is full.
    let moves = "11111614433736725";
    let expected: Vec<Value> = [None, Some(-11), Some(-10), Some(-11), Some(-7), Some(-7), Some(-10)]
        .iter()
        .map(|s| s.map_or(Value::Null, |s| json!(s)))
        .collect();
    let from_board = app
        .post_json(
            "/connect-four/move",
            &json!({"board": rows_after(moves), "max_ms": 10000}),
        )
        .await;
    assert_eq!(
        from_board.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&from_board.body)
    );
    let body = from_board.json();
    assert_eq!(body["player"], "O");
    assert_eq!(column_scores(&body), expected);
    let first = &body["moves"][0];
    assert_eq!(first["playable"], false);
    assert_eq!(first["solved"], Value::Null);
    assert_eq!(body["move"]["column"], 5, "-7 twice: the column nearer the centre");
    let from_moves = app
        .post_json("/connect-four/move", &json!({"moves": moves, "max_ms": 10000}))
        .await
        .json();
    assert_eq!(column_scores(&from_moves), expected);
}

#[tokio::test]
async fn connect_four_finds_the_immediate_win() {
    let app = spawn_app().await;
    let body = app
        .post_json("/connect-four/move", &json!({"moves": "121212"}))
        .await
        .json();
    assert_eq!(body["move"]["column"], 1);
    assert_eq!(body["outcome"], "win");
    assert_eq!(body["plies_to_end"], 1);
    // A win with X's 4th stone: 42 / 2 + 1 - 4 = 18.
    assert_eq!(body["score"], 18);
}

#[tokio::test]
async fn connect_four_on_a_small_grid_with_k_three() {
    let app = spawn_app().await;
    let body = app
        .post_json(
            "/connect-four/move",
            &json!({"moves": "", "cols": 4, "rows": 4, "k": 3}),
        )
        .await
        .json();
    assert_eq!(
        (body["cols"].clone(), body["rows"].clone(), body["k"].clone()),
        (json!(4), json!(4), json!(3))
    );
    assert_eq!(body["moves"].as_array().map(Vec::len), Some(4));
    assert_eq!(body["solved"], true);
}

#[tokio::test]
async fn the_empty_7x6_board_is_exact_from_the_first_move_as_published() {
    let app = spawn_app().await;
    let r = app.post_json("/connect-four/move", &json!({"moves": ""})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    // connect4.gamesolver.org's scores of the empty board (and John
    // Tromp's result: the first player wins, with the 41st stone, in the
    // centre only).
    assert_eq!(
        column_scores(&body),
        [-2, -1, 0, 1, 0, -1, -2].map(|s| json!(s)).to_vec()
    );
    assert_eq!(body["solved"], true);
    assert_eq!(body["move"]["column"], 4);
    assert_eq!(body["outcome"], "win");
    assert_eq!(body["plies_to_end"], 41);
    assert!(body["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .all(|m| m["solved"] == true));
}

/// Two stones: the book gives every column at once, so the first cheap
/// try is solved long before its line of play reaches the end.
#[tokio::test]
async fn a_solved_answer_plays_its_line_to_the_end_of_the_game() {
    let app = spawn_app().await;
    let r = app
        .post_json("/connect-four/move", &json!({"moves": "44", "max_ms": 10000}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(body["solved"], true);
    let line = body["principal_variation"].as_array().expect("principal_variation");
    assert_eq!(Some(line.len() as u64), body["plies_to_end"].as_u64(), "{body}");
    assert_eq!(line.first(), Some(&body["move"]));
    // Played out, the line is legal and ends the game as the score says.
    let moves = line.iter().fold(String::from("44"), |mut moves, m| {
        moves.push_str(&m["column"].to_string());
        moves
    });
    let end = app.post_json("/connect-four/move", &json!({"moves": moves})).await;
    assert_eq!(end.status, StatusCode::UNPROCESSABLE_ENTITY, "{moves}");
    let detail = end.json()["detail"].as_str().unwrap_or_default().to_owned();
    let (mover, other) = if body["player"] == "X" { ("X", "O") } else { ("O", "X") };
    let ending = match body["outcome"].as_str() {
        Some("win") => format!("{mover} has 4 in a row"),
        Some("loss") => format!("{other} has 4 in a row"),
        _ => "the grid is full".to_owned(),
    };
    assert!(detail.contains(&ending), "{moves}: {detail}");

    // A batch answers as the endpoint does, the whole line included.
    let position = json!({"game": "connect-four", "moves": "44", "max_ms": 10000});
    let r = app
        .post_json("/analyze", &json!({"positions": [position], "max_ms": 10000}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let item = &r.json()["results"][0];
    assert_eq!(item["solved"], true, "{item}");
    assert_eq!(column_scores(item), column_scores(&body));
    assert_eq!(item["principal_variation"], body["principal_variation"]);
}

#[tokio::test]
async fn connect_four_out_of_budget_says_not_solved_and_still_moves() {
    let app = spawn_app().await;
    // Eleven stones, past every opening book (the deepest holds positions
    // of ten): about two million nodes of search for its columns.
    let body = app
        .post_json("/connect-four/move", &json!({"moves": "26274314756", "max_ms": 30}))
        .await
        .json();
    assert_eq!(body["solved"], false);
    assert_eq!(body["outcome"], Value::Null);
    assert!((1..=7).contains(&body["move"]["column"].as_u64().unwrap_or(0)));
}

#[tokio::test]
async fn connect_four_refuses_bad_positions_with_a_422_naming_the_problem() {
    let app = spawn_app().await;
    let cases = [
        (json!({"moves": "4444444"}), "full"),
        (json!({"moves": "1212121"}), "already won"),
        (json!({"moves": "12121213"}), "already won"),
        (json!({"moves": "408"}), "moves[1]"),
        (json!({"moves": "18", "cols": 7}), "1 to 7"),
        (json!({"moves": "", "cols": 10}), "cols"),
        (json!({"moves": "", "k": 8}), "k"),
        (
            json!({"board": ["X......", ".......", ".......", ".......", ".......", "......."]}),
            "above an empty cell",
        ),
        (
            json!({"board": ["..........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", "..........", ".........."]}),
            "expected 4 to 9",
        ),
        (
            json!({"board": [".......", ".......", ".......", ".......", ".......", "XX....."]}),
            "X count",
        ),
        (
            json!({"board": [".......", ".......", "X......", "XO.....", "XO.....", "XO....."]}),
            "X has 4 in a row",
        ),
        (
            json!({"board": [".......", ".......", ".......", ".......", ".......", "XOXOXOX"], "cols": 8}),
            "cols is 8",
        ),
        (json!({"moves": "1", "board": []}), "either moves or board"),
        (json!({}), "moves"),
    ];
    for (request, expected) in cases {
        let r = app.post_json("/connect-four/move", &request).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(expected), "{request}: {detail}");
    }
}

#[tokio::test]
async fn solved_at_the_top_means_every_column_is_exact_even_beside_a_win_at_once() {
    // 5x4 positions (k = 4) where the mover can win at once and some other
    // column scores otherwise, every column scored by the brute force of
    // brute.rs. A win at once proves the best move but not the other
    // columns: an answer that says solved must have proved them too, and
    // every column it marks solved must be right.
    let app = spawn_app().await;
    let (cols, rows) = (5usize, 4usize);
    let mut memo = HashMap::new();
    let mut seed: u64 = 7;
    let mut checked = 0;
    while checked < 8 {
        let mut grid = Grid::new(cols, rows, 4);
        let mut moves = String::new();
        let mut over = false;
        let target = 6 + (checked % 5);
        while moves.len() < target && !over {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let col = ((seed >> 33) % cols as u64) as usize;
            if grid.height(col) == rows {
                continue;
            }
            over = grid.drop(col) || grid.full();
            moves.push(char::from(b'1' + col as u8));
        }
        if over {
            continue;
        }
        let cells = (cols * rows) as i32;
        let wins_at_once = (cells + 1 - grid.stones as i32) / 2;
        let expected: Vec<Option<i32>> = (0..cols)
            .map(|col| {
                (grid.height(col) < rows).then(|| {
                    let mut child = grid.clone();
                    if child.drop(col) {
                        wins_at_once
                    } else if child.full() {
                        0
                    } else {
                        -brute_score(&child, &mut memo)
                    }
                })
            })
            .collect();
        if !expected.contains(&Some(wins_at_once)) || expected.iter().flatten().all(|&s| s == wins_at_once) {
            continue;
        }
        for max_ms in [1, 1000] {
            let request = json!({"moves": moves, "cols": cols, "rows": rows, "max_ms": max_ms});
            let body = app.post_json("/connect-four/move", &request).await.json();
            assert_eq!(body["score"], wins_at_once, "{moves}: the win at once is chosen");
            assert_eq!(body["outcome"], "win", "{moves}: a win at once is a proved outcome");
            assert_eq!(body["plies_to_end"], 1);
            for (m, want) in body["moves"].as_array().expect("moves").iter().zip(&expected) {
                if m["solved"] == true {
                    assert_eq!(
                        m["score"].as_i64(),
                        want.map(i64::from),
                        "{moves} column {}",
                        m["column"]
                    );
                }
                if body["solved"] == true && m["playable"] == true {
                    assert_eq!(
                        m["solved"], true,
                        "{moves} at {max_ms} ms: solved at the top, column {} not",
                        m["column"]
                    );
                }
            }
            if max_ms == 1000 {
                // A 5x4 grid is solved well within a second: every column.
                assert_eq!(body["solved"], true, "{moves}: {body}");
            }
        }
        checked += 1;
    }
}

/// Every column's score by the test's own minimax, in the standard
/// solvers' form (a full column: -1000).
fn reference_scores(grid: &Grid, memo: &mut HashMap<Grid, i32>) -> Vec<i32> {
    let wins_at_once = ((grid.cols * grid.rows) as i32 + 1 - grid.stones as i32) / 2;
    (0..grid.cols)
        .map(|col| {
            if grid.height(col) == grid.rows {
                return -1000;
            }
            let mut child = grid.clone();
            if child.drop(col) {
                wins_at_once
            } else if child.full() {
                0
            } else {
                -brute_score(&child, memo)
            }
        })
        .collect()
}

#[test]
fn the_scores_command_prints_every_columns_exact_score() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let (cols, rows) = (5, 4);
    let lines = ["1", "3", "33", "4453", "11112222"];
    let mut child = Command::new(crate::process::binary())
        .args(["connect-four-scores", "--cols", "5", "--rows", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start kibitz");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{}", lines.join("\n")).unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).unwrap();
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(printed.len(), lines.len(), "{printed:?}");

    let mut memo = HashMap::new();
    for (line, out) in lines.iter().zip(printed) {
        let mut grid = Grid::new(cols, rows, 4);
        for c in line.bytes() {
            assert!(!grid.drop(usize::from(c - b'1')), "{line} is not over");
        }
        let expected: Vec<String> = reference_scores(&grid, &mut memo).iter().map(i32::to_string).collect();
        assert_eq!(out, format!("{line} {}", expected.join(" ")), "{line}");
    }
}

/// connect4.gamesolver.org's `GET /solve?pos=`: its shape, the published
/// start, and every column of late positions against the test's own
/// minimax (a full column: 100, as gamesolver.org writes it).
#[tokio::test]
async fn the_gamesolver_drop_in_answers_every_column_exactly() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    let app = spawn_app().await;
    let start = app.get("/solve?pos=").await;
    assert_eq!(start.status, StatusCode::OK);
    assert_eq!(start.json(), json!({"pos": "", "score": [-2, -1, 0, 1, 0, -1, -2]}));
    assert_eq!(
        app.get("/solve").await.json()["score"],
        json!([-2, -1, 0, 1, 0, -1, -2])
    );

    let mut rng = StdRng::seed_from_u64(4453);
    let mut memo = HashMap::new();
    let mut checked = 0;
    while checked < 4 {
        // A random game of 30 stones that nobody has won yet.
        let mut grid = Grid::new(7, 6, 4);
        let mut pos = String::new();
        let mut over = false;
        while pos.len() < 30 && !over {
            let col = rng.gen_range(0..7);
            if grid.height(col) < 6 {
                over = grid.drop(col);
                pos.push(char::from(b'1' + col as u8));
            }
        }
        if over {
            continue;
        }
        let r = app.get(&format!("/solve?pos={pos}")).await;
        assert_eq!(r.status, StatusCode::OK, "{pos}: {}", String::from_utf8_lossy(&r.body));
        let expected: Vec<i32> = reference_scores(&grid, &mut memo)
            .into_iter()
            .map(|s| if s == -1000 { 100 } else { s })
            .collect();
        assert_eq!(r.json(), json!({"pos": pos, "score": expected}), "{pos}");
        checked += 1;
    }
    for bad in ["8", "0", "4444444", "1a"] {
        app.get(&format!("/solve?pos={bad}"))
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    }
}
