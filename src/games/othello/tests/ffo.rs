//! FFO endgame test suite #40-#49 through the HTTP API: the real server
//! binary answers `POST /othello/move` for every position with the
//! published exact score and one of the published best moves, marked
//! `solved: true`. Positions and values: src/games/othello/tests/data/othello_ffo_40_49.txt
//! (its header says where they come from).
//!
//! Each request streams (`Accept: application/x-ndjson`). The engine sends
//! a line as soon as the best move and its score are proved, then spends
//! what is left of `max_ms` proving the other moves; the test reads up to
//! the first solved line and hangs up, which stops the search, so a
//! position costs the time to prove its best move, not the whole budget.
//!
//! The server is the binary the process tests run: KIBITZ_TEST_BIN when
//! set (CI points it at the release build), else the test build. The ten
//! proofs, two positions at a time, took 105-135 s of wall time against the
//! release binary and 168 s against the test build on a busy 2-core machine
//! (#45, #48 and #49 the longest, 40-130 s each); see BENCHMARKS.md.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::process;

const DATA: &str = include_str!("data/othello_ffo_40_49.txt");

/// Far more than the slowest proof (#49: 45 s alone in the release build,
/// 131 s in the test build under load); the answer comes at the first
/// solved line, so the rest is never waited out. A budget of 100 s or more
/// also lets the engine plan an exact search at 24-26 empties.
const MAX_MS: u64 = 600_000;

/// One position of the data file.
struct Position {
    number: u32,
    rows: Vec<String>,
    player: String,
    score: i64,
    best: Vec<String>,
    empties: usize,
}

fn positions() -> Vec<Position> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [number, board, player, score, best] = fields[..] else {
                panic!("bad data line: {line}");
            };
            assert_eq!(board.len(), 64, "{line}");
            Position {
                number: number.parse().unwrap_or_else(|e| panic!("{line}: {e}")),
                rows: board
                    .replace('-', ".")
                    .as_bytes()
                    .chunks(8)
                    .map(|r| String::from_utf8_lossy(r).into_owned())
                    .collect(),
                player: player.to_string(),
                score: score.parse().unwrap_or_else(|e| panic!("{line}: {e}")),
                best: best.split(',').map(str::to_string).collect(),
                empties: board.matches('-').count(),
            }
        })
        .collect()
}

/// Posts `body` to /othello/move as a streamed request and returns the
/// first line that says `solved: true` (then hangs up), or the final line
/// if none does.
fn first_solved_line(port: u16, body: &Value) -> Value {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    socket
        .set_read_timeout(Some(Duration::from_millis(MAX_MS + 30_000)))
        .expect("read timeout");
    let body = body.to_string();
    write!(
        socket,
        "POST /othello/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/x-ndjson\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reader = BufReader::new(socket);
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("read the head");
        if line.trim_end().is_empty() {
            break;
        }
        head.push(line.trim_end().to_ascii_lowercase());
    }
    let status = head.first().cloned().unwrap_or_default();
    let chunked = head.iter().any(|h| h == "transfer-encoding: chunked");
    if !status.contains(" 200 ") || !chunked {
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        panic!("expected a streamed 200, got {head:?}\n{rest}");
    }
    assert!(
        head.iter().any(|h| h.starts_with("content-type: application/x-ndjson")),
        "{head:?}"
    );
    // The body's chunks, joined, split into NDJSON lines.
    let mut pending = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).expect("read a chunk size");
        let size = size.trim_end();
        let size = usize::from_str_radix(size.split(';').next().unwrap_or(size), 16)
            .unwrap_or_else(|e| panic!("bad chunk size {size:?}: {e}"));
        assert!(size > 0, "the stream ended without a final line");
        let mut chunk = vec![0u8; size + 2];
        reader.read_exact(&mut chunk).expect("read a chunk");
        pending.extend_from_slice(&chunk[..size]);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let line: Value = serde_json::from_slice(&line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&line)));
            if line["solved"] == true || line["final"] == true {
                // Dropping the reader closes the socket: the server stops.
                return line;
            }
        }
    }
}

#[test]
fn ffo_40_to_49_through_the_api_score_and_best_move_as_published() {
    let mut positions = positions();
    let numbers: Vec<u32> = positions.iter().map(|p| p.number).collect();
    assert_eq!(numbers, (40..=49).collect::<Vec<u32>>());
    let db = tempfile::tempdir().expect("a temporary directory");
    let server = process::Server::start(&[
        "--data-dir".to_string(),
        std::env::temp_dir().join("kibitz-test-tables").display().to_string(),
        "--database-url".to_string(),
        format!("sqlite://{}?mode=rwc", db.path().join("kibitz.db").display()),
        "--max-ms-cap".to_string(),
        MAX_MS.to_string(),
        "--request-timeout-ms".to_string(),
        (MAX_MS + 20_000).to_string(),
        // Two searches at once, one per client thread below; a request
        // that finds both busy (the last one still stopping) waits.
        "--search-concurrency".to_string(),
        "2".to_string(),
        "--search-queue-ms".to_string(),
        "60000".to_string(),
    ]);
    let port = server.port;
    // Most empties first, so that the two threads finish close together.
    positions.sort_by_key(|p| std::cmp::Reverse(p.empties));
    let queue = Mutex::new(VecDeque::from(positions));
    let failures = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let Some(position) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                    return;
                };
                let body = json!({"board": position.rows, "player": position.player, "max_ms": MAX_MS});
                let asked = Instant::now();
                let answer = first_solved_line(port, &body);
                let took = asked.elapsed();
                let square = answer["move"]["square"].as_str().unwrap_or_default().to_string();
                let entry = answer["moves"]
                    .as_array()
                    .and_then(|moves| moves.iter().find(|m| m["square"] == square.as_str()))
                    .cloned()
                    .unwrap_or(Value::Null);
                let right = answer["solved"] == true
                    && answer["score"].as_i64() == Some(position.score)
                    && position.best.contains(&square)
                    && entry["solved"] == true
                    && entry["score"].as_i64() == Some(position.score);
                eprintln!(
                    "#{} ({} empties): {} {square} in {took:.1?}",
                    position.number, position.empties, answer["score"]
                );
                if !right {
                    failures.lock().unwrap_or_else(|e| e.into_inner()).push(format!(
                        "#{}: expected {} by one of {:?}, got {answer}",
                        position.number, position.score, position.best
                    ));
                }
            });
        }
    });
    eprintln!("FFO #40-#49 through the API in {:.1?}", started.elapsed());
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
