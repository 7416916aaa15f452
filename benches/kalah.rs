//! Kalah: our solver (null-window search, ordering, the shared table keyed
//! by an exact rank) against a plain alpha-beta kept here as the baseline
//! (fail-hard, the full window, a HashMap of bounds, houses in order), each
//! finding the start position's value from scratch.
//!
//! `cargo bench --bench kalah -- --warm-up-time 1 --measurement-time 5`

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::kalah::rules::{Capture, Geometry, Houses, Next, Rules};
use kibitz::games::kalah::solve::solve_position;
use kibitz::solve::limits::SearchLimits;
use kibitz::solve::table::SharedTable;

#[derive(Clone, Copy)]
enum Kind {
    Exact,
    Lower,
    Upper,
}

/// Plain alpha-beta on the future margin.
struct Naive {
    geo: &'static Geometry,
    capture: Capture,
    table: HashMap<Houses, (i32, Kind)>,
}

impl Naive {
    fn search(&mut self, houses: Houses, mut alpha: i32, mut beta: i32) -> i32 {
        let original_alpha = alpha;
        if let Some(&(value, kind)) = self.table.get(&houses) {
            match kind {
                Kind::Exact => return value,
                Kind::Lower => alpha = alpha.max(value),
                Kind::Upper => beta = beta.min(value),
            }
            if alpha >= beta {
                return value;
            }
        }
        let mut best = i32::MIN;
        for house in 0..self.geo.houses() {
            if houses.count(house) == 0 {
                continue;
            }
            let sown = houses.sow(self.geo, self.capture, house);
            let margin = sown.margin();
            let value = match sown.next {
                Next::Over => margin,
                Next::Again => margin + self.search(sown.houses, alpha - margin, beta - margin),
                Next::Opponent => margin - self.search(sown.houses, margin - beta, margin - alpha),
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let kind = if best <= original_alpha {
            Kind::Upper
        } else if best >= beta {
            Kind::Lower
        } else {
            Kind::Exact
        };
        self.table.insert(houses, (best, kind));
        best
    }
}

fn naive_value(rules: Rules) -> i32 {
    let start = rules.start();
    let mut naive = Naive {
        geo: rules.geometry(),
        capture: rules.capture(),
        table: HashMap::new(),
    };
    let seeds = start.houses().seeds() as i32;
    naive.search(start.houses(), -seeds - 1, seeds + 1)
}

fn solver_value(rules: Rules) -> Option<i32> {
    // A new table each time, so nothing is remembered between runs.
    let table = SharedTable::new(1 << 20);
    solve_position(&rules.start(), &table, &SearchLimits::within(Duration::from_secs(600))).map(|(v, _)| v)
}

fn start_positions(c: &mut Criterion) {
    // The search alone: no endgame table is built while it runs (the
    // solver would build one once its searches outnumber its entries).
    kibitz::games::kalah::endgame::set_budget(0);
    let mut group = c.benchmark_group("kalah_start");
    group.sample_size(10);
    for (m, n, capture, name) in [
        (4, 3, Capture::Standard, "4x3_standard"),
        (4, 3, Capture::Empty, "4x3_empty"),
        (4, 4, Capture::Standard, "4x4_standard"),
    ] {
        let rules = Rules::new(m, n, capture).expect("valid rules");
        assert_eq!(Some(naive_value(rules)), solver_value(rules), "{name}");
        group.bench_function(format!("solver_{name}"), |b| b.iter(|| solver_value(black_box(rules))));
        group.bench_function(format!("naive_{name}"), |b| b.iter(|| naive_value(black_box(rules))));
    }
    group.finish();
}

criterion_group!(benches, start_positions);
criterion_main!(benches);
