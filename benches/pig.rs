//! Pig: our layered solver against the plain whole-space sweep, and loading
//! a table file against solving it.
//!
//! `cargo bench --bench pig`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::pig::solve::solve;
use kibitz::games::pig::tables::file;
use kibitz::games::pig::{PigRules, Variant};

/// The baseline: value iteration over the whole state space, updated in
/// place (Gauss-Seidel) in plain index order, until no value moves by more
/// than `tolerance`. This is what "just iterate until it settles" costs.
// Indices mirror the recurrence P[i][j][k]; iterators would hide it.
#[allow(clippy::needless_range_loop)]
fn whole_space_sweep(goal: usize, sides: usize, tolerance: f64) -> f64 {
    let mut p = vec![vec![vec![0.0f64; goal]; goal]; goal];
    loop {
        let mut delta = 0.0f64;
        for i in 0..goal {
            for j in 0..goal {
                for k in 0..goal - i {
                    let mut roll = (1.0 - p[j][i][0]) / sides as f64;
                    for face in 2..=sides {
                        roll += if i + k + face >= goal { 1.0 } else { p[i][j][k + face] } / sides as f64;
                    }
                    let hold = if i + k >= goal { 1.0 } else { 1.0 - p[j][i + k][0] };
                    let v = roll.max(hold);
                    delta = delta.max((v - p[i][j][k]).abs());
                    p[i][j][k] = v;
                }
            }
        }
        if delta < tolerance {
            return p[0][0][0];
        }
    }
}

fn bench(c: &mut Criterion) {
    let rules = PigRules::new(100, 6, Variant::Standard, 200).expect("valid");
    let mut group = c.benchmark_group("pig_goal100_d6_standard");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    group.bench_function("layered_pairs (ours)", |b| {
        b.iter(|| black_box(solve(&rules).win_probability(0, 0, 0)))
    });
    group.bench_function("whole_space_sweep (baseline, tol 1e-12)", |b| {
        b.iter(|| black_box(whole_space_sweep(100, 6, 1e-12)))
    });
    let dir = std::env::temp_dir().join("kibitz-bench");
    let path = file::path_in(&dir, &rules);
    file::save(&path, &solve(&rules)).expect("writes the table");
    group.bench_function("load_table_file", |b| {
        b.iter(|| black_box(file::load(&path, &rules).expect("loads").win_probability(0, 0, 0)))
    });
    group.finish();

    let progressive = PigRules::new(100, 6, Variant::Progressive, 200).expect("valid");
    c.bench_function("pig_goal100_d6_progressive/layered (ours)", |b| {
        b.iter(|| black_box(solve(&progressive).win_probability(0, 0, 0)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
