//! Every game the registry serves, played as a frontend would: the games
//! come from `GET /games` (never a list kept here), each match game is
//! played with random moves taken from the match's own `legal_moves` to its
//! end, read back, and reviewed. A game added to the registry is tested
//! here without a line changed.

use std::collections::BTreeMap;

use axum::http::{Method, StatusCode};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

use crate::helpers::{spawn_app_on, TestApp, TestDb};
use crate::matches::authorized;

/// Games of each kind played per set of options.
const GAMES_PER_OPTIONS: u64 = 3;
/// More moves than any game here takes at its largest default.
const MOVE_LIMIT: usize = 2_000;

/// The person's move, chosen at random among the match's `legal_moves`.
/// Nine Square's legal moves are the cells a placement may use, and a move
/// places as many of them as the die says: the one game whose legal moves
/// are not whole moves (the spec says so).
fn random_move(m: &Value, rng: &mut StdRng) -> Value {
    let legal = m["legal_moves"].as_array().expect("legal_moves while in progress");
    assert!(!legal.is_empty(), "no legal move in an unfinished match: {m}");
    if m["game"] == "nine-square" {
        let dice = m["state"]["dice"].as_u64().expect("the person's dice") as usize;
        let cells: Vec<Value> = legal.choose_multiple(rng, dice.min(legal.len())).cloned().collect();
        return json!({ "placements": cells });
    }
    legal[rng.gen_range(0..legal.len())].clone()
}

/// The option sets a game is played with: its defaults, and every integer
/// option at its minimum (the smallest board, heap or goal the catalog allows).
fn option_sets(entry: &Value) -> Vec<Value> {
    let smallest: Map<String, Value> = entry["options"]
        .as_array()
        .expect("options")
        .iter()
        .filter(|o| o["type"] == "integer" && o["minimum"].is_u64())
        .map(|o| (o["name"].as_str().unwrap().to_string(), o["minimum"].clone()))
        .collect();
    if smallest.is_empty() {
        vec![json!({})]
    } else {
        vec![json!({}), Value::Object(smallest)]
    }
}

/// Plays `m` to its end with random legal moves, checking each answer.
async fn play_randomly(app: &TestApp, m: Value, token: &str, rng: &mut StdRng) -> Value {
    let path = format!("/matches/{}", m["id"].as_str().unwrap());
    let mut current = m;
    for _ in 0..MOVE_LIMIT {
        let history = current["history"].as_array().expect("history");
        assert_eq!(current["ply"].as_u64(), Some(history.len() as u64), "{current}");
        if current["status"] == "finished" {
            assert!(current["legal_moves"].is_null(), "legal moves after the end: {current}");
            return current;
        }
        assert_eq!(current["status"], "in_progress", "{current}");
        assert!(current["result"].is_null(), "{current}");
        let mv = random_move(&current, rng);
        let ply = current["ply"].clone();
        let r = authorized(
            app,
            Method::POST,
            &format!("{path}/moves"),
            Some(token),
            Some(&json!({"ply": ply, "move": mv})),
        )
        .await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "{mv} in {current}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let next = r.json();
        let before = ply.as_u64().unwrap() as usize;
        assert!(next["ply"].as_u64().unwrap() as usize > before, "{next}");
        assert_eq!(next["history"][before]["actor"], "human", "{next}");
        current = next;
    }
    panic!("no end after {MOVE_LIMIT} moves: {current}");
}

