//! Nine Square benchmarks: the incremental score update against recounting
//! every line (the naive way, kept here as the baseline), one search at a
//! fixed node budget, the exact endgame, and the seed's greedy turn.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::nine_square::solve::{best_placements, EXACT_MAX_EMPTY};
use kibitz::games::nine_square::strategies::greedy_placements;
use kibitz::games::nine_square::{Board, Coord, Player, Position};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The baseline: score a grid of cells (0 empty, 1 X, 2 O) by checking all
/// 72 box lines and 20 lines of nine.
fn naive_score(cells: &[u8; 81]) -> (u32, u32) {
    let mut score = (0, 0);
    let mut count = |line: &mut dyn Iterator<Item = usize>, points: u32| {
        let (mut x, mut o, mut len) = (0, 0, 0);
        for c in line {
            len += 1;
            match cells[c] {
                1 => x += 1,
                2 => o += 1,
                _ => {}
            }
        }
        if x == len {
            score.0 += points;
        }
        if o == len {
            score.1 += points;
        }
    };
    for b in 0..9 {
        let (top, left) = ((b / 3) * 3, (b % 3) * 3);
        for i in 0..3 {
            count(&mut (0..3).map(|j| (top + i) * 9 + left + j), 1);
            count(&mut (0..3).map(|j| (top + j) * 9 + left + i), 1);
        }
        count(&mut (0..3).map(|i| (top + i) * 9 + left + i), 1);
        count(&mut (0..3).map(|i| (top + i) * 9 + left + 2 - i), 1);
    }
    for i in 0..9 {
        count(&mut (0..9).map(|j| i * 9 + j), 3);
        count(&mut (0..9).map(|j| j * 9 + i), 3);
    }
    count(&mut (0..9).map(|i| i * 9 + i), 3);
    count(&mut (0..9).map(|i| i * 9 + 8 - i), 3);
    score
}

/// A shuffled order of all 81 cells with alternating-ish owners.
fn playout_order() -> Vec<(Coord, Player)> {
    let mut rng = StdRng::seed_from_u64(1);
    let mut cells: Vec<Coord> = Board::new().empty_cells().collect();
    cells.shuffle(&mut rng);
    cells
        .into_iter()
        .map(|c| {
            let p = if rng.gen_bool(0.5) { Player::X } else { Player::O };
            (c, p)
        })
        .collect()
}

fn random_position(empty: usize, dice: u8, seed: u64) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut board = Board::new();
    let mut cells: Vec<Coord> = board.empty_cells().collect();
    cells.shuffle(&mut rng);
    for &at in &cells[empty..] {
        let p = if rng.gen_bool(0.5) { Player::X } else { Player::O };
        let _ = board.place(at, p);
    }
    Position::new(board, Player::X, dice).expect("not full")
}

fn scoring(c: &mut Criterion) {
    let order = playout_order();
    let mut group = c.benchmark_group("nine_square_scoring_81_marks");
    group.bench_function("incremental_place_then_unplace", |b| {
        b.iter(|| {
            let mut board = Board::new();
            let mut total = 0;
            for &(at, p) in &order {
                let _ = board.place(at, p);
                total += board.score().x;
            }
            for &(at, _) in order.iter().rev() {
                let _ = board.unplace(at);
                total += board.score().x;
            }
            black_box(total)
        })
    });
    group.bench_function("naive_recount_each_step", |b| {
        b.iter(|| {
            let mut cells = [0u8; 81];
            let mut total = 0;
            for &(at, p) in &order {
                cells[at.index()] = if p == Player::X { 1 } else { 2 };
                total += naive_score(&cells).0;
            }
            for &(at, _) in order.iter().rev() {
                cells[at.index()] = 0;
                total += naive_score(&cells).0;
            }
            black_box(total)
        })
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    let opening = random_position(81, 3, 0);
    let midgame = random_position(45, 4, 2);
    let endgame = random_position(EXACT_MAX_EMPTY, 3, 3);
    let limits = |nodes| SearchLimits::within(Duration::from_secs(60)).with_max_nodes(nodes);
    let mut group = c.benchmark_group("nine_square_search");
    group.sample_size(10);
    group.bench_function("best_opening_100k_nodes", |b| {
        b.iter(|| black_box(best_placements(&opening, &limits(100_000), 7)))
    });
    group.bench_function("best_midgame_100k_nodes", |b| {
        b.iter(|| black_box(best_placements(&midgame, &limits(100_000), 7)))
    });
    group.bench_function("exact_endgame_9_empty", |b| {
        b.iter(|| black_box(best_placements(&endgame, &limits(u64::MAX), 7)))
    });
    group.bench_function("greedy_opening_turn", |b| {
        b.iter(|| black_box(greedy_placements(&opening)))
    });
    group.finish();
}

criterion_group!(benches, scoring, search);
criterion_main!(benches);
