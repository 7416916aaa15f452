//! Kalah through the API: published values and a brute force written here
//! through `POST /kalah/move`, its errors, a whole match played from the
//! match's own legal moves and reviewed, the stateless review and a batch.

use std::collections::HashMap;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_ready_app, TestApp, TestResponse};

async fn authorized(app: &TestApp, method: Method, path: &str, token: &str, body: Option<&Value>) -> TestResponse {
    let builder = Request::builder()
        .method(method)
        .uri(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"));
    let request = match body {
        Some(b) => builder
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string())),
        None => builder.body(Body::empty()),
    }
    .unwrap();
    app.send(request).await
}

fn start(houses: usize, seeds: u32) -> Value {
    json!({"south": vec![seeds; houses], "north": vec![seeds; houses], "south_store": 0, "north_store": 0})
}

/// The test's own Kalah: pits counter-clockwise, south's houses 0..m, its
/// store m, north's houses m+1..=2m, its store 2m+1.
#[derive(Clone)]
struct Pits {
    m: usize,
    pits: Vec<u32>,
    south: bool,
    empty_capture: bool,
}

impl Pits {
    fn new(m: usize, n: u32, empty_capture: bool) -> Pits {
        let mut pits = vec![n; 2 * m + 2];
        pits[m] = 0;
        pits[2 * m + 1] = 0;
        Pits {
            m,
            pits,
            south: true,
            empty_capture,
        }
    }

    fn own(&self, south: bool) -> std::ops::Range<usize> {
        if south {
            0..self.m
        } else {
            self.m + 1..2 * self.m + 1
        }
    }

    fn moves(&self) -> Vec<usize> {
        let start = self.own(self.south).start;
        self.own(self.south)
            .filter(|&p| self.pits[p] > 0)
            .map(|p| p - start + 1)
            .collect()
    }

    /// Sows house `h`; true when the game is over.
    fn play(&mut self, h: usize) -> bool {
        let (m, south) = (self.m, self.south);
        let (store, other_store) = if south { (m, 2 * m + 1) } else { (2 * m + 1, m) };
        let mut pit = self.own(south).start + h - 1;
        let mut seeds = std::mem::take(&mut self.pits[pit]);
        while seeds > 0 {
            pit = (pit + 1) % (2 * m + 2);
            if pit == other_store {
                continue;
            }
            self.pits[pit] += 1;
            seeds -= 1;
        }
        // Pit p faces pit 2m - p.
        if self.own(south).contains(&pit) && self.pits[pit] == 1 {
            let opposite = 2 * m - pit;
            if self.empty_capture || self.pits[opposite] > 0 {
                self.pits[store] += 1 + std::mem::take(&mut self.pits[opposite]);
                self.pits[pit] = 0;
            }
        }
        let empty = |range: std::ops::Range<usize>| range.clone().all(|p| self.pits[p] == 0);
        if empty(self.own(true)) || empty(self.own(false)) {
            for side in [true, false] {
                let s = if side { m } else { 2 * m + 1 };
                let rest: u32 = self.own(side).map(|p| std::mem::take(&mut self.pits[p])).sum();
                self.pits[s] += rest;
            }
            return true;
        }
        if pit != store {
            self.south = !south;
        }
        false
    }

    /// The mover's final store minus the opponent's under perfect play.
    fn value(&self) -> i64 {
        self.value_memo(&mut HashMap::new())
    }

    /// Plain minimax; only whole positions met twice are looked up.
    fn value_memo(&self, memo: &mut HashMap<(Vec<u32>, bool), i64>) -> i64 {
        if let Some(&v) = memo.get(&(self.pits.clone(), self.south)) {
            return v;
        }
        let value = self
            .moves()
            .into_iter()
            .map(|h| {
                let mut next = self.clone();
                if next.play(h) {
                    let (s, n) = (next.pits[self.m] as i64, next.pits[2 * self.m + 1] as i64);
                    if self.south {
                        s - n
                    } else {
                        n - s
                    }
                } else if next.south == self.south {
                    next.value_memo(memo)
                } else {
                    -next.value_memo(memo)
                }
            })
            .max()
            .unwrap();
        memo.insert((self.pits.clone(), self.south), value);
        value
    }
}

