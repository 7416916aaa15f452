//! Reviews of the score games' matches. Number Square against a brute force
//! written here (on 4x4 the search is exact: every value equal to the brute
//! force's, and a deliberately thrown move a blunder); Nine Square's shape,
//! its judgments against its losses, its `exact` against a brute-force
//! expectimax, and its time budget; an old Number Square match without its
//! deal answered 422.

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{spawn_app_on, TestApp, TestDb};
use crate::matches::authorized;
use crate::review::play_match;

// The documented scale (openapi.yaml, README), restated here.

fn margin_points(margin: f64, scale: f64) -> f64 {
    0.5 + 0.5 * (margin / scale).tanh()
}

fn judgment_of(loss: f64) -> &'static str {
    if loss < 0.02 {
        "good"
    } else if loss < 0.05 {
        "inaccuracy"
    } else if loss < 0.15 {
        "mistake"
    } else {
        "blunder"
    }
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

async fn app() -> TestApp {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    app
}

async fn get_review(app: &TestApp, id: &str, token: &str, max_ms: u64) -> (Value, Duration) {
    let started = Instant::now();
    let path = format!("/matches/{id}/review?max_ms={max_ms}");
    let r = authorized(app, Method::GET, &path, Some(token), None).await;
    let took = started.elapsed();
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    (r.json(), took)
}

// ---------------------------------------------------------------------------
// Number Square: plain negamax over the taken set (memoised, no pruning).

struct Deal {
    size: usize,
    values: Vec<i64>,
}

impl Deal {
    fn of(m: &Value) -> Deal {
        let rows = m["options"]["board"].as_array().expect("the options hold the deal");
        Deal {
            size: rows.len(),
            values: rows
                .iter()
                .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_i64().unwrap()))
                .collect(),
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c, n) = (i / self.size, i % self.size, self.size);
        let mut out = Vec::new();
        if r > 0 {
            out.push(i - n);
        }
        if r + 1 < n {
            out.push(i + n);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < n {
            out.push(i + 1);
        }
        out
    }

    fn legal(&self, taken: u64) -> Vec<usize> {
        let n = self.size;
        (0..n * n)
            .filter(|&i| taken & (1 << i) == 0)
            .filter(|&i| {
                let (r, c) = (i / n, i % n);
                r == 0
                    || c == 0
                    || r == n - 1
                    || c == n - 1
                    || self.neighbours(i).iter().any(|&j| taken & (1 << j) != 0)
            })
            .collect()
    }

    /// A 4-connected path of taken tiles from `starts` to a tile `goal` accepts.
    fn path(&self, taken: u64, starts: Vec<usize>, goal: impl Fn(usize) -> bool) -> bool {
        let mut seen: Vec<usize> = starts.into_iter().filter(|&i| taken & (1 << i) != 0).collect();
        let mut stack = seen.clone();
        while let Some(i) = stack.pop() {
            if goal(i) {
                return true;
            }
            for j in self.neighbours(i) {
                if taken & (1 << j) != 0 && !seen.contains(&j) {
                    seen.push(j);
                    stack.push(j);
                }
            }
        }
        false
    }

    fn over(&self, taken: u64) -> bool {
        let n = self.size;
        taken.count_ones() as usize == n * n
            || self.path(taken, (0..n).collect(), |i| i / n == n - 1)
            || self.path(taken, (0..n).map(|r| r * n).collect(), |i| i % n == n - 1)
    }

    /// The mover's points minus the opponent's over the rest of the game.
    fn value(&self, taken: u64, memo: &mut HashMap<u64, i64>) -> i64 {
        if self.over(taken) {
            return 0;
        }
        if let Some(&v) = memo.get(&taken) {
            return v;
        }
        let v = self
            .legal(taken)
            .into_iter()
            .map(|i| self.values[i] - self.value(taken | (1 << i), memo))
            .max()
            .unwrap();
        memo.insert(taken, v);
        v
    }

    fn move_values(&self, taken: u64, memo: &mut HashMap<u64, i64>) -> Vec<(usize, i64)> {
        self.legal(taken)
            .into_iter()
            .map(|i| (i, self.values[i] - self.value(taken | (1 << i), memo)))
            .collect()
    }

    /// The review's scale: twice the largest tile left.
    fn scale(&self, taken: u64) -> f64 {
        let largest = (0..self.values.len())
            .filter(|&i| taken & (1 << i) == 0)
            .map(|i| self.values[i].abs())
            .max()
            .unwrap_or(1)
            .max(1);
        2.0 * largest as f64
    }

    fn index(&self, mv: &Value) -> usize {
        mv["row"].as_u64().unwrap() as usize * self.size + mv["col"].as_u64().unwrap() as usize
    }

    fn tile(&self, i: usize) -> Value {
        json!({"row": i / self.size, "col": i % self.size})
    }
}

