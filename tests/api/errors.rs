//! Every error in the contract, as problem+json.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn malformed_json_is_a_400_problem() {
    let app = spawn_app().await;
    let r = app
        .post_raw("/pig/decision", Some("application/json"), "{\"my_score\": ")
        .await;
    let detail = r.assert_problem(StatusCode::BAD_REQUEST);
    assert!(detail.contains("not valid JSON"), "{detail}");
}

#[tokio::test]
async fn a_missing_field_is_a_400_that_names_it() {
    let app = spawn_app().await;
    let r = app
        .post_json("/pig/decision", &json!({"my_score": 1, "turn_total": 0}))
        .await;
    let detail = r.assert_problem(StatusCode::BAD_REQUEST);
    assert!(detail.contains("opponent_score"), "{detail}");
}

#[tokio::test]
async fn a_wrong_type_is_a_400_that_names_the_field() {
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/pig/decision",
            &json!({"my_score": "ten", "opponent_score": 0, "turn_total": 0}),
        )
        .await;
    let detail = r.assert_problem(StatusCode::BAD_REQUEST);
    assert!(detail.contains("my_score"), "{detail}");
}

#[tokio::test]
async fn a_body_that_is_not_declared_json_is_a_415() {
    let app = spawn_app().await;
    let body = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0}).to_string();
    app.post_raw("/pig/decision", Some("text/plain"), body.clone())
        .await
        .assert_problem(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    app.post_raw("/pig/decision", None, body)
        .await
        .assert_problem(StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413() {
    let app = spawn_app().await;
    let padding = "x".repeat(64 * 1024);
    let body = format!("{{\"my_score\": 0, \"opponent_score\": 0, \"turn_total\": 0, \"pad\": \"{padding}\"}}");
    app.post_raw("/pig/decision", Some("application/json"), body)
        .await
        .assert_problem(StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn an_unknown_path_is_a_404_problem() {
    let app = spawn_app().await;
    let detail = app.get("/no/such/thing").await.assert_problem(StatusCode::NOT_FOUND);
    assert!(detail.contains("/no/such/thing"), "{detail}");
}

#[tokio::test]
async fn a_wrong_method_is_a_405_problem_that_lists_the_allowed_ones() {
    let app = spawn_app().await;
    let r = app.get("/pig/decision").await;
    let detail = r.assert_problem(StatusCode::METHOD_NOT_ALLOWED);
    assert!(detail.contains("POST"), "{detail}");
    assert!(r
        .headers
        .get("allow")
        .is_some_and(|v| v.to_str().unwrap().contains("POST")));
}

#[tokio::test]
async fn out_of_range_parameters_are_422_problems_naming_the_field() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"my_score": -1, "opponent_score": 0, "turn_total": 0}),
            "my_score",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": -5}),
            "turn_total",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": 0}),
            "goal",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": 100000}),
            "goal",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "die_sides": 1}),
            "die_sides",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "die_sides": 13}),
            "die_sides",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "variant": "spicy"}),
            "variant",
        ),
        (
            json!({"my_score": 0, "opponent_score": 0, "turn_total": 100000}),
            "turn_total",
        ),
    ];
    for (body, field) in cases {
        let detail = app
            .post_json("/pig/decision", &body)
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(field), "{body}: {detail}");
    }
}

#[tokio::test]
async fn a_finished_game_is_a_422() {
    let app = spawn_app().await;
    for body in [
        json!({"my_score": 100, "opponent_score": 0, "turn_total": 0}),
        json!({"my_score": 3, "opponent_score": 120, "turn_total": 0}),
    ] {
        let detail = app
            .post_json("/pig/decision", &body)
            .await
            .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains("over"), "{detail}");
    }
}

#[tokio::test]
async fn huge_or_fractional_numbers_are_refused_not_crashed_on() {
    let app = spawn_app().await;
    for raw in [
        r#"{"my_score": 1e400, "opponent_score": 0, "turn_total": 0}"#,
        r#"{"my_score": 99999999999999999999999, "opponent_score": 0, "turn_total": 0}"#,
        r#"{"my_score": 1.5, "opponent_score": 0, "turn_total": 0}"#,
        r#"[1, 2, 3]"#,
        r#"null"#,
    ] {
        let r = app.post_raw("/pig/decision", Some("application/json"), raw).await;
        r.assert_problem(StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn a_bad_query_string_is_a_400_problem() {
    let app = spawn_app().await;
    app.get("/pig/policy?goal=lots")
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
    app.get("/pig/policy?goal=0")
        .await
        .assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
}

/// A body as raw text: serde_json's `json!` cannot name a key twice.
async fn post_text(app: &crate::helpers::TestApp, path: &str, body: &str) -> crate::helpers::TestResponse {
    app.post_raw(path, Some("application/json"), body.to_string()).await
}

#[tokio::test]
async fn a_key_named_twice_is_a_400_naming_it_inside_objects_as_at_the_top() {
    let app = crate::helpers::spawn_ready_app().await;
    // At the top, as before.
    let r = post_text(&app, "/matches", r#"{"game": "ishitori", "game": "pig"}"#).await;
    let detail = r.assert_problem(StatusCode::BAD_REQUEST);
    assert!(detail.contains("duplicate field `game`"), "{detail}");
    // Inside the parts kept as JSON, at any depth.
    let created = app.post_json("/matches", &json!({"game": "ishitori"})).await.json();
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    let moves = format!("/matches/{id}/moves");
    let play = |body: &'static str| {
        let request = axum::http::Request::post(&moves)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::from(body))
            .unwrap();
        app.send(request)
    };
    for (path, body, key) in [
        (
            "/matches",
            r#"{"game": "ishitori", "options": {"remaining": 5, "remaining": 9}}"#,
            "remaining",
        ),
        (
            "/matches",
            r#"{"game": "ishitori", "ai": {"level": 1, "level": 10}}"#,
            "level",
        ),
        (
            "/arena",
            r#"{"game": "ishitori", "a": "best", "b": "random", "games": 2, "options": {"take": [1], "take": [2]}}"#,
            "take",
        ),
        (
            "/tictactoe/review",
            r#"{"moves": [{"row": 1, "col": 1, "col": 2}]}"#,
            "col",
        ),
        (
            "/tictactoe/review",
            r#"{"options": {"rows": 3, "cols": 3, "rows": 4}, "moves": []}"#,
            "rows",
        ),
    ] {
        let detail = post_text(&app, path, body)
            .await
            .assert_problem(StatusCode::BAD_REQUEST);
        assert!(
            detail.contains(&format!("duplicate field `{key}`")),
            "{path} {body}: {detail}"
        );
    }
    let detail = play(r#"{"ply": 0, "move": {"take": 1, "take": 3}}"#)
        .await
        .assert_problem(StatusCode::BAD_REQUEST);
    assert!(detail.contains("duplicate field `take`"), "{detail}");
    // Nothing was played: the same move once is.
    let played = play(r#"{"ply": 0, "move": {"take": 1}}"#).await;
    assert_eq!(
        played.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&played.body)
    );
}
