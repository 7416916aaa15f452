//! `POST /backgammon/move` and `POST /backgammon/cube` through the router:
//! the plays every engine agrees on for the opening rolls, exact races
//! against a count written here, the cube, and the request's errors.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::game::backgammon::gnubg_support::gnubg;
use crate::helpers::{spawn_app, spawn_app_on, TestApp, TestDb};
use crate::matches::authorized;

const MOVE: &str = "/backgammon/move";
const CUBE: &str = "/backgammon/cube";
const START: &str = "4HPwATDgc/ABMA";

/// A board from the side to move: `mine` and `theirs` as (point, count),
/// each side's points in its own numbering (its ace point 1, as players
/// name them); the rest of each side's 15 borne off.
fn board(mine: &[(usize, i64)], theirs: &[(usize, i64)]) -> Value {
    let mut points = vec![0i64; 24];
    for &(p, n) in mine {
        points[p - 1] += n;
    }
    for &(p, n) in theirs {
        points[24 - p] -= n;
    }
    let off = |side: &[(usize, i64)]| 15 - side.iter().map(|&(_, n)| n).sum::<i64>();
    json!({"points": points, "bar": {"me": 0, "opponent": 0}, "off": {"me": off(mine), "opponent": off(theirs)}})
}

/// Steps as the answer writes them, `8/5 6/5` style, in the answer's order.
fn steps(play: &Value) -> Vec<(Value, Value)> {
    play.as_array()
        .expect("a play is a list")
        .iter()
        .map(|s| (s["from"].clone(), s["to"].clone()))
        .collect()
}

async fn best(app: &TestApp, request: Value) -> Value {
    app.post_ok(MOVE, &request).await
}

#[tokio::test]
async fn the_opening_rolls_get_the_plays_every_engine_agrees_on() {
    if gnubg().is_none() {
        return;
    }
    let app = spawn_app().await;
    // 3-1 makes the 5 point, 4-2 the 4 point, 6-1 the bar point.
    let cases = [
        ([3, 1], [(8, 5), (6, 5)]),
        ([4, 2], [(8, 4), (6, 4)]),
        ([6, 1], [(13, 7), (8, 7)]),
    ];
    for (dice, expected) in cases {
        let answer = best(&app, json!({"position": START, "dice": dice, "max_ms": 1000})).await;
        let mut played = steps(&answer["play"]);
        played.sort_by_key(|(from, _)| std::cmp::Reverse(from.as_i64()));
        let expected: Vec<(Value, Value)> = expected.iter().map(|&(f, t)| (json!(f), json!(t))).collect();
        assert_eq!(played, expected, "{dice:?}: {answer}");
        assert_eq!(answer["solved"], false);
        let moves = answer["moves"].as_array().unwrap();
        assert_eq!(moves[0]["play"], answer["play"]);
        assert_eq!(moves[0]["equity_loss"], 0.0);
        assert!(moves.iter().all(|m| m["equity_loss"].as_f64().unwrap() >= 0.0));
        let win = answer["probabilities"]["win"].as_f64().unwrap();
        assert!((0.45..0.6).contains(&win), "{answer}");
        assert_eq!(answer["evaluation"]["win_chance"].as_f64(), Some(win));
        assert_eq!(answer["evaluation"]["exact"], false);
        assert!(answer["equity"]["cubeful"].is_f64(), "{answer}");
    }
    // Every distinct opening play, as counted for gnubg's module: 16 for
    // 3-1 (its hint lists them all).
    let answer = best(&app, json!({"position": START, "dice": [3, 1]})).await;
    assert_eq!(answer["moves"].as_array().unwrap().len(), 16);
}

/// The mover's chance of winning with one checker on its 3 point against
/// the opponent's one checker on its 6 point, the opponent on roll:
/// counted here over the 36 rolls (the opponent misses with a total
/// under 6, no 6 and no double of 2 or more; the mover then bears off
/// with any roll).
fn three_against_six() -> f64 {
    let mut misses = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            let pips = if a == b { 4 * a } else { a + b };
            if pips < 6 && a != 6 && b != 6 {
                misses += 1;
            }
        }
    }
    f64::from(misses) / 36.0
}

