//! Reviews: every value checked against a brute force written here (plain
//! minimax for tic-tac-toe, Connect Four and Ishitori) or against the Pig
//! table, the judgments' promises (a thrown win is a blunder, a slower win
//! is not, only best moves make 100), match reviews against the stateless
//! ones, and the errors.

use std::collections::{BTreeSet, HashMap};

use axum::http::{Method, StatusCode};
use kibitz::games::pig::{PigRules, Variant};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_on, spawn_ready_app, TestApp, TestDb};
use crate::matches::authorized;

// ---------------------------------------------------------------------------
// Brute force: (result for the mover, plies to the end) of every move, where
// the winner wins as fast as possible and the loser loses as slowly.

/// 1 win, 0 draw, -1 loss for the mover; plies counting the move.
type Verdict = (i32, u32);

/// Higher is better for the mover.
fn rank(v: Verdict) -> (i32, i64) {
    let plies = i64::from(v.1);
    (v.0, if v.0 > 0 { -plies } else { plies })
}

fn best_of(values: &[Verdict]) -> Verdict {
    *values.iter().max_by_key(|v| rank(**v)).expect("some move")
}

fn outcome_name(result: i32) -> &'static str {
    match result {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Checks one entry's values and best moves against the brute force's
/// verdicts of every legal move (`moves`: the move JSON and its verdict).
fn check_entry(entry: &Value, moves: &[(Value, Verdict)], played: &Value) {
    let verdicts: Vec<Verdict> = moves.iter().map(|m| m.1).collect();
    let best = best_of(&verdicts);
    let mine = moves.iter().find(|m| &m.0 == played).expect("played move is legal").1;
    assert_eq!(entry["move"], *played, "{entry}");
    assert_eq!(entry["value_before"]["outcome"], outcome_name(best.0), "{entry}");
    assert_eq!(entry["value_before"]["plies_to_end"], best.1, "{entry}");
    assert_eq!(entry["value_played"]["outcome"], outcome_name(mine.0), "{entry}");
    assert_eq!(entry["value_played"]["plies_to_end"], mine.1, "{entry}");
    let expected: BTreeSet<String> = moves
        .iter()
        .filter(|m| rank(m.1) == rank(best))
        .map(|m| m.0.to_string())
        .collect();
    let got: BTreeSet<String> = entry["best_moves"]
        .as_array()
        .expect("best_moves")
        .iter()
        .map(Value::to_string)
        .collect();
    assert_eq!(got, expected, "{entry}");
    assert_eq!(entry["exact"], true, "{entry}");
    let points = |r: i32| f64::from(r + 1) / 2.0;
    let loss = entry["loss"].as_f64().expect("loss");
    assert!((loss - (points(best.0) - points(mine.0))).abs() < 1e-12, "{entry}");
    let judgment = entry["judgment"].as_str().unwrap();
    if rank(mine) == rank(best) {
        assert_eq!(judgment, "best", "{entry}");
    } else if mine.0 == best.0 {
        assert_eq!(judgment, "good", "{entry}");
    } else {
        assert_eq!(judgment, "blunder", "{entry}");
    }
}

// Tic-tac-toe 3x3, plain minimax (no memo, no pruning).

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn wins(cells: &[u8; 9], p: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| cells[i] == p))
}

/// The verdict of `mover` playing `cell`.
fn ttt_move(cells: &mut [u8; 9], mover: u8, cell: usize) -> Verdict {
    cells[cell] = mover;
    let v = if wins(cells, mover) {
        (1, 1)
    } else if cells.iter().all(|&c| c != 0) {
        (0, 1)
    } else {
        let empty: Vec<usize> = (0..9).filter(|&c| cells[c] == 0).collect();
        let replies: Vec<Verdict> = empty.into_iter().map(|c| ttt_move(cells, 3 - mover, c)).collect();
        let (r, p) = best_of(&replies);
        (-r, p + 1)
    };
    cells[cell] = 0;
    v
}

fn ttt_moves(cells: &[u8; 9], mover: u8) -> Vec<(Value, Verdict)> {
    let mut scratch = *cells;
    (0..9)
        .filter(|&c| cells[c] == 0)
        .map(|c| (json!({"row": c / 3, "col": c % 3}), ttt_move(&mut scratch, mover, c)))
        .collect()
}

fn cell_of(mv: &Value) -> usize {
    (mv["row"].as_u64().unwrap() * 3 + mv["col"].as_u64().unwrap()) as usize
}