/// The review has one entry per decision of either side, in the history's
/// order, and sane judgments and accuracies.
fn check_review(end: &Value, review: &Value) {
    let decisions: Vec<&Value> = end["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["actor"] != "dice")
        .collect();
    let moves = review["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("review without moves: {review}"));
    assert_eq!(moves.len(), decisions.len(), "review {review} of {end}");
    for (entry, decision) in moves.iter().zip(&decisions) {
        assert_eq!(entry["ply"], decision["ply"], "{entry} for {decision}");
        assert_eq!(entry["actor"], decision["actor"], "{entry} for {decision}");
        let judgment = entry["judgment"].as_str().unwrap_or_default();
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"].contains(&judgment),
            "{entry}"
        );
        if let Some(loss) = entry["loss"].as_f64() {
            assert!(loss >= -1e-9, "a negative loss: {entry}");
        }
    }
    // Each side's tally is its entries' judgments counted again.
    let players = review["players"].as_object().expect("players");
    assert_eq!(players.len(), 2, "{review}");
    for (side, tally) in players {
        let own: Vec<&Value> = moves.iter().filter(|e| e["actor"] == side.as_str()).collect();
        assert_eq!(tally["moves"].as_u64(), Some(own.len() as u64), "{side}: {tally}");
        for (judgment, field) in [
            ("best", "best"),
            ("good", "good"),
            ("inaccuracy", "inaccuracies"),
            ("mistake", "mistakes"),
            ("blunder", "blunders"),
        ] {
            let counted = own.iter().filter(|e| e["judgment"] == judgment).count() as u64;
            assert_eq!(tally[field].as_u64(), Some(counted), "{side} {field}: {tally}");
        }
        match tally["accuracy"].as_f64() {
            Some(accuracy) => assert!((0.0..=100.0).contains(&accuracy), "{side}: {tally}"),
            None => assert!(own.is_empty(), "{side} moved but has no accuracy: {tally}"),
        }
    }
}

#[tokio::test]
async fn every_registered_game_is_played_randomly_to_the_end_and_reviewed() {
    // Short searches: the AI's strength is not what is tested here.
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.default_max_ms = 20;
        c.max_ms_cap = 100;
        c.match_quota_per_hour = 0;
    })
    .await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK, "the database is ready");
    let catalog = app.get("/games").await.json();
    let entries = catalog["games"].as_array().expect("games");
    let listed: Vec<&str> = entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(
        listed,
        kibitz::registry::ids(),
        "the catalog lists the registry, in order"
    );

    let mut played: BTreeMap<String, u64> = BTreeMap::new();
    let mut rng = StdRng::seed_from_u64(27);
    for entry in entries {
        let id = entry["id"].as_str().unwrap();
        if entry["endpoints"]["matches"].is_null() || !crate::helpers::available(entry) {
            continue;
        }
        for options in option_sets(entry) {
            for n in 0..GAMES_PER_OPTIONS {
                let request =
                    json!({"game": id, "options": options, "ai": {"level": 1 + n * 4}, "ai_first": n % 2 == 1});
                let r = app.post_json("/matches", &request).await;
                assert_eq!(
                    r.status,
                    StatusCode::CREATED,
                    "{request}: {}",
                    String::from_utf8_lossy(&r.body)
                );
                let created = r.json();
                let token = created["token"].as_str().expect("token").to_string();
                let path = format!("/matches/{}", created["id"].as_str().unwrap());

                let end = play_randomly(&app, created, &token, &mut rng).await;
                let winner = end["result"]["winner"].as_str().unwrap_or_default();
                assert!(["human", "ai", "draw"].contains(&winner), "{end}");

                let mut stored = authorized(&app, Method::GET, &path, Some(&token), None).await.json();
                stored.as_object_mut().unwrap().remove("token");
                let mut answered = end.clone();
                answered.as_object_mut().unwrap().remove("token");
                assert_eq!(stored, answered, "the stored match differs from the last answer");

                let r = authorized(&app, Method::GET, &format!("{path}/review"), Some(&token), None).await;
                assert_eq!(
                    r.status,
                    StatusCode::OK,
                    "review of {end}: {}",
                    String::from_utf8_lossy(&r.body)
                );
                check_review(&end, &r.json());
                *played.entry(id.to_string()).or_default() += 1;
            }
        }
    }
    let match_games: Vec<&str> = entries
        .iter()
        .filter(|e| !e["endpoints"]["matches"].is_null())
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert!(
        match_games.len() >= 7,
        "fewer match games than served today: {match_games:?}"
    );
    for id in match_games {
        if !crate::helpers::available(entries.iter().find(|e| e["id"] == id).unwrap()) {
            continue;
        }
        assert!(
            played.get(id).copied().unwrap_or(0) >= GAMES_PER_OPTIONS,
            "{id} was not played: {played:?}"
        );
    }
}
