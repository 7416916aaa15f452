//! Shogi over HTTP against a real Fairy-Stockfish: `POST /shogi/move`,
//! its streams, `/analyze`, matches, and the server without its engine.
//! Fairy-Stockfish is found where the server finds it; the engine tests
//! fail without it unless the run chose to skip them
//! (support/fairy_stockfish.rs).

use axum::http::StatusCode;
use kibitz::games::shogi::rules::ShogiState;
use serde_json::{json, Value};

use crate::fairy::{
    assert_answer, assert_stream, available, best, get_authorized, post_authorized, post_ndjson, ENGINE_LOCK,
};
use crate::helpers::{spawn_app, spawn_app_on, spawn_ready_app, TestDb};

const PATH: &str = "/shogi/move";
const SIDES: [&str; 2] = ["sente", "gote"];
/// A gold in hand and a pawn on 5c: G*5b mates at once.
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

/// kibitz's legal moves after `moves` from `fen`.
fn legal(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
    let game = ShogiState::from_sfen_and_moves(fen, moves).expect("a legal game");
    game.position().legal_moves().iter().map(|m| m.notation()).collect()
}

#[tokio::test]
async fn the_engines_move_is_legal_by_kibitzs_rules_with_the_contracts_shape() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let answer = best(&app, PATH, &json!({"max_ms": 300})).await;
    assert_answer(&answer, SIDES, &legal(None, &[]));
    assert_eq!(answer["player"], "sente");
    let moves = ["7g7f", "3c3d", "8h2b+"];
    let answer = best(&app, PATH, &json!({"moves": moves, "max_ms": 300, "multi_pv": 3})).await;
    assert_answer(&answer, SIDES, &legal(None, &moves));
    assert_eq!(answer["player"], "gote");
    assert_eq!(answer["pvs"].as_array().map(Vec::len), Some(3), "{answer}");
    // Every line also comes in the form players write, as kibitz's rules
    // write it, and the move is the first line's first.
    let after = kibitz::games::shogi::rules::ShogiState::from_sfen_and_moves(None, &moves).expect("legal");
    for pv in answer["pvs"].as_array().expect("pvs") {
        let line: Vec<String> = serde_json::from_value(pv["moves"].clone()).expect("moves");
        let readable: Vec<String> = serde_json::from_value(pv["readable"].clone()).expect("readable");
        assert_eq!(
            readable,
            kibitz::games::shogi::western::western_line(after.position(), &line),
            "{pv}"
        );
    }
    assert_eq!(answer["move"]["readable"], answer["pvs"][0]["readable"][0], "{answer}");
}

#[tokio::test]
async fn a_mate_by_a_drop_is_found_and_proved() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let answer = best(
        &app,
        PATH,
        &json!({"position": MATE_IN_ONE, "depth": 8, "max_ms": 3000}),
    )
    .await;
    assert_answer(&answer, SIDES, &legal(Some(MATE_IN_ONE), &[]));
    assert_eq!(answer["score"], json!({"mate": 1}), "{answer}");
    assert_eq!(answer["solved"], true);
    assert_eq!(answer["evaluation"]["outcome"], "win");
    assert_eq!(answer["evaluation"]["win_chance"], 1.0);
    // The mating line, played by kibitz's rules, ends the game: asking
    // about the position after it is a 422.
    let line: Vec<String> = answer["pvs"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let game = ShogiState::from_sfen_and_moves(Some(MATE_IN_ONE), &line).unwrap();
    assert!(game.end().is_some(), "{line:?} mates");
    let r = app
        .post_json(PATH, &json!({"position": MATE_IN_ONE, "moves": line}))
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("over"), "{detail}");
}

#[tokio::test]
async fn bad_positions_moves_and_limits_are_422s_naming_what_is_wrong() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"position": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"}),
            "position",
        ),
        (json!({"moves": ["7g7f", "7g7f"]}), "moves[1]"),
        (json!({"multi_pv": 6}), "multi_pv"),
        (json!({"depth": 0}), "depth"),
    ];
    for (request, named) in cases {
        let r = app.post_json(PATH, &request).await;
        let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(detail.contains(named), "{request}: {detail}");
    }
}

#[tokio::test]
async fn a_streamed_search_sends_a_line_per_depth_each_with_its_evaluation() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let r = post_ndjson(&app, PATH, &json!({"moves": ["7g7f"], "depth": 6, "max_ms": 5000})).await;
    let lines = assert_stream(&r);
    let mut last = lines.last().unwrap().clone();
    last.as_object_mut().unwrap().remove("final");
    assert_answer(&last, SIDES, &legal(None, &["7g7f"]));
    assert_eq!(last["depth"], 6);
}