/// Builds a game move by move: `choose` picks a move from the brute force's
/// list at each ply (None: the game is over).
fn ttt_game(mut choose: impl FnMut(usize, &[(Value, Verdict)]) -> Value) -> Vec<Value> {
    let mut cells = [0u8; 9];
    let mut mover = 1;
    let mut record = Vec::new();
    loop {
        let moves = ttt_moves(&cells, mover);
        let mv = choose(record.len(), &moves);
        cells[cell_of(&mv)] = mover;
        record.push(mv);
        if wins(&cells, mover) || cells.iter().all(|&c| c != 0) {
            return record;
        }
        mover = 3 - mover;
    }
}

fn first_best(moves: &[(Value, Verdict)]) -> Value {
    let best = best_of(&moves.iter().map(|m| m.1).collect::<Vec<_>>());
    moves.iter().find(|m| rank(m.1) == rank(best)).unwrap().0.clone()
}

/// Checks every entry of a tic-tac-toe review against the brute force.
fn check_ttt_review(review: &Value, record: &[Value]) {
    let entries = review["moves"].as_array().expect("moves");
    assert_eq!(entries.len(), record.len(), "{review}");
    let mut cells = [0u8; 9];
    let mut mover = 1;
    for (i, (entry, mv)) in entries.iter().zip(record).enumerate() {
        assert_eq!(entry["ply"], i + 1);
        assert_eq!(entry["actor"], if mover == 1 { "X" } else { "O" });
        check_entry(entry, &ttt_moves(&cells, mover), mv);
        cells[cell_of(mv)] = mover;
        mover = 3 - mover;
    }
}

async fn post_review(app: &TestApp, game: &str, body: Value) -> Value {
    let r = app.post_json(&format!("/{game}/review"), &body).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

#[tokio::test]
async fn tictactoe_review_matches_a_brute_force_and_calls_a_thrown_win_a_blunder() {
    let app = spawn_app().await;
    // O answers the centre on an edge (a draw thrown away: a loss), then X,
    // winning, plays a move that only draws (a win thrown away); best after.
    let mut x_blundered = None;
    let record = ttt_game(|ply, moves| match ply {
        0 => json!({"row": 1, "col": 1}),
        1 => json!({"row": 0, "col": 1}),
        2 => {
            let drawing = moves.iter().find(|m| m.1 .0 == 0).expect("a drawing move");
            x_blundered = Some(drawing.0.clone());
            drawing.0.clone()
        }
        _ => first_best(moves),
    });
    let review = post_review(&app, "tictactoe", json!({"moves": record})).await;
    check_ttt_review(&review, &record);
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries[1]["judgment"], "blunder", "draw -> loss: {}", entries[1]);
    assert_eq!(entries[2]["judgment"], "blunder", "win -> draw: {}", entries[2]);
    assert_eq!(entries[2]["move"], x_blundered.unwrap());
    assert_eq!(entries[2]["value_before"]["outcome"], "win");
    assert_eq!(entries[2]["value_played"]["outcome"], "draw");
    assert_eq!(entries[2]["loss"], 0.5);
    assert_eq!(review["players"]["X"]["blunders"], 1);
    assert_eq!(review["players"]["O"]["blunders"], 1);
    assert!(review["players"]["X"]["accuracy"].as_f64().unwrap() < 100.0);
    assert_eq!(review["exact"], true);
}

/// Cells played from `cells` to the first position where the mover has a
/// win in one and another winning move.
fn find_slow_win(cells: &mut [u8; 9], mover: u8, path: &mut Vec<usize>) -> Option<Vec<usize>> {
    let moves = ttt_moves(cells, mover);
    if moves.iter().any(|m| m.1 == (1, 1)) && moves.iter().any(|m| m.1 .0 == 1 && m.1 .1 > 1) {
        return Some(path.clone());
    }
    for cell in 0..9 {
        if cells[cell] != 0 {
            continue;
        }
        cells[cell] = mover;
        let over = wins(cells, mover) || cells.iter().all(|&c| c != 0);
        path.push(cell);
        let found = if over {
            None
        } else {
            find_slow_win(cells, 3 - mover, path)
        };
        path.pop();
        cells[cell] = 0;
        if found.is_some() {
            return found;
        }
    }
    None
}

