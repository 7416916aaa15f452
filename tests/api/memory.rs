//! Every cache inside `--memory-mib`, measured: the real binary, its
//! caches filled, its resident memory against the figure (issue 45).

use serde_json::{json, Value};

use crate::helpers::shared_table_dir;
use crate::process::Server;

/// The server's resident memory (VmRSS), in MiB.
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kib| kib.parse::<f64>().ok())
        .expect("a VmRSS line")
        / 1024.0
}

fn settled_rss(pid: u32) -> f64 {
    std::thread::sleep(std::time::Duration::from_millis(500));
    rss_mib(pid)
}

fn answered(server: &Server, method: &str, path: &str, body: Option<&Value>) -> Value {
    let reply = server.call(method, path, None, body);
    assert_eq!(reply.status, 200, "{method} {path}: {}", reply.body);
    reply.body
}

#[test]
fn with_every_cache_filled_the_process_grows_by_less_than_memory_mib() {
    const MIB: f64 = 64.0;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&[
        "--data-dir".to_string(),
        shared_table_dir().display().to_string(),
        "--database-url".to_string(),
        format!("sqlite://{}?mode=rwc", dir.path().join("kibitz.db").display()),
        "--memory-mib".to_string(),
        MIB.to_string(),
    ]);
    let pid = server.pid();
    let before = settled_rss(pid);
    // Ishitori's long sequences (periods of about two million values,
    // ~16 MiB each as they were kept) and short ones (60,000 values).
    for i in 0..6 {
        let take = json!({"take": [999_990 + i], "remaining": 10_000_000, "misere": false, "max_ms": 10_000});
        let answer = answered(&server, "POST", "/ishitori/move", Some(&take));
        assert!(
            !answer["outcome"].is_null(),
            "not solved in time, so nothing cached: {answer}"
        );
    }
    for i in 0..60 {
        let take = json!({"take": [30_000 + i], "remaining": 10_000_000, "misere": false});
        answered(&server, "POST", "/ishitori/move", Some(&take));
    }
    // The transposition tables and the memos.
    let empty = |rows: usize, cols: usize| vec![".".repeat(cols); rows];
    answered(
        &server,
        "POST",
        "/connect-four/move",
        Some(&json!({"board": empty(8, 8), "max_ms": 1000})),
    );
    let othello = [
        "........", "........", "........", "...OX...", "...XO...", "........", "........", "........",
    ];
    answered(
        &server,
        "POST",
        "/othello/move",
        Some(&json!({"board": othello, "player": "X", "max_ms": 1000})),
    );
    let kalah = json!({"south": [6, 6, 6, 6, 6, 6], "north": [6, 6, 6, 6, 6, 6], "south_store": 0, "north_store": 0});
    answered(
        &server,
        "POST",
        "/kalah/move",
        Some(&json!({"board": kalah, "to_move": "south", "max_ms": 1000})),
    );
    answered(
        &server,
        "POST",
        "/tictactoe/move",
        Some(&json!({"board": empty(7, 7), "k": 4, "max_ms": 1000})),
    );
    let grid: Vec<Vec<u32>> = (0..7).map(|r| (0..7).map(|c| (r * 7 + c) % 9 + 1).collect()).collect();
    answered(
        &server,
        "POST",
        "/number-square/move",
        Some(&json!({"board": grid, "max_ms": 1000})),
    );
    // Pig: solved tables beyond the defaults, and policies written out.
    for goal in [50, 60, 70] {
        let decision = json!({"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": goal});
        answered(&server, "POST", "/pig/decision", Some(&decision));
        answered(&server, "GET", &format!("/pig/policy?goal={goal}"), None);
    }
    let after = settled_rss(pid);
    let grown = after - before;
    eprintln!(
        "RSS {before:.0} MiB before, {after:.0} MiB after: grew {grown:.0} MiB, {:.2} of --memory-mib {MIB}",
        grown / MIB
    );
    assert!(grown <= MIB, "grew {grown:.0} MiB with --memory-mib {MIB}");
}