/// The person's moves: the brute force's best, but at the first decision
/// where some tile loses a blunder's worth, the worst tile. `thrown` gets
/// that move's ply.
fn best_but_one_thrown<'a>(thrown: &'a Cell<Option<u64>>) -> impl Fn(&Value) -> Value + 'a {
    move |m: &Value| {
        let deal = Deal::of(m);
        let taken = m["state"]["board"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(Value::is_null))
            .enumerate()
            .fold(0u64, |t, (i, gone)| if gone { t | (1 << i) } else { t });
        let lead = m["state"]["scores"]["human"].as_i64().unwrap() - m["state"]["scores"]["ai"].as_i64().unwrap();
        let moves = deal.move_values(taken, &mut HashMap::new());
        let scale = deal.scale(taken);
        let points = |v: i64| margin_points((lead + v) as f64, scale);
        let best = *moves.iter().max_by_key(|m| m.1).unwrap();
        let worst = *moves.iter().min_by_key(|m| m.1).unwrap();
        if thrown.get().is_none() && points(best.1) - points(worst.1) >= 0.15 {
            thrown.set(Some(m["ply"].as_u64().unwrap() + 1));
            return deal.tile(worst.0);
        }
        deal.tile(best.0)
    }
}

/// Every entry against the brute force, replaying the history on the deal.
fn check_number_square_review(review: &Value, end: &Value) {
    let deal = Deal::of(end);
    let history = end["history"].as_array().unwrap();
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), history.len());
    let mut memo = HashMap::new();
    let mut taken = 0u64;
    let mut scores: HashMap<String, i64> = HashMap::new();
    let first = history[0]["actor"].as_str().unwrap().to_string();
    for (entry, event) in entries.iter().zip(history) {
        let actor = event["actor"].as_str().unwrap().to_string();
        assert_eq!(entry["ply"], event["ply"]);
        assert_eq!(entry["actor"], event["actor"]);
        assert_eq!(entry["move"], event["move"]);
        let mine = scores.get(&actor).copied().unwrap_or(0);
        let theirs: i64 = scores.iter().filter(|(a, _)| **a != actor).map(|(_, s)| s).sum();
        let lead = mine - theirs;
        let moves = deal.move_values(taken, &mut memo);
        let played = deal.index(&event["move"]);
        let best = moves.iter().map(|m| m.1).max().unwrap();
        let value = moves.iter().find(|m| m.0 == played).expect("played a legal tile").1;
        let scale = deal.scale(taken);
        let points = |v: i64| margin_points((lead + v) as f64, scale);
        let outcome = |v: i64| match (lead + v).signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        for (field, v) in [("value_before", best), ("value_played", value)] {
            let got = &entry[field];
            assert_eq!(got["value"], v, "{field}: {entry}");
            assert_eq!(got["final_margin"], lead + v, "{field}: {entry}");
            assert_eq!(got["outcome"], outcome(v), "{field}: {entry}");
            assert!(close(&got["points"], points(v)), "{field}: {entry}");
        }
        let expected: BTreeSet<String> = moves
            .iter()
            .filter(|m| m.1 == best)
            .map(|m| deal.tile(m.0).to_string())
            .collect();
        let got: BTreeSet<String> = entry["best_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        assert_eq!(got, expected, "{entry}");
        let loss = points(best) - points(value);
        assert!(close(&entry["loss"], loss), "{entry}");
        let judgment = if value == best { "best" } else { judgment_of(loss) };
        assert_eq!(entry["judgment"], judgment, "{entry}");
        assert_eq!(entry["exact"], true, "{entry}");
        let sign = if actor == first { 1.0 } else { -1.0 };
        assert!(close(&entry["value"], sign * (2.0 * points(value) - 1.0)), "{entry}");
        *scores.entry(actor).or_insert(0) += deal.values[played];
        taken |= 1 << played;
    }
    assert_eq!(review["exact"], true);
}