#[tokio::test]
async fn shogi_positions_in_a_batch_are_answered_like_the_endpoint() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let position = json!({"game": "shogi", "position": MATE_IN_ONE, "depth": 6, "max_ms": 2000});
    let r = app
        .post_json(
            "/analyze",
            &json!({"positions": [position, {"game": "shogi", "moves": ["7g7e"]}], "max_ms": 5000}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let results: Value = r.json();
    let results = results["results"].as_array().expect("results");
    assert_eq!(results[0]["score"], json!({"mate": 1}), "{}", results[0]);
    assert_eq!(results[1]["error"]["status"], 422, "{}", results[1]);
    let alone = best(
        &app,
        PATH,
        &json!({"position": MATE_IN_ONE, "depth": 6, "max_ms": 2000}),
    )
    .await;
    assert_eq!(results[0], alone);
}

#[tokio::test]
async fn a_match_against_the_engine_answers_with_a_legal_move() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_ready_app().await;
    let created = app
        .post_json("/matches", &json!({"game": "shogi", "ai": {"level": 1}}))
        .await;
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    let created: Value = created.json();
    assert_eq!(created["state"]["to_move"], "sente");
    assert_eq!(created["state"]["human_plays"], "sente");
    assert_eq!(created["state"]["hands"], json!({"sente": {}, "gote": {}}));
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let r = post_authorized(
        &app,
        &format!("/matches/{id}/moves"),
        token,
        &json!({"ply": 0, "move": {"usi": "7g7f"}}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let after: Value = r.json();
    let moves = after["state"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{after}");
    let reply = moves[1].as_str().unwrap();
    assert!(legal(None, &["7g7f"]).iter().any(|m| m == reply), "{reply}");
    assert_eq!(after["history"][1]["move"], json!({"usi": reply}));
}

#[tokio::test]
async fn without_fairy_stockfish_shogi_is_unavailable_and_says_how_to_install_it() {
    let app = spawn_app_on(TestDb::Sqlite, |config| {
        let settings: &mut kibitz::games::shogi::settings::ShogiSettings = config
            .games
            .of_mut()
            .expect("shogi's settings are parsed with the server's");
        settings.shogi_engine_path = Some("/nonexistent/fairy-stockfish".into());
    })
    .await;
    let catalog: Value = app.get("/games").await.json();
    let entry = catalog["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "shogi")
        .cloned()
        .expect("shogi in the catalog");
    assert_eq!(entry["available"], false);
    let r = app.post_json(PATH, &json!({})).await;
    let detail = r.assert_problem(StatusCode::SERVICE_UNAVAILABLE);
    assert!(detail.contains("apt-get install fairy-stockfish"), "{detail}");
}

#[tokio::test]
async fn a_record_is_reviewed_lichess_way_and_an_illegal_move_named() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_app().await;
    let moves: Vec<Value> = ["7g7f", "3c3d", "8h2b+"].iter().map(|m| json!({"usi": m})).collect();
    let r = app
        .post_json("/shogi/review", &json!({"moves": moves, "max_ms": 1500}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
    let review: Value = r.json();
    assert_eq!(review["exact"], false);
    let entries = review["moves"].as_array().unwrap();
    assert_eq!(entries.len(), 3, "{review}");
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry["actor"], SIDES[i % 2], "{entry}");
        assert_eq!(entry["exact"], false, "{entry}");
        assert!(entry["value_before"]["win_percent"].is_f64(), "{entry}");
    }
    for side in SIDES {
        let accuracy = review["players"][side]["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{review}");
    }
    let r = app
        .post_json("/shogi/review", &json!({"moves": [{"usi": "7g7e"}]}))
        .await;
    let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("moves[0]"), "{detail}");
}

#[tokio::test]
async fn level_one_loses_every_game_to_level_ten() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    crate::helpers::assert_level_one_loses_to_level_ten("shogi").await;
}

#[tokio::test]
async fn a_person_declares_impasse_where_it_would_not_lose_and_the_match_ends() {
    if !available() {
        return;
    }
    let _turn = ENGINE_LOCK.lock().await;
    let app = spawn_ready_app().await;
    // Sente's king on 5c with thirteen pieces in gote's camp: 21 points
    // there, plus the pawns in hand (24 draws, 23 loses).
    let camp = "+R+B+P+P+P+P+P+P+P/GGGG5/4K4/9/9/9/9/9/4k4 b";
    let declare = json!({"declare": "impasse"});
    let mut ends = Vec::new();
    for (hand, offered) in [("2P", false), ("3P", true)] {
        let request = json!({"game": "shogi", "options": {"sfen": format!("{camp} {hand} 1")}, "ai": {"level": 1}});
        let created = app.post_json("/matches", &request).await;
        assert_eq!(
            created.status,
            StatusCode::CREATED,
            "{}",
            String::from_utf8_lossy(&created.body)
        );
        let created: Value = created.json();
        let legal = created["legal_moves"].as_array().unwrap();
        assert_eq!(legal.contains(&declare), offered, "{hand}: {created}");
        assert_eq!(
            legal.len(),
            legal_count(&format!("{camp} {hand} 1")) + usize::from(offered)
        );
        let path = format!("/matches/{}/moves", created["id"].as_str().unwrap());
        let token = created["token"].as_str().unwrap();
        let r = post_authorized(&app, &path, token, &json!({"ply": 0, "move": declare})).await;
        if !offered {
            assert!(created["state"].get("impasse").is_none(), "{created}");
            let detail = r.assert_problem(StatusCode::UNPROCESSABLE_ENTITY);
            assert!(
                detail.contains("would lose") && detail.contains("23 points"),
                "{detail}"
            );
            continue;
        }
        assert_eq!(created["state"]["impasse"], json!({"verdict": "draw", "points": 24}));
        assert_eq!(r.status, StatusCode::OK, "{}", String::from_utf8_lossy(&r.body));
        let end: Value = r.json();
        assert_eq!(end["status"], "finished", "{end}");
        assert_eq!(end["result"]["reason"], "impasse", "{end}");
        assert_eq!(end["result"]["winner"], "draw", "{end}");
        assert_eq!(end["history"][0]["move"], declare, "{end}");
        // The review replays the declaration; no engine judges it.
        let review = get_authorized(
            &app,
            &format!("/matches/{}/review", created["id"].as_str().unwrap()),
            token,
        )
        .await;
        assert_eq!(
            review.status,
            StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&review.body)
        );
        let review: Value = review.json();
        assert_eq!(review["moves"], json!([]), "{review}");
        ends.push(end);
    }
    assert_eq!(ends.len(), 1);
}

/// How many moves kibitz's rules list in `sfen`.
fn legal_count(sfen: &str) -> usize {
    legal(Some(sfen), &[] as &[&str]).len()
}
