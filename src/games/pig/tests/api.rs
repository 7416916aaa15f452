//! POST /pig/decision and GET /pig/policy against the solver and the rules.

use axum::http::StatusCode;
use kibitz::games::pig::solve::solve;
use kibitz::games::pig::{PigRules, Variant};
use serde_json::{json, Value};

use crate::helpers::spawn_app;

fn f(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[tokio::test]
async fn the_opening_decision_is_to_roll_with_the_published_probability() {
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": 0, "opponent_score": 0, "turn_total": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let body = r.json();
    assert_eq!(body["action"], "roll");
    assert!((f(&body, "win_probability") - 0.530592725274).abs() < 1e-12, "{body}");
    assert_eq!(body["goal"], 100);
    assert_eq!(body["die_sides"], 6);
    assert_eq!(body["variant"], "standard");
}

#[tokio::test]
async fn decisions_agree_with_a_fresh_solve_and_with_the_optimality_rule() {
    let app = spawn_app().await;
    let rules = PigRules::new(100, 6, Variant::Progressive, 200).unwrap();
    let table = solve(&rules);
    for (i, j, k) in [
        (0u32, 0u32, 0u32),
        (50, 80, 12),
        (99, 0, 0),
        (10, 95, 30),
        (75, 75, 20),
        (3, 97, 1),
    ] {
        let body = app
            .post_json(
                "/pig/decision",
                &json!({"my_score": i, "opponent_score": j, "turn_total": k, "variant": "progressive"}),
            )
            .await
            .json();
        let (roll, hold) = (f(&body, "roll_win_probability"), f(&body, "hold_win_probability"));
        let expected = table.action_values(i, j, k);
        assert!(
            (roll - expected.0).abs() < 1e-12 && (hold - expected.1).abs() < 1e-12,
            "{body}"
        );
        assert!((f(&body, "win_probability") - roll.max(hold)).abs() < 1e-15, "{body}");
        let action = if roll - hold >= 1e-12 { "roll" } else { "hold" };
        assert_eq!(body["action"], action, "{body}");
        assert_eq!(body["variant"], "progressive");
    }
}

#[tokio::test]
async fn a_winning_hold_is_certain() {
    let app = spawn_app().await;
    let body = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": 90, "opponent_score": 99, "turn_total": 15}),
        )
        .await
        .json();
    assert_eq!(body["action"], "hold");
    assert_eq!(f(&body, "win_probability"), 1.0);
    assert_eq!(f(&body, "hold_win_probability"), 1.0);
    assert_eq!(body["hold_at"], 15);
}

#[tokio::test]
async fn hold_at_is_the_first_turn_total_where_holding_is_optimal() {
    let app = spawn_app().await;
    let rules = PigRules::new(100, 6, Variant::Standard, 200).unwrap();
    let table = solve(&rules);
    for (i, j) in [(0u32, 0u32), (30, 60), (60, 30), (85, 90)] {
        let body = app
            .post_json(
                "/pig/decision",
                &json!({"my_score": i, "opponent_score": j, "turn_total": 0}),
            )
            .await
            .json();
        let at = body["hold_at"].as_u64().unwrap() as u32;
        let (roll, hold) = table.action_values(i, j, at);
        assert!(hold >= roll - 1e-12 || i + at >= 100, "({i},{j}) hold_at {at}");
        for k in 0..at {
            let (roll, hold) = table.action_values(i, j, k);
            assert!(roll - hold >= 1e-12, "({i},{j}) should roll at {k}");
        }
    }
}

#[tokio::test]
async fn other_goals_and_dice_are_solved_on_first_request() {
    let app = spawn_app().await;
    let before = kibitz::games::pig::tables::shared_tables(&app.state.solvers).solve_count();
    let body = json!({"my_score": 3, "opponent_score": 7, "turn_total": 4, "goal": 25, "die_sides": 4});
    let first = app.post_json("/pig/decision", &body).await.json();
    let second = app.post_json("/pig/decision", &body).await.json();
    assert_eq!(first, second);
    assert_eq!(
        kibitz::games::pig::tables::shared_tables(&app.state.solvers).solve_count(),
        before + 1
    );
    let table = solve(&PigRules::new(25, 4, Variant::Standard, 200).unwrap());
    let (roll, hold) = table.action_values(3, 7, 4);
    assert!((f(&first, "win_probability") - roll.max(hold)).abs() < 1e-12);
    assert_eq!(first["goal"], 25);
}

#[tokio::test]
async fn the_policy_lists_roll_and_hold_ranges_that_match_decisions() {
    let app = spawn_app().await;
    let r = app.get("/pig/policy?goal=30&die_sides=6&variant=standard").await;
    assert_eq!(r.status, StatusCode::OK);
    let body = r.json();
    let policy = body["policy"].as_array().unwrap();
    assert_eq!(policy.len(), 30);
    for (i, j) in [(0usize, 0usize), (10, 25), (29, 29), (25, 3)] {
        let cell = &policy[i][j];
        let mut covered = vec![None; 30 - i];
        for (action, ranges) in [("roll", &cell["roll"]), ("hold", &cell["hold"])] {
            for range in ranges.as_array().unwrap() {
                let (lo, hi) = (range[0].as_u64().unwrap() as usize, range[1].as_u64().unwrap() as usize);
                for slot in &mut covered[lo..=hi] {
                    assert!(slot.is_none(), "overlap at ({i},{j})");
                    *slot = Some(action);
                }
            }
        }
        for (k, action) in covered.iter().enumerate() {
            let decided = app
                .post_json(
                    "/pig/decision",
                    &json!({"my_score": i, "opponent_score": j, "turn_total": k, "goal": 30}),
                )
                .await
                .json();
            assert_eq!(Some(decided["action"].as_str().unwrap()), *action, "({i},{j},{k})");
        }
    }
}

#[tokio::test]
async fn the_policy_is_gzipped_when_the_client_accepts_it() {
    let app = spawn_app().await;
    let request = axum::http::Request::get("/pig/policy")
        .header("accept-encoding", "gzip")
        .body(axum::body::Body::empty())
        .unwrap();
    let r = app.send(request).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers.get("content-encoding").unwrap(), "gzip");
}