#[tokio::test]
async fn number_square_match_reviews_are_the_brute_forces_values_and_a_thrown_tile_is_a_blunder() {
    let app = app().await;
    // A random deal may leave no move 0.15 points worse than the best (a
    // game already decided); the given board always has one.
    let dealt = (json!({"game": "number-square", "options": {"size": 4}}), false);
    let given = json!({
        "game": "number-square",
        "ai_first": true,
        // Whatever the AI takes first, the person then has a tile to throw.
        "options": {"board": [[5, 13, 8, 3], [12, 11, 6, 1], [15, 10, 2, 9], [7, 4, 14, 16]]},
    });
    for (request, must_throw) in [dealt, (given, true)] {
        let thrown = Cell::new(None);
        let (id, token, end) = play_match(&app, request.clone(), best_but_one_thrown(&thrown)).await;
        // The deal is kept: 1..16, once each.
        let mut values: Vec<i64> = Deal::of(&end).values;
        values.sort_unstable();
        assert_eq!(values, (1..=16).collect::<Vec<_>>(), "{request}");
        let (review, took) = get_review(&app, &id, &token, 10_000).await;
        eprintln!("4x4 number-square review: {took:?}");
        check_number_square_review(&review, &end);
        let Some(ply) = thrown.get() else {
            assert!(!must_throw, "a tile worth throwing: {request}");
            continue;
        };
        let entry = review["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["ply"] == ply)
            .unwrap();
        assert_eq!(entry["judgment"], "blunder", "{entry}");
        assert!(review["players"]["human"]["blunders"].as_u64().unwrap() >= 1);
    }
    // For comparison: one search of an opening the memo has not seen.
    let started = Instant::now();
    let board = json!({"board": [[4, 10, 7, 13], [15, 5, 11, 2], [9, 16, 6, 12], [1, 8, 14, 3]]});
    assert_eq!(
        app.post_json("/number-square/move", &board).await.status,
        StatusCode::OK
    );
    eprintln!("4x4 /number-square/move from the start: {:?}", started.elapsed());
}

#[tokio::test]
async fn an_old_number_square_match_without_its_deal_still_plays_and_its_review_says_why_not() {
    use sqlx::Connection;
    let app = app().await;
    let created = app
        .post_json("/matches", &json!({"game": "number-square", "options": {"size": 3}}))
        .await
        .json();
    assert_eq!(
        created["options"]["board"].as_array().map(Vec::len),
        Some(3),
        "{created}"
    );
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    // What a match created before the deal was kept has in its row.
    let url = app.state.config.database_url.clone().unwrap();
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("UPDATE matches SET options = ?, saved = NULL WHERE id = ?")
        .bind(r#"{"size":3}"#)
        .bind(&id)
        .execute(&mut conn)
        .await
        .unwrap();
    let path = format!("/matches/{id}");
    let mut current = authorized(&app, Method::GET, &path, Some(&token), None).await.json();
    assert_eq!(current["options"], json!({"size": 3}));
    while current["status"] != "finished" {
        let body = json!({"ply": current["ply"], "move": current["legal_moves"][0]});
        let r = authorized(&app, Method::POST, &format!("{path}/moves"), Some(&token), Some(&body)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        current = r.json();
    }
    let r = authorized(&app, Method::GET, &format!("{path}/review"), Some(&token), None).await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("deal was not recorded"), "{detail}");
}

// ---------------------------------------------------------------------------
// Nine Square: plain expectimax over the last empty cells (memoised).

use crate::game::nine_square::brute as nine_square_brute;

#[derive(Default)]
struct Expectimax {
    memo: HashMap<(Vec<u8>, u8), f64>,
}

impl Expectimax {
    /// `player`'s points minus the opponent's (marks 1 and 2).
    fn margin(&self, cells: &[u8], player: u8) -> f64 {
        let (x, o) = nine_square_brute::brute_score(cells);
        f64::from(if player == 1 { x - o } else { o - x })
    }

    /// `mover`'s expected final margin with `roller` about to roll.
    fn before_roll(&mut self, cells: &mut Vec<u8>, roller: u8, mover: u8) -> f64 {
        let empties: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
        if empties.is_empty() {
            return self.margin(cells, mover);
        }
        let key = (cells.clone(), roller);
        if let Some(&v) = self.memo.get(&key) {
            return v * if mover == 1 { 1.0 } else { -1.0 };
        }
        let total: f64 = (1..=6)
            .map(|face| {
                self.best_set(cells, roller, &empties, face.min(empties.len()), 0, 1)
                    .expect("as many cells as due")
            })
            .sum();
        let value_x = total / 6.0;
        self.memo.insert(key, value_x);
        value_x * if mover == 1 { 1.0 } else { -1.0 }
    }

    /// The value for `mover` when `player` marks the best `due` of
    /// `empties[from..]`; None when fewer than `due` are left there.
    fn best_set(
        &mut self,
        cells: &mut Vec<u8>,
        player: u8,
        empties: &[usize],
        due: usize,
        from: usize,
        mover: u8,
    ) -> Option<f64> {
        if due == 0 {
            return Some(self.before_roll(cells, 3 - player, mover));
        }
        let mut best: Option<f64> = None;
        for i in from..empties.len() {
            cells[empties[i]] = player;
            let found = self.best_set(cells, player, empties, due - 1, i + 1, mover);
            cells[empties[i]] = 0;
            if let Some(v) = found {
                if best.is_none_or(|b| if player == mover { v > b } else { v < b }) {
                    best = Some(v);
                }
            }
        }
        best
    }
}

fn first_cells(m: &Value) -> Value {
    let legal = m["legal_moves"].as_array().unwrap();
    let due = (m["state"]["dice"].as_u64().unwrap() as usize).min(legal.len());
    json!({"placements": legal[..due]})
}

#[tokio::test]
async fn a_nine_square_match_review_is_honest_about_exactness_and_keeps_to_its_budget() {
    let app = app().await;
    let (id, token, end) = play_match(&app, json!({"game": "nine-square", "ai_first": true}), first_cells).await;
    let max_ms = 1500;
    let (review, took) = get_review(&app, &id, &token, max_ms).await;
    eprintln!("nine-square review at max_ms={max_ms}: {took:?}");
    assert!(took < Duration::from_millis(max_ms + 1000), "{took:?}");
    assert_eq!(review["game"], "nine-square");

    let history = end["history"].as_array().unwrap();
    let turns: Vec<(&Value, &Value)> = history
        .windows(2)
        .filter(|w| w[0]["actor"] == "dice" && w[1]["actor"] != "dice")
        .map(|w| (&w[0], &w[1]))
        .collect();
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), turns.len());
    assert_eq!(entries.len(), history.iter().filter(|e| e["actor"] != "dice").count());
    let mut brute = Expectimax::default();
    let mut cells = vec![0u8; 81];
    for (i, (entry, (dice, turn))) in entries.iter().zip(&turns).enumerate() {
        assert_eq!(entry["ply"], turn["ply"]);
        assert_eq!(entry["actor"], turn["actor"]);
        assert_eq!(entry["move"], turn["move"]);
        // The AI moved first: it plays X (1).
        let mover: u8 = if turn["actor"] == "ai" { 1 } else { 2 };
        let placements = turn["move"]["placements"].as_array().unwrap();
        let empty_before = cells.iter().filter(|&&c| c == 0).count();
        let due = (dice["roll"].as_u64().unwrap() as usize).min(empty_before);
        assert_eq!(placements.len(), due);
        for best in entry["best_moves"].as_array().unwrap() {
            assert_eq!(best["placements"].as_array().unwrap().len(), due, "{entry}");
        }
        // Points, loss, judgment and the line, by the documented formulas.
        let points = |field: &str| {
            let v = &entry[field];
            let p = margin_points(v["expected_margin"].as_f64().unwrap(), 6.0);
            assert!(close(&v["points"], p), "{field}: {entry}");
            p
        };
        let (before, played) = (points("value_before"), points("value_played"));
        assert!(played <= before + 1e-12, "{entry}");
        assert!(close(&entry["loss"], before - played), "{entry}");
        let loss = entry["loss"].as_f64().unwrap();
        match entry["judgment"].as_str().unwrap() {
            "best" => assert!(loss < 1e-12, "{entry}"),
            other => assert_eq!(other, judgment_of(loss), "{entry}"),
        }
        let sign = if mover == 1 { 1.0 } else { -1.0 };
        assert!(close(&entry["value"], sign * (2.0 * played - 1.0)), "{entry}");
        // Exact only where the endgame is solved, and then the brute force's.
        if entry["exact"] == true {
            assert!(
                empty_before <= 9,
                "entry {i} claims exact with {empty_before} empty cells"
            );
            let empties: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
            let best = brute.best_set(&mut cells, mover, &empties, due, 0, mover).unwrap();
            let v = &entry["value_before"]["expected_margin"];
            assert!(close(v, best), "before: {v} vs {best}: {entry}");
            let mut after = cells.clone();
            for p in placements {
                after[p["row"].as_u64().unwrap() as usize * 9 + p["col"].as_u64().unwrap() as usize] = mover;
            }
            let mine = brute.before_roll(&mut after, 3 - mover, mover);
            let v = &entry["value_played"]["expected_margin"];
            assert!(close(v, mine), "played: {v} vs {mine}: {entry}");
            assert_eq!(entry["judgment"] == "best", (mine - best).abs() < 1e-9, "{entry}");
        }
        for p in placements {
            cells[p["row"].as_u64().unwrap() as usize * 9 + p["col"].as_u64().unwrap() as usize] = mover;
        }
    }
    assert_eq!(entries.last().unwrap()["exact"], true, "the last turn is solved");
    assert_eq!(entries[0]["exact"], false, "the first turn cannot be proved");
    assert_eq!(review["exact"], false);
    for side in ["human", "ai"] {
        let s = &review["players"][side];
        let mine = entries.iter().filter(|e| e["actor"] == side).count() as u64;
        assert_eq!(s["moves"], mine);
        let counted: u64 = ["best", "good", "inaccuracies", "mistakes", "blunders"]
            .iter()
            .map(|k| s[*k].as_u64().unwrap())
            .sum();
        assert_eq!(counted, mine);
        assert!((0.0..=100.0).contains(&s["accuracy"].as_f64().unwrap()));
    }
}
