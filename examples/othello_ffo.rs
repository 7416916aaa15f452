//! Solves FFO endgame positions exactly, one thread, and prints for each the
//! score, the move, the time, the nodes and the nodes per second.
//!
//! cargo run --release --example othello_ffo -- [first] [last] [table_bits]
//! (defaults 40 44 22: a table of 2^22 entries, 64 MiB). The positions are
//! read from src/games/othello/tests/data/othello_ffo_40_49.txt. Exits non-zero if a score or
//! move differs from the published one.

use std::time::{Duration, Instant};

use kibitz::games::othello::{parse_position, OthelloEngine, OthelloMove};
use kibitz::solve::limits::SearchLimits;

const DATA: &str = include_str!("../src/games/othello/tests/data/othello_ffo_40_49.txt");

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let first = args.first().copied().unwrap_or(40);
    let last = args.get(1).copied().unwrap_or(44);
    let table_bits = args.get(2).copied().unwrap_or(22).min(30);
    let mut wrong = 0;
    let (mut total_nodes, mut total_time) = (0u64, Duration::ZERO);
    println!(
        "{:>3} {:>7} {:>6} {:>5} {:>9} {:>14} {:>10}",
        "#", "empties", "score", "move", "seconds", "nodes", "Mnodes/s"
    );
    for line in DATA.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [number, board, side, score, best] = fields[..] else {
            panic!("bad data line: {line}");
        };
        let number: u32 = number.parse().unwrap_or(0);
        if number < first || number > last {
            continue;
        }
        let rows: Vec<String> = board
            .replace('-', ".")
            .as_bytes()
            .chunks(8)
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect();
        let game = match parse_position(Some(8), &rows, Some(side)) {
            Ok(game) => game,
            Err(e) => panic!("#{number}: {e}"),
        };
        // A fresh table per position, as Edax clears its own between
        // problems of a -solve run.
        let engine = OthelloEngine::new(1 << table_bits);
        let limits = SearchLimits::within(Duration::from_secs(3600));
        let start = Instant::now();
        let Some(solution) = engine.solve(&game, &limits) else {
            panic!("#{number}: the limits ran out");
        };
        let elapsed = start.elapsed();
        let played = match solution.best {
            OthelloMove::Play(square) => square.to_string(),
            OthelloMove::Pass => "pass".to_string(),
        };
        let right = solution.score.to_string() == score && best.split(',').any(|b| b == played);
        if !right {
            wrong += 1;
        }
        total_nodes += solution.nodes;
        total_time += elapsed;
        println!(
            "{number:>3} {:>7} {:>+6} {:>5} {:>9.3} {:>14} {:>10.2}{}",
            game.empties(),
            solution.score,
            played,
            elapsed.as_secs_f64(),
            solution.nodes,
            solution.nodes as f64 / elapsed.as_secs_f64() / 1e6,
            if right {
                ""
            } else {
                "  WRONG (published {score} {best})"
            }
        );
    }
    println!(
        "total {:>25.3} {:>14} {:>10.2}",
        total_time.as_secs_f64(),
        total_nodes,
        total_nodes as f64 / total_time.as_secs_f64() / 1e6
    );
    if wrong > 0 {
        std::process::exit(1);
    }
}
