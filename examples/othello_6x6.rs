//! 6x6 Othello with kibitz's exact solver.
//!
//! cargo run --release --example othello_6x6 -- start [table_bits]
//!   solves the 6x6 start (published: 16-20, i.e. -4 for black) and prints
//!   the value, the best first move, the time and the nodes;
//! cargo run --release --example othello_6x6 -- budget [positions] [empties]
//!   analyses random positions with that many empties (default 100 at 20)
//!   with the default 1 s budget and prints how many were solved and the
//!   slowest time.

use std::time::{Duration, Instant};

use kibitz::games::game::Game;
use kibitz::games::othello::{OthelloEngine, OthelloState, Size};
use kibitz::solve::limits::SearchLimits;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u32| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("budget") => budget(number(1, 100), number(2, 20)),
        _ => start(number(1, 24).min(30)),
    }
}

fn start(table_bits: u32) {
    let engine = OthelloEngine::new(1 << table_bits);
    let game = OthelloState::new(Size::Six);
    let started = Instant::now();
    match engine.solve(&game, &SearchLimits::within(Duration::from_secs(24 * 3600))) {
        Some(solution) => {
            let elapsed = started.elapsed();
            println!(
                "6x6 start: {:+} for black (best first move {}), {:.1} s, {} nodes, {:.2} Mnodes/s",
                solution.score,
                solution.best,
                elapsed.as_secs_f64(),
                solution.nodes,
                solution.nodes as f64 / elapsed.as_secs_f64() / 1e6
            );
        }
        None => println!("not solved"),
    }
}

fn budget(positions: u32, empties: u32) {
    let engine = OthelloEngine::new(1 << 22);
    let mut seed = 0x6666_1234_ABCD_0001u64;
    let (mut solved, mut tried) = (0, 0);
    let mut slowest = Duration::ZERO;
    while tried < positions {
        let mut game = OthelloState::new(Size::Six);
        while game.empties() > empties && !game.is_over() {
            let moves = game.legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            game.play(moves[(seed % moves.len() as u64) as usize]);
        }
        if game.is_over() {
            continue;
        }
        tried += 1;
        let started = Instant::now();
        let analysis = engine.analyze(&game, &SearchLimits::within(Duration::from_secs(1)));
        let elapsed = started.elapsed();
        slowest = slowest.max(elapsed);
        if analysis.solved {
            solved += 1;
        } else {
            println!("not solved in 1 s: {:?} to move {}", game.rows(), game.to_move());
        }
    }
    println!("6x6, {empties} empties: {solved} of {tried} solved within 1 s; slowest answer {slowest:.2?}");
}