async fn best(app: &TestApp, body: &Value) -> Value {
    let r = app.post_json("/kalah/move", body).await;
    assert_eq!(r.status, StatusCode::OK, "{body}: {}", String::from_utf8_lossy(&r.body));
    r.json()
}

#[tokio::test]
async fn small_boards_score_every_house_as_the_brute_force_says() {
    let app = spawn_app().await;
    for empty_capture in [false, true] {
        for (m, n) in [(2, 2), (3, 2), (3, 3), (4, 2)] {
            let pits = Pits::new(m, n, empty_capture);
            let capture = if empty_capture { "empty" } else { "standard" };
            let answer = best(
                &app,
                &json!({"board": start(m, n), "to_move": "south", "capture": capture}),
            )
            .await;
            assert_eq!(answer["solved"], true, "{answer}");
            assert_eq!(answer["score"], pits.value(), "Kalah({m},{n}) {capture}: {answer}");
            for mv in answer["moves"].as_array().unwrap() {
                let mut after = pits.clone();
                let h = mv["house"].as_u64().unwrap() as usize;
                let value = if after.play(h) {
                    after.pits[m] as i64 - after.pits[2 * m + 1] as i64
                } else if after.south {
                    after.value()
                } else {
                    -after.value()
                };
                assert_eq!(mv["score"], value, "Kalah({m},{n}) {capture} house {h}");
            }
        }
    }
}

/// Plays the answer's line of play on the test's own board: it must end
/// the game with the margin the answer claims.
fn check_line(answer: &Value, mut pits: Pits) {
    let m = pits.m;
    let mover_south = pits.south;
    let mut over = false;
    for step in answer["principal_variation"].as_array().unwrap() {
        assert!(!over, "moves after the end: {answer}");
        assert_eq!(step["player"], if pits.south { "south" } else { "north" });
        over = pits.play(step["house"].as_u64().unwrap() as usize);
    }
    assert!(over, "the line stops before the end: {answer}");
    let south_margin = pits.pits[m] as i64 - pits.pits[2 * m + 1] as i64;
    assert_eq!(
        if mover_south { south_margin } else { -south_margin },
        answer["score"].as_i64().unwrap()
    );
}

#[tokio::test]
async fn published_values_come_back_exact_kalah_6_4_at_the_default_budget() {
    let app = spawn_app().await;
    // Kalah(4,3): +6 with the standard capture, +8 with the empty one; and
    // Kalah(6,4): +8 and +10 (Irving, Donkers and Uiterwijk, 2000), from
    // the compiled book within the default budget.
    for (m, n, capture, published) in [
        (4, 3, "standard", 6),
        (4, 3, "empty", 8),
        (6, 4, "standard", 8),
        (6, 4, "empty", 10),
    ] {
        let answer = best(
            &app,
            &json!({"board": start(m, n), "to_move": "south", "capture": capture}),
        )
        .await;
        assert_eq!(answer["solved"], true, "Kalah({m},{n}) {capture}: {answer}");
        assert_eq!(answer["score"], published, "Kalah({m},{n}) {capture}: {answer}");
        assert_eq!(answer["outcome"], "win");
        assert_eq!(answer["moves"].as_array().unwrap().len(), m);
        assert!(
            answer["moves"]
                .as_array()
                .unwrap()
                .iter()
                .all(|mv| mv["solved"] == true),
            "{answer}"
        );
        check_line(&answer, Pits::new(m, n, capture == "empty"));
    }
}

