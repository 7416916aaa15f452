//! Ishitori: the solver answers any heap size in O(1) once a take set's rule
//! is cached. The same take set is timed at n = 10 and n = 2^64-1 with a warm
//! cache (their ratio should stay at most 2), next to the seed paper's
//! approach, kept here as the baseline: dynamic programming over every heap
//! size up to n, which grows linearly with n.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kibitz::games::ishitori::solve::SubtractionSolver;
use kibitz::games::ishitori::{Game, TakeSet};
use kibitz::solve::limits::SearchLimits;

/// The seed's method: fill the win/loss table from 0 up to n, then pick the
/// first take that leaves a losing heap (the smallest take if none does).
fn seed_dp_best_take(take: &[u64], misere: bool, n: u64) -> u64 {
    let n = n as usize;
    let mut wins = vec![false; n + 1];
    for size in 0..=n {
        let mut has_move = false;
        for &t in take {
            let t = t as usize;
            if t <= size {
                has_move = true;
                wins[size] |= !wins[size - t];
            }
        }
        if !has_move {
            wins[size] = misere;
        }
    }
    take.iter()
        .copied()
        .filter(|&t| t as usize <= n)
        .find(|&t| !wins[n - t as usize])
        .unwrap_or(take[0])
}

fn warm_solver(c: &mut Criterion) {
    let solver = SubtractionSolver::default();
    let limits = SearchLimits::within(Duration::from_secs(3_600));
    let take_sets: [(&str, &[u64], bool); 2] = [
        ("seed_1_2_3_misere", &[1, 2, 3], true),
        ("take_3_7_19_40_normal", &[3, 7, 19, 40], false),
    ];
    let mut group = c.benchmark_group("ishitori_warm");
    for (name, take, misere) in take_sets {
        let take_set = TakeSet::new(take).unwrap_or_default();
        for n in [10, u64::MAX] {
            let game = Game::one_heap(take_set.clone(), misere, n);
            // Warm the cache once; every timed call is a cache hit.
            let _ = solver.best_move(&game, &limits);
            let label = if n == u64::MAX {
                "2^64-1".to_owned()
            } else {
                n.to_string()
            };
            group.bench_with_input(BenchmarkId::new(name, label), &game, |b, game| {
                b.iter(|| solver.best_move(black_box(game), &limits))
            });
        }
    }
    group.finish();
}

fn seed_baseline(c: &mut Criterion) {
    let mut group = c.benchmark_group("ishitori_seed_dp");
    for n in [10u64, 1_000, 100_000] {
        group.bench_with_input(BenchmarkId::new("seed_1_2_3_misere", n), &n, |b, &n| {
            b.iter(|| seed_dp_best_take(&[1, 2, 3], true, black_box(n)))
        });
    }
    group.finish();
}

criterion_group!(benches, warm_solver, seed_baseline);
criterion_main!(benches);
