//! Othello benchmarks, short: move generation and flips from a midgame
//! position, the exact solver on a 6x6 ending with 16 empties and on FFO
//! #40 (20 empties), and a 100 ms midgame analysis of the 8x8 start.
//! The side-by-side comparison with Edax is scripts/bench-othello.sh.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::game::Game;
use kibitz::games::othello::bits::{flips, legal_moves, Squares};
use kibitz::games::othello::{parse_position, OthelloEngine, OthelloState, Size};
use kibitz::solve::limits::SearchLimits;

const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";

fn ffo_40() -> OthelloState {
    let rows: Vec<String> = FFO_40
        .replace('-', ".")
        .as_bytes()
        .chunks(8)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    parse_position(Some(8), &rows, Some("X")).expect("FFO #40 parses")
}

/// A fixed 6x6 position 16 empties from the end, reached by always playing
/// the second legal move.
fn six_by_six_ending() -> OthelloState {
    let mut game = OthelloState::new(Size::Six);
    while game.empties() > 16 {
        let moves = game.legal_moves();
        game.play(moves[1.min(moves.len() - 1)]);
    }
    game
}

fn benches(c: &mut Criterion) {
    let position = ffo_40();
    let (p, o) = position.mover_and_opponent();
    let empty = position.empty();
    c.bench_function("othello legal_moves + flips of every move (FFO #40)", |b| {
        b.iter(|| {
            let moves = legal_moves(black_box(p), black_box(o), black_box(empty));
            Squares(moves).map(|sq| flips(p, o, sq)).fold(0u64, |a, f| a ^ f)
        })
    });

    let mut group = c.benchmark_group("othello exact");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    let ending = six_by_six_ending();
    group.bench_function("6x6, 16 empties, fresh table", |b| {
        b.iter(|| {
            let engine = OthelloEngine::new(1 << 16);
            engine.solve(black_box(&ending), &SearchLimits::within(Duration::from_secs(60)))
        })
    });
    group.bench_function("FFO #40, 20 empties, fresh table", |b| {
        b.iter(|| {
            let engine = OthelloEngine::new(1 << 20);
            engine.solve(black_box(&position), &SearchLimits::within(Duration::from_secs(60)))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("othello midgame");
    group.sample_size(10);
    let engine = OthelloEngine::new(1 << 20);
    let start = OthelloState::new(Size::Eight);
    group.bench_function("8x8 start, 100 ms analysis", |b| {
        b.iter(|| {
            engine
                .analyze(black_box(&start), &SearchLimits::within(Duration::from_millis(100)))
                .depth
        })
    });
    group.finish();
}

criterion_group!(othello, benches);
criterion_main!(othello);