#[tokio::test]
async fn a_slower_win_is_good_not_a_blunder() {
    let app = spawn_app().await;
    // The first position (depth first, lowest cell first) where the mover
    // can win at once and also has a slower win; the mover takes the
    // slower one, then both play best.
    let path = find_slow_win(&mut [0u8; 9], 1, &mut Vec::new()).expect("such a position exists");
    let slow_at = path.len();
    let record = ttt_game(|ply, moves| {
        if ply < slow_at {
            return json!({"row": path[ply] / 3, "col": path[ply] % 3});
        }
        if ply == slow_at {
            return moves.iter().find(|m| m.1 .0 == 1 && m.1 .1 > 1).unwrap().0.clone();
        }
        first_best(moves)
    });
    let review = post_review(
        &app,
        "tictactoe",
        json!({"options": {"rows": 3, "cols": 3}, "moves": record}),
    )
    .await;
    check_ttt_review(&review, &record);
    let entry = &review["moves"][slow_at];
    assert_eq!(entry["value_before"]["outcome"], "win", "{entry}");
    assert_eq!(entry["value_before"]["plies_to_end"], 1, "{entry}");
    assert_eq!(entry["value_played"]["outcome"], "win", "{entry}");
    assert!(entry["value_played"]["plies_to_end"].as_u64().unwrap() > 1, "{entry}");
    assert_eq!(entry["judgment"], "good", "{entry}");
    assert_eq!(entry["loss"], 0.0);
}

#[tokio::test]
async fn a_side_that_plays_only_best_moves_has_accuracy_100() {
    let app = spawn_app().await;
    let record = ttt_game(|_, moves| first_best(moves));
    let review = post_review(&app, "tictactoe", json!({"moves": record})).await;
    check_ttt_review(&review, &record);
    for side in ["X", "O"] {
        let p = &review["players"][side];
        assert_eq!(p["accuracy"], 100.0, "{side}: {p}");
        assert_eq!(p["inaccuracies"], 0);
        assert_eq!(p["mistakes"], 0);
        assert_eq!(p["blunders"], 0);
    }
    assert!(review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["judgment"] == "best"));
    // A perfect game is a draw: the line stays at 0.
    assert!(review["moves"].as_array().unwrap().iter().all(|e| e["value"] == 0.0));
}

#[tokio::test]
async fn an_illegal_move_at_move_7_is_named() {
    let app = spawn_app().await;
    let moves = json!([
        {"row": 0, "col": 0}, {"row": 1, "col": 1}, {"row": 0, "col": 1},
        {"row": 0, "col": 2}, {"row": 2, "col": 0}, {"row": 1, "col": 0},
        {"row": 1, "col": 1}
    ]);
    let r = app.post_json("/tictactoe/review", &json!({"moves": moves})).await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.starts_with("moves[6] (move 7): "), "{detail}");
    assert!(detail.contains("already taken"), "{detail}");

    let off = json!({"moves": [{"row": 3, "col": 0}]});
    let detail = app
        .post_json("/tictactoe/review", &off)
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        detail.contains("moves[0] (move 1)") && detail.contains("off the board"),
        "{detail}"
    );
    // A move after the end of the game.
    let after_win = json!({"moves": [
        {"row": 0, "col": 0}, {"row": 1, "col": 0}, {"row": 0, "col": 1},
        {"row": 1, "col": 1}, {"row": 0, "col": 2}, {"row": 2, "col": 2}
    ]});
    let detail = app
        .post_json("/tictactoe/review", &after_win)
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        detail.contains("moves[5] (move 6)") && detail.contains("over"),
        "{detail}"
    );
    // Options and shapes.
    let detail = app
        .post_json("/tictactoe/review", &json!({"options": {"rows": 0}, "moves": []}))
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("rows"), "{detail}");
    app.post_json("/tictactoe/review", &json!({"moves": [{"row": "a", "col": 0}]}))
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
    app.post_json("/tictactoe/review", &json!({}))
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
    // A field the game does not know, in a well-formed record: named, as a
    // match names it.
    let detail = app
        .post_json(
            "/tictactoe/review",
            &json!({"options": {"rows": 3, "size": 3}, "moves": []}),
        )
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("options.size is not a known field"), "{detail}");
    let detail = app
        .post_json(
            "/tictactoe/review",
            &json!({"moves": [{"row": 1, "col": 1, "player": "X"}]}),
        )
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("moves[0].player is not a known field"), "{detail}");
}

// Connect Four on a small grid, minimax with a memo of positions.

struct C4 {
    cols: usize,
    rows: usize,
    k: usize,
    memo: HashMap<Vec<u8>, Verdict>,
}

