//! Number Square: our search against the seed's two-ply `lookahead2` and a
//! plain minimax (no pruning, no memo, kept here as the baseline), on 4x4
//! boards dealt from a seed: fresh, and a few moves in (plain minimax cannot
//! finish a fresh 4x4 board in reasonable time).
//!
//! `cargo bench --bench number_square -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::number_square::solve::NumberSquareSolver;
use kibitz::games::number_square::strategies::{deal, lookahead2};
use kibitz::games::number_square::Board;
use kibitz::solve::limits::SearchLimits;

/// Plain minimax over the future margin through the public rules: every
/// line to the end of the game, nothing remembered.
fn plain_minimax(board: &Board) -> i64 {
    board
        .legal_moves()
        .into_iter()
        .filter_map(|tile| board.play(tile).ok())
        .map(|played| {
            let rest = if played.board.is_over() {
                0
            } else {
                plain_minimax(&played.board)
            };
            played.points - rest
        })
        .max()
        .unwrap_or(0)
}

/// The board after `moves` moves of `lookahead2` self-play.
fn played_in(board: &Board, moves: usize) -> Board {
    let mut board = board.clone();
    for _ in 0..moves {
        let Some(next) = lookahead2(&board).and_then(|tile| board.play(tile).ok()) else {
            break;
        };
        if next.board.is_over() {
            break;
        }
        board = next.board;
    }
    board
}

fn generous() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(600))
}

fn exact_search(board: &Board) -> Option<i64> {
    // A new solver each time, so the shared memo cannot answer.
    let solver = NumberSquareSolver::new(1 << 16);
    solver.analyze(board, &generous()).map(|a| a.value)
}

fn bench_4x4(c: &mut Criterion) {
    let fresh = deal(4, 2016).expect("4 is a valid size");
    let mut group = c.benchmark_group("number_square_4x4");
    group.sample_size(10);
    // Five moves in: about the most that plain minimax finishes in a second.
    let moves = 5;
    let board = played_in(&fresh, moves);
    assert_eq!(exact_search(&board), Some(plain_minimax(&board)), "same value");
    group.bench_function(format!("search_exact_{moves}_moves_in"), |b| {
        b.iter(|| black_box(exact_search(black_box(&board))))
    });
    group.bench_function(format!("plain_minimax_{moves}_moves_in"), |b| {
        b.iter(|| black_box(plain_minimax(black_box(&board))))
    });
    group.bench_function(format!("lookahead2_{moves}_moves_in"), |b| {
        b.iter(|| black_box(lookahead2(black_box(&board))))
    });
    group.bench_function("search_exact_fresh", |b| {
        b.iter(|| black_box(exact_search(black_box(&fresh))))
    });
    group.bench_function("lookahead2_fresh", |b| {
        b.iter(|| black_box(lookahead2(black_box(&fresh))))
    });
    group.finish();
}

fn bench_8x8(c: &mut Criterion) {
    let board = deal(8, 2016).expect("8 is a valid size");
    let mut group = c.benchmark_group("number_square_8x8");
    group.sample_size(10);
    group.bench_function("lookahead2_move", |b| {
        b.iter(|| black_box(lookahead2(black_box(&board))))
    });
    group.bench_function("search_200k_nodes", |b| {
        b.iter(|| {
            let solver = NumberSquareSolver::new(1 << 16);
            let limits = generous().with_max_nodes(200_000);
            black_box(solver.analyze(black_box(&board), &limits))
        })
    });
    group.finish();
}

criterion_group!(benches, bench_4x4, bench_8x8);
criterion_main!(benches);
