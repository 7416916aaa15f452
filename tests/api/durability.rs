//! A move answered 2xx survives `kill -9` of the real server binary.

use serde_json::{json, Value};

use crate::helpers::{fresh_postgres_database, postgres_server, shared_table_dir};
use crate::process::Server;

/// Plays into a few matches, kills the server with SIGKILL right after the
/// last answer, restarts it on the same database and reads every match back.
fn moves_survive_sigkill(database_url: String) {
    let mut server = Server::start(&[
        "--data-dir".to_string(),
        shared_table_dir().display().to_string(),
        "--database-url".to_string(),
        database_url,
    ]);
    let games = [
        (
            json!({"game": "pig", "options": {"goal": 200}}),
            json!({"action": "roll"}),
        ),
        (
            json!({"game": "ishitori", "options": {"remaining": 1000}}),
            json!({"take": 1}),
        ),
        (
            json!({"game": "tictactoe", "options": {"rows": 5, "cols": 5, "k": 4}}),
            Value::Null,
        ),
    ];
    let mut last_answers = Vec::new();
    for (request, mv) in games {
        let created = server.call("POST", "/matches", None, Some(&request));
        assert_eq!(created.status, 201, "{}", created.body);
        let id = created.body["id"].as_str().unwrap().to_string();
        let token = created.body["token"].as_str().unwrap().to_string();
        let mut last = created.body.clone();
        last.as_object_mut().unwrap().remove("token");
        for _ in 0..3 {
            if last["status"] == "finished" {
                break;
            }
            let mv = if mv.is_null() {
                first_empty_cell(&last["state"])
            } else {
                mv.clone()
            };
            let reply = server.call(
                "POST",
                &format!("/matches/{id}/moves"),
                Some(&token),
                Some(&json!({"ply": last["ply"], "move": mv})),
            );
            assert_eq!(reply.status, 200, "{}", reply.body);
            last = reply.body;
        }
        assert!(last["ply"].as_u64().unwrap() >= 2, "{last}");
        last_answers.push((id, token, last));
    }

    server.kill_hard();
    server.restart();

    for (id, token, last) in last_answers {
        let reply = server.call("GET", &format!("/matches/{id}"), Some(&token), None);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.body, last, "match {id} after SIGKILL and restart");
    }
}

fn first_empty_cell(state: &Value) -> Value {
    let rows = state["board"].as_array().unwrap();
    let (row, col) = rows
        .iter()
        .enumerate()
        .find_map(|(r, row)| row.as_str().unwrap().find('.').map(|c| (r, c)))
        .expect("an empty cell");
    json!({"row": row, "col": col})
}

#[test]
fn moves_answered_survive_sigkill_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    moves_survive_sigkill(format!("sqlite://{}?mode=rwc", dir.path().join("kibitz.db").display()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn moves_answered_survive_sigkill_on_postgres() {
    let Some(server) = postgres_server() else {
        eprintln!("NOT RUN against PostgreSQL: KIBITZ_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
        return;
    };
    let url = fresh_postgres_database(&server).await;
    tokio::task::spawn_blocking(move || moves_survive_sigkill(url))
        .await
        .unwrap();
}