impl C4 {
    fn wins(&self, grid: &[u8], p: u8) -> bool {
        let at = |c: isize, r: isize| -> bool {
            c >= 0
                && r >= 0
                && (c as usize) < self.cols
                && (r as usize) < self.rows
                && grid[c as usize * self.rows + r as usize] == p
        };
        for c in 0..self.cols as isize {
            for r in 0..self.rows as isize {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..self.k as isize).all(|i| at(c + i * dc, r + i * dr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn drop_row(&self, grid: &[u8], col: usize) -> Option<usize> {
        (0..self.rows).find(|&r| grid[col * self.rows + r] == 0)
    }

    /// The verdict of `mover` playing `col` (which has room).
    fn play(&mut self, grid: &mut Vec<u8>, mover: u8, col: usize) -> Verdict {
        let row = self.drop_row(grid, col).unwrap();
        grid[col * self.rows + row] = mover;
        let v = if self.wins(grid, mover) {
            (1, 1)
        } else if grid.iter().all(|&c| c != 0) {
            (0, 1)
        } else {
            let (r, p) = self.value(grid, 3 - mover);
            (-r, p + 1)
        };
        grid[col * self.rows + row] = 0;
        v
    }

    fn value(&mut self, grid: &mut Vec<u8>, mover: u8) -> Verdict {
        if let Some(&v) = self.memo.get(grid.as_slice()) {
            return v;
        }
        let open: Vec<usize> = (0..self.cols).filter(|&c| self.drop_row(grid, c).is_some()).collect();
        let replies: Vec<Verdict> = open.into_iter().map(|c| self.play(grid, mover, c)).collect();
        let v = best_of(&replies);
        self.memo.insert(grid.clone(), v);
        v
    }

    fn moves(&mut self, grid: &[u8], mover: u8) -> Vec<(Value, Verdict)> {
        let mut scratch = grid.to_vec();
        let open: Vec<usize> = (0..self.cols).filter(|&c| self.drop_row(grid, c).is_some()).collect();
        open.into_iter()
            .map(|c| (json!({"column": c + 1}), self.play(&mut scratch, mover, c)))
            .collect()
    }
}

#[tokio::test]
async fn connect_four_review_on_a_small_grid_matches_a_brute_force() {
    let app = spawn_app().await;
    let mut c4 = C4 {
        cols: 5,
        rows: 4,
        k: 4,
        memo: HashMap::new(),
    };
    // A game with some weak moves: each side takes the best move except
    // every third ply, where it takes the leftmost open column.
    let mut grid = vec![0u8; c4.cols * c4.rows];
    let mut mover = 1u8;
    let mut record = Vec::new();
    let mut lists = Vec::new();
    loop {
        let moves = c4.moves(&grid, mover);
        let mv = if record.len() % 3 == 2 {
            moves[0].0.clone()
        } else {
            first_best(&moves)
        };
        let col = mv["column"].as_u64().unwrap() as usize - 1;
        let row = c4.drop_row(&grid, col).unwrap();
        grid[col * c4.rows + row] = mover;
        lists.push(moves);
        record.push(mv);
        if c4.wins(&grid, mover) || grid.iter().all(|&c| c != 0) {
            break;
        }
        mover = 3 - mover;
    }
    let review = post_review(
        &app,
        "connect-four",
        json!({"options": {"cols": 5, "rows": 4}, "moves": record, "max_ms": 10000}),
    )
    .await;
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), record.len());
    for ((entry, mv), moves) in entries.iter().zip(&record).zip(&lists) {
        check_entry(entry, moves, mv);
    }
    assert_eq!(review["exact"], true);
    // An illegal move is named: a column the grid does not have, then a
    // full one.
    let bad: Vec<Value> = [1, 1, 1, 1, 2, 2, 6].iter().map(|c| json!({"column": c})).collect();
    let r = app
        .post_json(
            "/connect-four/review",
            &json!({"options": {"cols": 5, "rows": 4}, "moves": bad}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.starts_with("moves[6] (move 7): "), "{detail}");
    let full: Vec<Value> = [1, 1, 1, 1, 1].iter().map(|c| json!({"column": c})).collect();
    let r = app
        .post_json(
            "/connect-four/review",
            &json!({"options": {"cols": 5, "rows": 4}, "moves": full}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        detail.starts_with("moves[4] (move 5): ") && detail.contains("full"),
        "{detail}"
    );
}

// Ishitori: minimax over heap vectors with a memo.

struct Subtraction {
    take: Vec<u64>,
    misere: bool,
    memo: HashMap<Vec<u64>, Verdict>,
}

impl Subtraction {
    fn value(&mut self, heaps: &[u64]) -> Verdict {
        if let Some(&v) = self.memo.get(heaps) {
            return v;
        }
        let moves = self.moves(heaps);
        let v = if moves.is_empty() {
            // The game is over: under misère play the last taker lost.
            (if self.misere { 1 } else { -1 }, 0)
        } else {
            best_of(&moves.iter().map(|m| m.1).collect::<Vec<_>>())
        };
        self.memo.insert(heaps.to_vec(), v);
        v
    }

    fn moves(&mut self, heaps: &[u64]) -> Vec<(Value, Verdict)> {
        let mut out = Vec::new();
        for t in self.take.clone() {
            for h in 0..heaps.len() {
                if heaps[h] >= t {
                    let mut child = heaps.to_vec();
                    child[h] -= t;
                    let (r, p) = self.value(&child);
                    out.push((json!({"take": t, "heap": h}), (-r, p + 1)));
                }
            }
        }
        out
    }
}

#[tokio::test]
async fn ishitori_review_matches_a_brute_force() {
    let app = spawn_app().await;
    for (options, heaps, take, misere) in [
        (
            json!({"heaps": [3, 5, 2], "take": [1, 2], "misere": true}),
            vec![3u64, 5, 2],
            vec![1u64, 2],
            true,
        ),
        (
            json!({"remaining": 13, "take": [1, 3, 4], "misere": false}),
            vec![13],
            vec![1, 3, 4],
            false,
        ),
        (
            json!({"heaps": [4, 6], "take": [1, 2, 3], "misere": false}),
            vec![4, 6],
            vec![1, 2, 3],
            false,
        ),
    ] {
        let mut game = Subtraction {
            take,
            misere,
            memo: HashMap::new(),
        };
        // Alternate: the largest take that fits, then the smallest.
        let mut current = heaps.clone();
        let mut record = Vec::new();
        let mut lists = Vec::new();
        loop {
            let moves = game.moves(&current);
            if moves.is_empty() {
                break;
            }
            let mv = if record.len() % 2 == 0 {
                moves.last().unwrap().0.clone()
            } else {
                moves[0].0.clone()
            };
            current[mv["heap"].as_u64().unwrap() as usize] -= mv["take"].as_u64().unwrap();
            lists.push(moves);
            record.push(mv);
        }
        let review = post_review(&app, "ishitori", json!({"options": options, "moves": record})).await;
        let entries = review["moves"].as_array().unwrap();
        assert_eq!(entries.len(), record.len(), "{review}");
        for (i, ((entry, mv), moves)) in entries.iter().zip(&record).zip(&lists).enumerate() {
            assert_eq!(entry["actor"], if i % 2 == 0 { "a" } else { "b" });
            check_entry(entry, moves, mv);
        }
    }
    // A take outside the set, at move 3.
    let r = app
        .post_json(
            "/ishitori/review",
            &json!({"options": {"remaining": 10}, "moves": [{"take": 1}, {"take": 2}, {"take": 5}]}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.starts_with("moves[2] (move 3): "), "{detail}");
}

#[tokio::test]
async fn ishitori_review_of_a_huge_heap_gives_exact_outcomes_without_plies() {
    let app = spawn_app().await;
    let review = post_review(
        &app,
        "ishitori",
        json!({"options": {"remaining": "18446744073709551615", "take": [1, 2, 3]}, "moves": [{"take": 1}, {"take": 3}]}),
    )
    .await;
    // 2^64 - 1 = 3 (mod 4): under misère play (default) the mover wins by
    // leaving 1 (mod 4), i.e. taking 2.
    let first = &review["moves"][0];
    assert_eq!(first["value_before"]["outcome"], "win", "{first}");
    assert!(first["value_before"]["plies_to_end"].is_null());
    assert_eq!(first["best_moves"], json!([{"take": 2, "heap": 0}]));
    assert_eq!(first["judgment"], "blunder");
    assert_eq!(first["exact"], true);
}

#[tokio::test]
async fn a_review_out_of_time_claims_nothing() {
    let app = spawn_app().await;
    let review = post_review(
        &app,
        "ishitori",
        json!({"options": {"remaining": "1000000000007", "take": [1, 2, 3]}, "moves": [{"take": 1}, {"take": 2}], "max_ms": 0}),
    )
    .await;
    assert_eq!(review["exact"], false, "{review}");
    for entry in review["moves"].as_array().unwrap() {
        assert_eq!(entry["exact"], false, "{entry}");
        assert_eq!(entry["best_moves"], json!([]), "{entry}");
        assert!(entry["value_before"]["outcome"].is_null(), "{entry}");
        assert_eq!(entry["loss"], 0.0, "{entry}");
        assert_ne!(entry["judgment"], "best", "{entry}");
    }
}

#[tokio::test]
async fn big_boards_get_estimates_marked_inexact() {
    let app = spawn_app().await;
    let ttt = post_review(
        &app,
        "tictactoe",
        json!({"options": {"rows": 15, "cols": 15}, "moves": [{"row": 7, "col": 7}, {"row": 7, "col": 8}], "max_ms": 200}),
    )
    .await;
    let c4 = post_review(
        &app,
        "connect-four",
        // 8x7: no opening book, and far from solved in 100 ms.
        json!({"options": {"cols": 8, "rows": 7}, "moves": [{"column": 4}, {"column": 4}], "max_ms": 100}),
    )
    .await;
    for review in [&ttt, &c4] {
        assert_eq!(review["exact"], false, "{review}");
        for entry in review["moves"].as_array().unwrap() {
            assert_eq!(entry["exact"], false, "{entry}");
            // An estimate never says it is a proved outcome.
            for value in [&entry["value_before"], &entry["value_played"]] {
                let proved = !value["outcome"].is_null();
                assert!(!proved || value["plies_to_end"].is_u64(), "{entry}");
            }
            let v = entry["value"].as_f64().unwrap();
            assert!((-1.0..=1.0).contains(&v));
        }
    }
}

// Pig against the table.

#[tokio::test]
async fn pig_review_values_are_the_tables_win_probabilities() {
    let app = spawn_ready_app().await;
    let rules = PigRules::new(20, 6, Variant::Standard, 200).unwrap();
    let table = kibitz::games::pig::solve::solve(&rules);
    // a and b each roll 6, 6, 5 and hold at 17; a rolls a 1 (the turn ends,
    // nothing banked); b holds at once, at 0, with both needing 3; a rolls
    // 4 and holds: 21, past the goal.
    let roll = |actor: &str, face: u32| json!({"actor": actor, "action": "roll", "roll": face});
    let hold = |actor: &str| json!({"actor": actor, "action": "hold"});
    let moves = json!([
        roll("a", 6),
        roll("a", 6),
        roll("a", 5),
        hold("a"),
        roll("b", 6),
        roll("b", 6),
        roll("b", 5),
        hold("b"),
        roll("a", 1),
        hold("b"),
        roll("a", 4),
        hold("a"),
    ]);
    let review = post_review(&app, "pig", json!({"options": {"goal": 20}, "moves": moves})).await;
    // (mover's score, opponent's, turn total, action) at each decision.
    let states = [
        (0, 0, 0, "roll"),
        (0, 0, 6, "roll"),
        (0, 0, 12, "roll"),
        (0, 0, 17, "hold"),
        (0, 17, 0, "roll"),
        (0, 17, 6, "roll"),
        (0, 17, 12, "roll"),
        (0, 17, 17, "hold"),
        (17, 17, 0, "roll"),
        (17, 17, 0, "hold"),
        (17, 17, 0, "roll"),
        (17, 17, 4, "hold"),
    ];
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), states.len());
    for (entry, &(i, j, k, action)) in entries.iter().zip(&states) {
        let (roll, hold) = table.action_values(i, j, k);
        let best = roll.max(hold);
        let played = if action == "roll" { roll } else { hold };
        let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
        assert!(close(&entry["value_before"], best), "{entry} vs {best}");
        if i + k < 20 {
            // The table's own value of the state is the better action's.
            assert!(close(&entry["value_before"], table.win_probability(i, j, k)), "{entry}");
        }
        assert!(close(&entry["value_played"], played), "{entry} vs {played}");
        assert!(close(&entry["loss"], best - played), "{entry}");
        assert_eq!(entry["move"]["action"], action);
        assert_eq!(entry["exact"], true);
    }
    // Holding at 0 when both need 3 hands the opponent the game.
    let hopeless = &entries[9];
    assert_eq!(hopeless["actor"], "b");
    assert!(hopeless["loss"].as_f64().unwrap() >= 0.15, "{hopeless}");
    assert_eq!(hopeless["judgment"], "blunder", "{hopeless}");
    assert_eq!(hopeless["best_moves"], json!([{"action": "roll"}]));
    // The winning hold is best and certain.
    assert_eq!(entries[11]["value_played"], 1.0);
    assert_eq!(entries[11]["judgment"], "best");
    assert_eq!(entries[11]["value"], 1.0);

    // Records that break the rules.
    for (bad, index, words) in [
        (json!([{"actor": "b", "action": "roll", "roll": 3}]), 0, "turn"),
        (json!([{"actor": "a", "action": "roll"}]), 0, "face"),
        (json!([{"actor": "a", "action": "roll", "roll": 7}]), 0, "face"),
        (
            json!([{"actor": "a", "action": "roll", "roll": 1}, {"actor": "a", "action": "hold"}]),
            1,
            "turn",
        ),
        (json!([{"actor": "a", "action": "hold", "roll": 2}]), 0, "hold"),
        (json!([{"actor": "c", "action": "hold"}]), 0, "actor"),
        (json!([{"actor": "a", "action": "pass"}]), 0, "action"),
    ] {
        let r = app
            .post_json("/pig/review", &json!({"options": {"goal": 20}, "moves": bad}))
            .await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            detail.starts_with(&format!("moves[{index}] (move {})", index + 1)),
            "{detail}"
        );
        assert!(detail.contains(words), "{detail}");
    }
    let r = app
        .post_json("/pig/review", &json!({"options": {"goal": 0}, "moves": []}))
        .await;
    assert!(r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY).contains("goal"));
}

// Match reviews.

/// Creates a match and plays `choose`'s moves until it is finished; returns
/// (id, token, final match object).
pub(crate) async fn play_match(
    app: &TestApp,
    request: Value,
    choose: impl Fn(&Value) -> Value,
) -> (String, String, Value) {
    let r = app.post_json("/matches", &request).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&r.body));
    let mut current = r.json();
    let id = current["id"].as_str().unwrap().to_string();
    let token = current["token"].as_str().unwrap().to_string();
    for _ in 0..500 {
        if current["status"] == "finished" {
            break;
        }
        let body = json!({"ply": current["ply"], "move": choose(&current)});
        let r = authorized(
            app,
            Method::POST,
            &format!("/matches/{id}/moves"),
            Some(&token),
            Some(&body),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        current = r.json();
    }
    assert_eq!(current["status"], "finished");
    (id, token, current)
}

