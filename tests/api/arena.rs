//! POST /arena: the report's shape, exact Pig, errors that name the field
//! or the bound, and repeatability.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_on, TestDb};

fn record_total(record: &Value) -> u64 {
    ["wins", "draws", "losses"]
        .iter()
        .map(|k| record[k].as_u64().unwrap())
        .sum()
}

#[tokio::test]
async fn arena_reports_records_share_interval_and_margin() {
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "pig", "a": "optimal", "b": "hold_at:20", "games": 40, "seed": 7, "options": {"goal": 30}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(body["game"], "pig");
    assert_eq!(body["games"], 40);
    assert_eq!(body["a"]["strategy"], "optimal");
    assert_eq!(body["b"]["strategy"], "hold_at:20");
    assert_eq!(record_total(&body["a"]), 40);
    assert_eq!(body["a"]["wins"], body["b"]["losses"]);
    assert_eq!(body["a"]["draws"], 0, "Pig has no draws");
    let share = body["a_share"].as_f64().unwrap();
    assert_eq!(share, body["a"]["points"].as_f64().unwrap() / 40.0);
    let ci = body["a_share_ci95"].as_array().unwrap();
    let (low, high) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(low < share && share < high, "{low} {share} {high}");
    assert!(body["mean_margin"].is_f64());
    // A moves first in the odd-numbered games: half of 40.
    assert_eq!(record_total(&body["seats"]["a_first"]), 20);
    assert_eq!(record_total(&body["seats"]["a_second"]), 20);
    assert!(body.get("exact").is_none());
}

#[tokio::test]
async fn arena_exact_pig_gives_the_reference_probabilities() {
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "pig", "a": "optimal", "b": "hold_at:20", "exact": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    let exact = &body["exact"];
    assert!((exact["a_first"].as_f64().unwrap() - 0.5715).abs() < 5e-5, "{exact}");
    assert!((exact["a_second"].as_f64().unwrap() - 0.5083).abs() < 5e-5, "{exact}");
    assert_eq!(body["games"], 0);
    assert!(body["a_share"].is_null());
}

#[tokio::test]
async fn arena_games_without_scores_have_no_margin() {
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "tictactoe", "a": "perfect", "b": "random", "games": 10}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert!(body["mean_margin"].is_null());
    assert_eq!(body["a"]["losses"], 0, "perfect play never loses: {body}");
}

#[tokio::test]
async fn arena_plays_connect_four_by_the_match_ais_levels() {
    let app = spawn_app().await;
    let request = json!({"game": "connect-four", "a": "best", "b": "level:1", "games": 4, "seed": 5, "options": {"cols": 5, "rows": 4}});
    let r = app.post_json("/arena", &request).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(body["game"], "connect-four");
    assert_eq!(
        (body["a"]["strategy"].as_str(), body["b"]["strategy"].as_str()),
        (Some("best"), Some("level:1"))
    );
    assert_eq!(record_total(&body["a"]), 4);
    assert!(body["mean_margin"].is_null());
    assert_eq!(
        app.post_json("/arena", &request).await.json(),
        body,
        "same seed, same series"
    );
    let r = app
        .post_json(
            "/arena",
            &json!({"game": "connect-four", "a": "greedy", "b": "random", "games": 1}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("best, random, level:N"), "{detail}");
}

#[tokio::test]
async fn arena_same_seed_same_result() {
    let app = spawn_app().await;
    let request = json!({"game": "nine-square", "a": "best", "b": "greedy", "games": 2, "seed": 11});
    let first = app.post_json("/arena", &request).await;
    assert_eq!(first.status, StatusCode::OK, "{}", String::from_utf8_lossy(&first.body));
    let second = app.post_json("/arena", &request).await;
    assert_eq!(first.json(), second.json());
    let random = json!({"game": "pig", "a": "random", "b": "kper", "games": 30, "seed": 3});
    let one = app.post_json("/arena", &random).await.json();
    assert_eq!(one, app.post_json("/arena", &random).await.json());
    let other = app
        .post_json(
            "/arena",
            &json!({"game": "pig", "a": "random", "b": "kper", "games": 30, "seed": 4}),
        )
        .await
        .json();
    assert_ne!(one["mean_margin"], other["mean_margin"], "another seed, other dice");
}

#[tokio::test]
async fn arena_refuses_unknown_games_strategies_and_options_naming_them() {
    let app = spawn_app().await;
    let cases = [
        (json!({"game": "go", "a": "best", "b": "random", "games": 1}), "game"),
        (
            json!({"game": "pig", "a": "greedy", "b": "random", "games": 1}),
            "a: \"greedy\"",
        ),
        (
            json!({"game": "pig", "a": "optimal", "b": "hold_at:0", "games": 1}),
            "b: \"hold_at:0\"",
        ),
        (
            json!({"game": "tictactoe", "a": "level:11", "b": "random", "games": 1}),
            "level:N",
        ),
        (
            json!({"game": "pig", "a": "optimal", "b": "kper", "games": 1, "options": {"goal": 0}}),
            "goal",
        ),
        (
            json!({"game": "pig", "a": "optimal", "b": "kper", "games": 1, "options": {"sides": 6}}),
            "options.sides",
        ),
        (
            json!({"game": "tictactoe", "a": "perfect", "b": "random", "exact": true}),
            "exact",
        ),
        (json!({"game": "pig", "a": "optimal", "b": "kper"}), "games"),
        (json!({"game": "pig", "a": "optimal", "b": "kper", "games": 0}), "games"),
    ];
    for (request, named) in cases {
        let r = app.post_json("/arena", &request).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{request}: {detail}");
    }
}

#[tokio::test]
async fn arena_refuses_malformed_requests_with_400() {
    let app = spawn_app().await;
    for request in [
        json!({"game": "pig", "a": "optimal"}),
        json!({"game": "pig", "a": "optimal", "b": "kper", "games": -1}),
        json!({"game": "pig", "a": "optimal", "b": "kper", "games": "ten"}),
        json!({"game": "pig", "a": 3, "b": "kper", "games": 1}),
    ] {
        app.post_json("/arena", &request)
            .await
            .assert_problem(StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn arena_over_a_bound_is_422_naming_the_bound() {
    let app = spawn_app_on(TestDb::Sqlite, |c| {
        c.arena_max_games = 50;
        c.arena_max_total_ms = 1;
    })
    .await;
    let too_many = app
        .post_json(
            "/arena",
            &json!({"game": "pig", "a": "optimal", "b": "kper", "games": 51}),
        )
        .await;
    let detail = too_many.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("arena_max_games = 50"), "{detail}");
    let too_long = app
        .post_json(
            "/arena",
            &json!({"game": "nine-square", "a": "best", "b": "best", "games": 50}),
        )
        .await;
    let detail = too_long.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("arena_max_total_ms = 1 ms"), "{detail}");
}