#[tokio::test]
async fn a_small_race_is_exact_and_equal_to_a_count_of_the_rolls() {
    // Without gnubg too: the exact table is kibitz's own.
    let app = spawn_app_on(TestDb::Sqlite, |config| {
        let settings: &mut kibitz::games::backgammon::settings::BackgammonSettings =
            config.games.of_mut().expect("backgammon's settings");
        settings.gnubg_path = Some("/nonexistent/gnubg".into());
    })
    .await;
    // 6-point checker rolled 2-1: every play leaves it on the 3 point.
    let answer = best(&app, json!({"board": board(&[(6, 1)], &[(6, 1)]), "dice": [2, 1]})).await;
    assert_eq!(answer["solved"], true, "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "one distinct resulting position: {answer}");
    let expected = three_against_six();
    assert_eq!(expected, 0.25);
    let win = answer["probabilities"]["win"].as_f64().unwrap();
    assert!((win - expected).abs() < 1e-12, "{win} against {expected}");
    assert!((answer["equity"]["cubeless"].as_f64().unwrap() - (2.0 * expected - 1.0)).abs() < 1e-12);
    assert!(answer["equity"]["cubeful"].is_null());
    assert_eq!(answer["evaluation"]["exact"], true);
    assert!(
        answer["evaluation"]["outcome"].is_null(),
        "a chance of 1/4 is no outcome"
    );

    // A roll that bears both checkers off wins outright; the other play
    // (2/1 1/off) leaves a checker and loses to a sure opponent.
    let answer = best(
        &app,
        json!({"board": board(&[(1, 1), (2, 1)], &[(1, 2)]), "dice": [2, 1]}),
    )
    .await;
    assert_eq!(answer["solved"], true);
    assert_eq!(
        steps(&answer["play"]),
        vec![(json!(2), json!("off")), (json!(1), json!("off"))]
    );
    assert_eq!(answer["evaluation"]["outcome"], "win");
    let worst = answer["moves"].as_array().unwrap().last().cloned().unwrap();
    assert_eq!(worst["probabilities"]["win"], 0.0, "{worst}");
    assert_eq!(worst["equity_loss"], 2.0, "{worst}");

    // A position the table does not cover needs gnubg: 503, how to install it.
    let r = app.post_json(MOVE, &json!({"position": START, "dice": [3, 1]})).await;
    let detail = r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(detail.contains("apt-get install gnubg"), "{detail}");
    let catalog: Value = app.get("/games").await.json();
    let entry = catalog["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "backgammon")
        .cloned();
    assert_eq!(entry.expect("backgammon in the catalog")["available"], false);
}

#[tokio::test]
async fn the_cube_decision_says_the_action_the_response_and_each_equity() {
    if gnubg().is_none() {
        return;
    }
    let app = spawn_app().await;
    let r = app.post_json(CUBE, &json!({"position": START, "max_ms": 1000})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let answer = r.json();
    assert_eq!(answer["action"], "no_double", "{answer}");
    assert_eq!(answer["response"], "take", "{answer}");
    assert_eq!(answer["available"], true);
    let equities = &answer["equities"];
    assert_eq!(
        equities["double_pass"], 1.0,
        "a pass gives the doubler one point: {answer}"
    );
    assert!(equities["no_double"].as_f64().unwrap() > equities["double_take"].as_f64().unwrap());

    // The Crawford game: nobody may double.
    let crawford =
        json!({"position": START, "match": {"length": 5, "score": {"me": 4, "opponent": 2}, "crawford": true}});
    let answer = app.post_json(CUBE, &crawford).await.json();
    assert_eq!(answer["available"], false, "{answer}");
    assert!(answer["response"].is_null(), "{answer}");
    assert!(answer["equity"]["match_winning_chance"].as_f64().is_some(), "{answer}");
}

#[tokio::test]
async fn bad_positions_dice_cubes_and_scores_are_422_naming_the_field() {
    let app = spawn_app().await;
    let start = board(&[(24, 2), (13, 5), (8, 3), (6, 5)], &[(24, 2), (13, 5), (8, 3), (6, 5)]);
    let mut sixteen = start.clone();
    sixteen["points"][5] = json!(6);
    let cases = [
        (MOVE, json!({"dice": [3, 1]}), "position"),
        (
            MOVE,
            json!({"position": START, "board": start, "dice": [3, 1]}),
            "position",
        ),
        (MOVE, json!({"position": "not an id", "dice": [3, 1]}), "position"),
        (MOVE, json!({"board": sixteen, "dice": [3, 1]}), "15"),
        (MOVE, json!({"position": START, "dice": [0, 3]}), "dice"),
        (MOVE, json!({"position": START, "dice": [3, 7]}), "dice"),
        (MOVE, json!({"position": START, "dice": [3]}), "dice"),
        (MOVE, json!({"position": START}), "dice"),
        (CUBE, json!({"position": START, "dice": [3, 1]}), "dice"),
        (
            MOVE,
            json!({"position": START, "dice": [3, 1], "cube": {"value": 3, "owner": "me"}}),
            "cube.value",
        ),
        (
            MOVE,
            json!({"position": START, "dice": [3, 1], "cube": {"value": 2, "owner": "centre"}}),
            "cube.owner",
        ),
        (
            MOVE,
            json!({"position": START, "dice": [3, 1], "match": {"length": 5, "score": {"me": 5, "opponent": 0}}}),
            "match.score.me",
        ),
        (
            MOVE,
            json!({"position": START, "dice": [3, 1], "jacoby": true, "match": {"length": 5, "score": {"me": 0, "opponent": 0}}}),
            "jacoby",
        ),
        (MOVE, json!({"board": board(&[], &[(1, 2)]), "dice": [3, 1]}), "over"),
    ];
    for (path, body, named) in cases {
        let r = app.post_json(path, &body).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{body}: {detail}");
    }
}

/// Plays a move in a match and returns the match (must be 200).
async fn play(app: &TestApp, m: &Value, token: &str, mv: Value) -> Value {
    let path = format!("/matches/{}/moves", m["id"].as_str().unwrap());
    let body = json!({"ply": m["ply"], "move": mv});
    let r = authorized(app, Method::POST, &path, Some(token), Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{body}: {}", String::from_utf8_lossy(&r.body));
    r.json()
}

#[tokio::test]
async fn a_match_with_the_cube_plays_to_its_length_and_is_reviewed_in_equity() {
    if gnubg().is_none() {
        return;
    }
    let app = spawn_app().await;
    let r = app
        .post_json(
            "/matches",
            &json!({"game": "backgammon", "options": {"match_length": 3}, "ai": {"level": 5}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&r.body));
    let mut m = r.json();
    let token = m["token"].as_str().unwrap().to_string();
    // The opening roll is the history's first entry: two different dice.
    let opening = m["history"][0]["roll"].as_u64().expect("the opening roll");
    assert_ne!(opening / 10, opening % 10, "{m}");
    // A play that is not one of the roll's is refused, the match unchanged.
    if m["state"]["awaiting"] == "play" {
        let path = format!("/matches/{}/moves", m["id"].as_str().unwrap());
        let bad = json!({"ply": m["ply"], "move": {"play": [{"from": 1, "to": "off"}]}});
        let r = authorized(&app, Method::POST, &path, Some(&token), Some(&bad)).await;
        assert!(r.status.is_client_error(), "{}", String::from_utf8_lossy(&r.body));
    }
    let mut doubled = false;
    for _ in 0..2000 {
        if m["status"] == "finished" {
            break;
        }
        let legal = m["legal_moves"].as_array().expect("legal moves").clone();
        let state = &m["state"];
        // Pips agree with the board.
        let points = state["board"]["points"].as_array().unwrap();
        let mine: i64 = points
            .iter()
            .enumerate()
            .map(|(i, n)| n.as_i64().unwrap().max(0) * (i as i64 + 1))
            .sum();
        let bar = state["board"]["bar"]["me"].as_i64().unwrap();
        assert_eq!(state["pips"]["me"].as_i64(), Some(mine + 25 * bar), "{state}");
        let mv = match state["awaiting"].as_str() {
            Some("cube_or_roll") => {
                assert!(
                    legal.contains(&json!({"roll": true})) && legal.contains(&json!({"double": true})),
                    "{m}"
                );
                if !doubled && state["match"]["crawford"] == false {
                    doubled = true;
                    json!({"double": true})
                } else {
                    json!({"roll": true})
                }
            }
            Some("cube_response") => json!({"take": true}),
            Some("play") => {
                // The first listed play, sent with the dice thrown.
                let mut play = legal[0].clone();
                assert_eq!(play["dice"], state["dice"], "{play}");
                play.as_object_mut().unwrap().remove("dice");
                play
            }
            other => panic!("awaiting {other:?} in {m}"),
        };
        m = play(&app, &m, &token, mv).await;
    }
    assert_eq!(m["status"], "finished", "{m}");
    let score = &m["result"]["scores"];
    assert!(
        score["human"].as_i64().unwrap().max(score["ai"].as_i64().unwrap()) >= 3,
        "{m}"
    );
    assert!(["borne_off", "gammon", "backgammon", "double_passed"].contains(&m["result"]["reason"].as_str().unwrap()));

    let path = format!("/matches/{}/review", m["id"].as_str().unwrap());
    let r = authorized(&app, Method::GET, &path, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review = r.json();
    let entries = review["moves"].as_array().unwrap();
    assert!(
        entries
            .iter()
            .all(|e| e["equity_loss"].as_f64().is_some_and(|l| l >= 0.0)),
        "{review}"
    );
    // The judgments follow gnubg's thresholds on the equity lost.
    for e in entries.iter().filter(|e| e["judgment"] != "best") {
        let lost = e["equity_loss"].as_f64().unwrap();
        let expected = match lost {
            l if l < 0.04 => "good",
            l if l < 0.08 => "inaccuracy",
            l if l < 0.16 => "mistake",
            _ => "blunder",
        };
        assert_eq!(e["judgment"], expected, "{e}");
    }
    for side in ["human", "ai"] {
        let player = &review["players"][side];
        assert!(player["error_rate"].as_f64().is_some_and(|r| r >= 0.0), "{player}");
        assert!(player["luck"].as_f64().is_some(), "{player}");
    }
    // The person played the first listed play every time: some of those
    // lose equity against the AI's own choices.
    let human_rate = review["players"]["human"]["error_rate"].as_f64().unwrap();
    let ai_rate = review["players"]["ai"]["error_rate"].as_f64().unwrap();
    assert!(human_rate > ai_rate, "{human_rate} against {ai_rate}");
}