fn first_empty_cell(m: &Value) -> Value {
    for (r, row) in m["state"]["board"].as_array().unwrap().iter().enumerate() {
        if let Some(c) = row.as_str().unwrap().find('.') {
            return json!({"row": r, "col": c});
        }
    }
    panic!("no empty cell: {m}");
}

#[tokio::test]
async fn a_match_review_is_the_review_of_its_moves() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    for ai_first in [false, true] {
        let request = json!({"game": "tictactoe", "ai_first": ai_first, "ai": {"level": 4}});
        let (id, token, end) = play_match(&app, request, first_empty_cell).await;
        let path = format!("/matches/{id}/review");
        let r = authorized(&app, Method::GET, &path, Some(&token), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        let review = r.json();
        let history = end["history"].as_array().unwrap();
        let record: Vec<Value> = history.iter().map(|e| e["move"].clone()).collect();
        let stateless = post_review(&app, "tictactoe", json!({"moves": record})).await;
        check_ttt_review(&stateless, &record);
        let (x, o) = if ai_first { ("ai", "human") } else { ("human", "ai") };
        let entries = review["moves"].as_array().unwrap();
        let expected = stateless["moves"].as_array().unwrap();
        assert_eq!(entries.len(), expected.len());
        for ((entry, want), event) in entries.iter().zip(expected).zip(history) {
            assert_eq!(entry["ply"], event["ply"]);
            assert_eq!(entry["actor"], event["actor"]);
            assert_eq!(entry["actor"], if want["actor"] == "X" { x } else { o });
            let strip = |v: &Value| {
                let mut v = v.clone();
                v.as_object_mut().unwrap().remove("actor");
                v
            };
            assert_eq!(strip(entry), strip(want));
        }
        assert_eq!(review["players"][x], stateless["players"]["X"]);
        assert_eq!(review["players"][o], stateless["players"]["O"]);
        // Again (from the cache of finished reviews): the same answer.
        let again = authorized(&app, Method::GET, &path, Some(&token), None).await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!(again.json(), review);
        // The AI at level 4 and the first-empty-cell person both err somewhere.
        assert!(entries.iter().any(|e| e["judgment"] != "best"), "{review}");
    }
}

