//! GET /games: the catalog, held to the code that serves each game.

use axum::http::StatusCode;
use kibitz::arena::Strategy;
use kibitz::registry::{ARENA_GAMES, MATCH_GAMES};
use serde_json::{json, Value};

use crate::helpers::{spawn_app_on, TestApp, TestDb};

async fn catalog() -> (TestApp, Vec<Value>) {
    let app = spawn_app_on(TestDb::Sqlite, |c| c.search_queue_ms = 30_000).await;
    assert_eq!(app.wait_ready().await.status, StatusCode::OK);
    let r = app.get("/games").await;
    assert_eq!(r.status, StatusCode::OK);
    let games = r.json()["games"].as_array().expect("games").clone();
    (app, games)
}

#[tokio::test]
async fn the_catalog_lists_every_match_game_once() {
    let (_app, games) = catalog().await;
    let ids: Vec<&str> = games.iter().filter_map(|g| g["id"].as_str()).collect();
    for kind in MATCH_GAMES.all() {
        assert_eq!(ids.iter().filter(|&&id| id == kind.as_str()).count(), 1, "{kind}");
    }
    assert!(ids.contains(&"connect-four"));
    // The catalog's match games are the registry's, chess included; a
    // served game not (yet) played as a match says so with a null.
    let match_games = games.iter().filter(|g| g["endpoints"]["matches"] == "/matches").count();
    assert_eq!(match_games, MATCH_GAMES.all().len());
    let analysis_only = games.iter().filter(|g| g["endpoints"]["matches"].is_null()).count();
    assert_eq!(ids.len(), MATCH_GAMES.all().len() + analysis_only);
    assert!(ids.contains(&"chess"));
}

#[tokio::test]
async fn every_analysis_endpoint_in_the_catalog_is_served() {
    let (app, games) = catalog().await;
    for game in &games {
        let path = game["endpoints"]["analysis"].as_str().expect("analysis");
        // A max_ms that is no number is never a valid request (an empty
        // object is, for chess): a 400 or 422 from the endpoint itself, not
        // a 404.
        let r = app.post_json(path, &json!({"max_ms": "soon"})).await;
        assert!(
            r.status == StatusCode::BAD_REQUEST || r.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{path}: {}",
            r.status
        );
    }
}

#[tokio::test]
async fn every_review_endpoint_in_the_catalog_is_served() {
    let (app, games) = catalog().await;
    let mut served = 0;
    for game in &games {
        let Some(path) = game["endpoints"]["review"].as_str() else {
            continue;
        };
        assert_eq!(path, format!("/{}/review", game["id"].as_str().unwrap()));
        // No moves is a 400 (moves is required), not a 404.
        let r = app.post_json(path, &json!({})).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}");
        // An empty record is a review with no moves.
        let r = app.post_json(path, &json!({"moves": []})).await;
        assert_eq!(r.status, StatusCode::OK, "{path}: {}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.json()["moves"], json!([]));
        served += 1;
    }
    assert_eq!(
        served, 9,
        "pig, tictactoe, ishitori, connect-four, othello, chess, kalah, xiangqi and shogi have reviews"
    );
}

#[tokio::test]
async fn the_catalogs_defaults_are_what_a_new_match_fills_in() {
    let (app, games) = catalog().await;
    let mut checked = 0;
    for game in games.iter().filter(|g| g["endpoints"]["matches"] == "/matches") {
        let id = game["id"].as_str().expect("id");
        if !crate::helpers::available(game) {
            continue;
        }
        let r = app.post_json("/matches", &json!({"game": id})).await;
        assert_eq!(
            r.status,
            StatusCode::CREATED,
            "{id}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let options = r.json()["options"].clone();
        for option in game["options"].as_array().expect("options") {
            let name = option["name"].as_str().expect("name");
            if option["default"].is_null() {
                continue;
            }
            assert_eq!(options[name], option["default"], "{id}.{name}");
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} defaults checked");
}

#[tokio::test]
async fn the_catalogs_bounds_are_the_ones_the_matches_enforce() {
    let (app, games) = catalog().await;
    let mut checked = 0;
    for game in games.iter().filter(|g| g["endpoints"]["matches"] == "/matches") {
        let id = game["id"].as_str().expect("id");
        for option in game["options"].as_array().expect("options") {
            let name = option["name"].as_str().expect("name");
            let Some(max) = option["maximum"].as_u64().filter(|&m| m < 1_000_000) else {
                continue;
            };
            let r = app
                .post_json("/matches", &json!({"game": id, "options": {name: max + 1}}))
                .await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{id}.{name} = {}", max + 1);
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} bounds checked");
}

#[tokio::test]
async fn every_strategy_in_the_catalog_is_one_the_arena_accepts() {
    let (_app, games) = catalog().await;
    let mut checked = 0;
    let arena_games: Vec<&Value> = games
        .iter()
        .filter(|g| g["endpoints"]["matches"] == "/matches")
        .collect();
    for game in &arena_games {
        let id = game["id"].as_str().expect("id");
        let kind = ARENA_GAMES
            .find(id)
            .unwrap_or_else(|e| panic!("{id} is not an arena game: {e}"));
        for name in game["strategies"].as_array().expect("strategies") {
            let name = name.as_str().expect("name").replace('N', "3");
            assert!(Strategy::parse(kind, "a", &name).is_ok(), "{kind}: {name}");
            checked += 1;
        }
    }
    // best, random and level:N at least, for every game.
    assert!(checked >= 3 * arena_games.len(), "only {checked} strategies checked");
    // A game that is not played in the arena names no strategy.
    for game in games.iter().filter(|g| g["endpoints"]["matches"].is_null()) {
        assert_eq!(game["strategies"], json!([]), "{}", game["id"]);
    }
}

#[tokio::test]
async fn every_match_game_names_its_end_reasons_and_the_spec_lists_exactly_theirs() {
    let (_app, games) = catalog().await;
    let mut named = std::collections::BTreeSet::new();
    for game in &games {
        let reasons = game["end_reasons"].as_array().expect("end_reasons");
        let words: Vec<&str> = reasons.iter().filter_map(Value::as_str).collect();
        assert_eq!(words.len(), reasons.len(), "{}: reasons are words", game["id"]);
        let played = game["endpoints"]["matches"].is_string();
        assert_eq!(
            !words.is_empty(),
            played,
            "{}: a match game names its reasons",
            game["id"]
        );
        for word in words {
            assert!(
                !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}: {word:?} is not a snake_case word",
                game["id"]
            );
            named.insert(word.to_string());
        }
    }
    let spec: serde_yaml::Value = serde_yaml::from_str(kibitz::http::health::OPENAPI_YAML).expect("spec");
    let documented: std::collections::BTreeSet<String> = spec["components"]["schemas"]["MatchResult"]["properties"]
        ["reason"]["enum"]
        .as_sequence()
        .expect("the reason's enum")
        .iter()
        .filter_map(|w| w.as_str().map(str::to_string))
        .collect();
    assert_eq!(documented, named, "the spec's reasons are the games' own");
}
