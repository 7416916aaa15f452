//! A match move read from the game's own record (typed options and every
//! move, replayed through the rules; Ishitori and Pig keep their position
//! instead) against the same move read from the state object the API shows (how matches were read before the record, and
//! how rows stored before it still are), side by side. Each iteration plays
//! one person's move and the AI's answer on a clone of the stored match;
//! the AI's part is the same on both sides, so the difference is the cost
//! of reading the match back.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kibitz::games::ishitori::solve::SolverConfig;
use kibitz::games::pig::tables::cache::PigTables;
use kibitz::matches::{AiContext, Match, MatchLimits, NewMatch};
use kibitz::solve::solvers::{MemoSizes, Solvers};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};

fn solvers() -> Solvers {
    let dir = std::env::temp_dir().join(format!("kibitz-bench-matches-{}", std::process::id()));
    {
        let solvers = Solvers::new(MemoSizes {
            positions: 1 << 16,
            sequence_entries: SolverConfig::DEFAULT_SHORT_CACHE,
            table_entries: 1 << 16,
            answers: 0,
        });
        solvers.provide(Arc::new(PigTables::new(dir, 1 << 26)));
        solvers
    }
}

/// A match of `game` after the person has played `moves` (each answered
/// by the AI).
fn played(ctx: &AiContext, game: &str, options: Value, moves: &[Value]) -> Match {
    let request = NewMatch {
        game: game.to_string(),
        options: Some(options),
        ..NewMatch::default()
    };
    let mut rng = StdRng::seed_from_u64(1);
    let (mut m, _) = Match::create(&request, ctx, &mut rng).expect("a valid request");
    for mv in moves {
        m.play(mv, ctx, &mut rng).expect("a legal move");
    }
    m
}

fn read_back(c: &mut Criterion) {
    let solvers = solvers();
    let ctx = AiContext {
        solvers: &solvers,
        limits: MatchLimits::default(),
    };
    let take_one = vec![json!({"take": 1}); 100];
    let cases = [
        (
            "tictactoe 3x3, 2 plies",
            played(&ctx, "tictactoe", json!({}), &[json!({"row": 1, "col": 1})]),
        ),
        (
            "ishitori, 200 plies",
            played(
                &ctx,
                "ishitori",
                json!({"remaining": 1_000_000, "take": [1, 2, 3]}),
                &take_one,
            ),
        ),
    ];
    let mut group = c.benchmark_group("match_move_read_back");
    for (name, stored) in &cases {
        let mv = stored
            .legal_moves
            .as_ref()
            .and_then(|moves| moves.first())
            .expect("the person is to move");
        let from_state = Match {
            saved: None,
            ..stored.clone()
        };
        for (how, m) in [("record", stored), ("state", &from_state)] {
            group.bench_with_input(BenchmarkId::new(*name, how), m, |b, m| {
                let mut rng = StdRng::seed_from_u64(2);
                b.iter(|| {
                    let mut m = m.clone();
                    black_box(m.play(mv, &ctx, &mut rng).expect("a legal move"));
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, read_back);
criterion_main!(benches);