fn first_open_column(m: &Value) -> Value {
    let top = m["state"]["board"][0].as_str().unwrap();
    json!({"column": top.find('.').expect("an open column") + 1})
}

#[tokio::test]
async fn a_connect_four_match_review_is_the_review_of_its_moves() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    let options = json!({"cols": 5, "rows": 4, "k": 4});
    let request = json!({"game": "connect-four", "options": options, "ai": {"level": 3}});
    let (id, token, end) = play_match(&app, request, first_open_column).await;
    let r = authorized(&app, Method::GET, &format!("/matches/{id}/review"), Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review = r.json();
    assert_eq!(review["exact"], true, "a 5x4 grid is solved: {review}");
    let history = end["history"].as_array().unwrap();
    let record: Vec<Value> = history.iter().map(|e| e["move"].clone()).collect();
    let stateless = post_review(&app, "connect-four", json!({"options": options, "moves": record})).await;
    let entries = review["moves"].as_array().unwrap();
    let expected = stateless["moves"].as_array().unwrap();
    assert_eq!(entries.len(), history.len());
    for ((entry, want), event) in entries.iter().zip(expected).zip(history) {
        assert_eq!(entry["ply"], event["ply"]);
        assert_eq!(entry["actor"], event["actor"]);
        for field in [
            "move",
            "best_moves",
            "value_before",
            "value_played",
            "loss",
            "judgment",
            "value",
        ] {
            assert_eq!(entry[field], want[field], "{field} at ply {}", event["ply"]);
        }
    }
    // The person moved first, as X.
    assert_eq!(end["state"]["human_plays"], "X");
    assert_eq!(review["players"]["human"], stateless["players"]["X"]);
    assert_eq!(review["players"]["ai"], stateless["players"]["O"]);
}