#[tokio::test]
async fn bad_boards_are_refused_naming_the_problem() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"board": {"south": [1, 2], "north": [1], "south_store": 0, "north_store": 0}, "to_move": "south"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "houses",
        ),
        (
            json!({"board": {"south": [0, 0], "north": [1, 1], "south_store": 0, "north_store": 0}, "to_move": "south"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "over",
        ),
        (
            json!({"board": start(9, 1), "to_move": "south"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "houses",
        ),
        (
            json!({"board": {"south": [200, 2], "north": [100, 1], "south_store": 0, "north_store": 0}, "to_move": "north"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "seeds",
        ),
        (
            json!({"board": {"south": [-1, 2], "north": [1, 1], "south_store": 0, "north_store": 0}, "to_move": "south"}),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            json!({"board": start(6, 4), "to_move": "east"}),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            json!({"board": start(6, 4), "to_move": "south", "capture": "all"}),
            StatusCode::BAD_REQUEST,
            "",
        ),
    ];
    for (body, status, word) in cases {
        let r = app.post_json("/kalah/move", &body).await;
        assert_eq!(r.status, status, "{body}: {}", String::from_utf8_lossy(&r.body));
        assert!(
            r.json()["detail"].as_str().unwrap().contains(word),
            "{body}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
}

#[tokio::test]
async fn a_kalah_match_plays_to_the_end_from_its_legal_moves_and_is_reviewed() {
    let app = spawn_ready_app().await;
    for (ai_first, level) in [(false, 10), (true, 4)] {
        let request = json!({"game": "kalah", "options": {"houses": 4, "seeds": 3}, "ai": {"level": level}, "ai_first": ai_first});
        let r = app.post_json("/matches", &request).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&r.body));
        let mut m = r.json();
        let (id, token) = (
            m["id"].as_str().unwrap().to_string(),
            m["token"].as_str().unwrap().to_string(),
        );
        assert_eq!(m["options"], json!({"houses": 4, "seeds": 3, "capture": "standard"}));
        while m["status"] == "in_progress" {
            assert_eq!(m["state"]["to_move"], m["state"]["human_plays"], "{m}");
            let mv = m["legal_moves"][0].clone();
            let body = json!({"ply": m["ply"], "move": mv});
            let r = authorized(&app, Method::POST, &format!("/matches/{id}/moves"), &token, Some(&body)).await;
            assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
            m = r.json();
        }
        let whole = authorized(&app, Method::GET, &format!("/matches/{id}"), &token, None)
            .await
            .json();
        // Replaying the history with the test's own rules reaches the final stores.
        let mut pits = Pits::new(4, 3, false);
        let history = whole["history"].as_array().unwrap();
        for (i, entry) in history.iter().enumerate() {
            let h = entry["move"]["house"].as_u64().unwrap() as usize;
            assert!(pits.moves().contains(&h), "entry {i}: {entry}");
            let over = pits.play(h);
            assert_eq!(over, i + 1 == history.len(), "entry {i}");
        }
        let board = &whole["state"]["board"];
        assert_eq!(board["south_store"], pits.pits[4]);
        assert_eq!(board["north_store"], pits.pits[9]);
        let scores = &whole["result"]["scores"];
        assert_eq!(
            scores["human"].as_i64().unwrap() + scores["ai"].as_i64().unwrap(),
            24,
            "{whole}"
        );
        let review = authorized(&app, Method::GET, &format!("/matches/{id}/review"), &token, None).await;
        assert_eq!(
            review.status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&review.body)
        );
        let review = review.json();
        assert_eq!(review["moves"].as_array().unwrap().len(), history.len());
        assert_eq!(review["exact"], true, "{review}");
    }
}

#[tokio::test]
async fn kalah_is_in_the_catalog_analyze_and_the_stateless_review() {
    let app = spawn_app().await;
    let games = app.get("/games").await.json();
    let entry = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "kalah")
        .cloned();
    let entry = entry.expect("kalah in the catalog");
    assert_eq!(entry["endpoints"]["analysis"], "/kalah/move");
    assert!(entry["strategies"].as_array().unwrap().contains(&json!("greedy")));
    let batch = json!({"positions": [
        {"game": "kalah", "board": start(3, 3), "to_move": "south"},
        {"game": "kalah", "board": start(3, 3), "to_move": "sideways"},
    ]});
    let r = app.post_json("/analyze", &batch).await;
    assert_eq!(r.status, StatusCode::OK);
    let results = r.json()["results"].clone();
    assert_eq!(results[0]["score"], Pits::new(3, 3, false).value());
    assert!(results[1]["error"].is_object(), "{results}");
    // South sows house 1 of Kalah(2,1): one seed into house 2; North moves.
    let record = json!({"options": {"houses": 2, "seeds": 1}, "moves": [{"house": 1}, {"house": 1}, {"house": 2}]});
    let r = app.post_json("/kalah/review", &record).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["moves"].as_array().unwrap().len(), 3);
    let bad = json!({"options": {"houses": 2, "seeds": 1}, "moves": [{"house": 3}]});
    assert_eq!(
        app.post_json("/kalah/review", &bad).await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}
