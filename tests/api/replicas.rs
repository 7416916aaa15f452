//! Production shape with real processes: release-built `kibitz` binaries
//! sharing one PostgreSQL database, and graceful restarts.

use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::helpers::{fresh_postgres_database, postgres_server, shared_table_dir};
use crate::matches::some_legal_move;
use crate::process::{request, Server};

fn server_args(database_url: &str) -> Vec<String> {
    vec![
        "--data-dir".to_string(),
        shared_table_dir().display().to_string(),
        "--database-url".to_string(),
        database_url.to_string(),
    ]
}

/// A match being played through the replicas.
struct Playing {
    id: String,
    token: String,
    last: Value,
}

impl Playing {
    fn path(&self) -> String {
        format!("/matches/{}/moves", self.id)
    }
}

fn create(server: &Server, request: &Value) -> Playing {
    let created = server.call("POST", "/matches", None, Some(request));
    assert_eq!(created.status, 201, "{}", created.body);
    let mut last = created.body;
    let token = last["token"].as_str().unwrap().to_string();
    last.as_object_mut().unwrap().remove("token");
    Playing {
        id: last["id"].as_str().unwrap().to_string(),
        token,
        last,
    }
}

/// One move of the person through `server`; false once the match is over.
fn step(server: &Server, m: &mut Playing) -> bool {
    if m.last["status"] == "finished" {
        return false;
    }
    let mv = some_legal_move(m.last["game"].as_str().unwrap(), &m.last["state"], &m.last["options"]);
    let body = json!({"ply": m.last["ply"], "move": mv});
    let reply = server.call("POST", &m.path(), Some(&m.token), Some(&body));
    assert_eq!(reply.status, 200, "{}", reply.body);
    m.last = reply.body;
    true
}

fn every_game() -> Vec<Value> {
    vec![
        json!({"game": "pig", "options": {"goal": 40}}),
        json!({"game": "tictactoe", "ai_first": true}),
        json!({"game": "ishitori", "options": {"remaining": 25}}),
        json!({"game": "number-square", "options": {"size": 4}}),
        json!({"game": "nine-square"}),
    ]
}

async fn postgres_url() -> Option<String> {
    let Some(server) = postgres_server() else {
        eprintln!("NOT RUN against PostgreSQL: KIBITZ_TEST_DATABASE_URL is not set (scripts/test.sh sets it)");
        return None;
    };
    Some(fresh_postgres_database(&server).await)
}

async fn migration_rows(url: &str) -> i64 {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_matches_and_lose_nothing_when_one_is_killed() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let args = server_args(&url);
    let histories = tokio::task::spawn_blocking(move || {
        // Both start at once against an empty database.
        let mut a = Server::launch(&args);
        let b = Server::launch(&args);
        a.wait_ready();
        b.wait_ready();

        // Every game, the person's moves sent to alternate replicas.
        let mut playing: Vec<Playing> = every_game().iter().map(|r| create(&a, r)).collect();
        for turn in 0..3 {
            for m in playing.iter_mut() {
                step(if turn % 2 == 0 { &b } else { &a }, m);
            }
        }

        // The same move with the same ply to both replicas at once: exactly
        // one is applied, the other is told 409.
        let race = create(&a, &json!({"game": "pig", "options": {"goal": 200}}));
        let mut ply = race.last["ply"].clone();
        let mut rounds = 0;
        for _ in 0..20 {
            let body = json!({"ply": ply, "move": {"action": "roll"}});
            let statuses: Vec<u16> = thread::scope(|s| {
                let sends: Vec<_> = [a.port, b.port]
                    .into_iter()
                    .map(|port| {
                        let (path, token, body) = (race.path(), race.token.clone(), body.clone());
                        s.spawn(move || request(port, "POST", &path, Some(&token), Some(&body)).unwrap().status)
                    })
                    .collect();
                sends.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let mut sorted = statuses.clone();
            sorted.sort();
            assert_eq!(sorted, vec![200, 409], "same ply sent to both replicas");
            let now = a
                .call("GET", &format!("/matches/{}", race.id), Some(&race.token), None)
                .body;
            let history = now["history"].as_array().unwrap();
            rounds += 1;
            let human_moves = history.iter().filter(|e| e["actor"] == "human").count();
            assert_eq!(human_moves, rounds, "a move was applied twice or lost");
            if now["status"] == "finished" {
                break;
            }
            ply = now["ply"].clone();
        }

        // Replica a dies mid-game; every match is finished through b.
        a.kill_hard();
        for m in playing.iter_mut() {
            while step(&b, m) {}
        }
        // a comes back and reads the same histories.
        a.restart();
        for m in &playing {
            let on_a = a.call("GET", &format!("/matches/{}", m.id), Some(&m.token), None);
            assert_eq!(on_a.status, 200);
            assert_eq!(on_a.body, m.last, "replica a reads a different match {}", m.id);
        }
        playing.into_iter().map(|m| m.last).collect::<Vec<_>>()
    })
    .await
    .unwrap();
    assert!(histories.iter().all(|m| m["status"] == "finished"));
    // Two replicas raced to migrate an empty database; each migration is
    // recorded once.
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count() as i64;
    assert_eq!(migration_rows(&url).await, migrations);
}

#[test]
fn sigterm_lets_a_running_search_finish_then_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = server_args(&format!("sqlite://{}?mode=rwc", dir.path().join("kibitz.db").display()));
    args.extend(["--shutdown-grace-secs".to_string(), "10".to_string()]);
    let mut server = Server::start(&args);
    let port = server.port;
    // A big board and a 2 s budget: the search runs until its deadline.
    let search = thread::spawn(move || {
        let board: Vec<String> = (0..9)
            .map(|r| if r == 4 { "....X....".into() } else { ".".repeat(9) })
            .collect();
        let body = json!({"board": board, "k": 5, "max_ms": 2000});
        request(port, "POST", "/tictactoe/move", None, Some(&body)).unwrap()
    });
    thread::sleep(Duration::from_millis(500));
    let stopping = Instant::now();
    let status = server.terminate();
    let answer = search.join().unwrap();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["player"], "O");
    assert!(status.success(), "exit status {status}");
    assert!(
        stopping.elapsed() < Duration::from_secs(10),
        "took {:?}",
        stopping.elapsed()
    );
    assert!(
        request(port, "GET", "/healthz", None, None).is_err(),
        "still accepting after exit"
    );
}