#[tokio::test]
async fn match_reviews_need_the_matchs_token() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    let (id, token, _) = play_match(&app, json!({"game": "tictactoe"}), first_empty_cell).await;
    let path = format!("/matches/{id}/review");
    // Twice: before and after the review is cached.
    for _ in 0..2 {
        authorized(&app, Method::GET, &path, None, None)
            .await
            .assert_problem(StatusCode::UNAUTHORIZED);
        authorized(&app, Method::GET, &path, Some("not-the-token"), None)
            .await
            .assert_problem(StatusCode::FORBIDDEN);
        let ok = authorized(&app, Method::GET, &path, Some(&token), None).await;
        assert_eq!(ok.status, StatusCode::OK);
    }
    let unknown = format!("/matches/{}/review", "0".repeat(32));
    authorized(&app, Method::GET, &unknown, Some(&token), None)
        .await
        .assert_problem(StatusCode::NOT_FOUND);
    authorized(&app, Method::GET, "/matches/nope/review", Some(&token), None)
        .await
        .assert_problem(StatusCode::NOT_FOUND);
    // Another match's token.
    let other = app.post_json("/matches", &json!({"game": "pig"})).await.json();
    let other_path = format!("/matches/{}/review", other["id"].as_str().unwrap());
    authorized(&app, Method::GET, &other_path, Some(&token), None)
        .await
        .assert_problem(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn pig_and_ishitori_matches_are_reviewed() {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    let hold_at_10 =
        |m: &Value| json!({"action": if m["state"]["turn_total"].as_u64().unwrap() < 10 { "roll" } else { "hold" }});
    let (id, token, end) = play_match(
        &app,
        json!({"game": "pig", "options": {"goal": 30}, "ai_first": true}),
        hold_at_10,
    )
    .await;
    let r = authorized(&app, Method::GET, &format!("/matches/{id}/review"), Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review = r.json();
    let decisions: Vec<&Value> = end["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["actor"] != "dice")
        .collect();
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), decisions.len());
    for (entry, event) in entries.iter().zip(&decisions) {
        assert_eq!(entry["ply"], event["ply"]);
        assert_eq!(entry["actor"], event["actor"]);
        assert_eq!(entry["move"]["action"], event["move"]["action"]);
        if event["actor"] == "ai" {
            // The AI at level 10 plays the table's best action.
            assert_eq!(entry["judgment"], "best", "{entry}");
        }
    }
    assert_eq!(review["players"]["ai"]["accuracy"], 100.0);

    let take_one = |_: &Value| json!({"take": 1});
    let (id, token, _) = play_match(&app, json!({"game": "ishitori", "options": {"remaining": 9}}), take_one).await;
    let r = authorized(&app, Method::GET, &format!("/matches/{id}/review"), Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["players"]["ai"]["accuracy"], 100.0);
}
