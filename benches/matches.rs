//! A match move read back from the game's own record (typed options and
//! every move from the opening, replayed through the rules) against the
//! same move on a row without its record, which its history rebuilds first
//! (rows stored before records were kept, or moved by a replica of such a
//! version), side by side; Ishitori at 200 plies and at 5,000 (the length
//! cap's default, the longest record). Each iteration plays one person's
//! move and the AI's answer on a clone of the stored match; the AI's part
//! is the same on both sides.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kibitz::games::ishitori::solve::SolverConfig;
use kibitz::games::pig::tables::cache::PigTables;
use kibitz::matches::{AiContext, HistoryEntry, Match, MatchLimits, NewMatch};
use kibitz::solve::solvers::{MemoSizes, Solvers};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};

fn solvers() -> Solvers {
    let dir = std::env::temp_dir().join(format!("kibitz-bench-matches-{}", std::process::id()));
    {
        let solvers = Solvers::new(MemoSizes {
            positions: 1 << 16,
            sequence_bytes: SolverConfig::DEFAULT_CACHE_BYTES,
            table_entries: 1 << 16,
            answers: 0,
            search_helpers: 0,
        });
        solvers.provide(Arc::new(PigTables::new(dir, 1 << 26)));
        solvers
    }
}

/// A match of `game` after the person has played `moves` (each answered
/// by the AI), with its whole history.
fn played(ctx: &AiContext, game: &str, options: Value, moves: &[Value]) -> (Match, Vec<HistoryEntry>) {
    let request = NewMatch {
        game: game.to_string(),
        options: Some(options),
        ..NewMatch::default()
    };
    let mut rng = StdRng::seed_from_u64(1);
    let (mut m, mut history) =
        Match::create(kibitz::registry::MATCH_GAMES, &request, ctx, &mut rng).expect("a valid request");
    for mv in moves {
        history.extend(m.play(mv, ctx, &mut rng).expect("a legal move"));
    }
    (m, history)
}

fn read_back(c: &mut Criterion) {
    let solvers = solvers();
    let ctx = AiContext {
        solvers: &solvers,
        limits: MatchLimits::default(),
    };
    let take_one = |plies: usize| vec![json!({"take": 1}); plies / 2];
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
                &take_one(200),
            ),
        ),
        (
            "ishitori, 5000 plies",
            played(
                &ctx,
                "ishitori",
                json!({"remaining": 1_000_000, "take": [1, 2, 3]}),
                &take_one(5000),
            ),
        ),
    ];
    let mut group = c.benchmark_group("match_move_read_back");
    for (name, (stored, history)) in &cases {
        let mv = stored
            .legal_moves
            .as_ref()
            .and_then(|moves| moves.first())
            .expect("the person is to move");
        let unrecorded = Match {
            saved: None,
            ..stored.clone()
        };
        for (how, m) in [("record", stored), ("history", &unrecorded)] {
            group.bench_with_input(BenchmarkId::new(*name, how), m, |b, m| {
                let mut rng = StdRng::seed_from_u64(2);
                b.iter(|| {
                    let mut m = m.clone();
                    if !m.has_record() {
                        m.rebuild_record(history, &solvers).expect("a history that replays");
                    }
                    black_box(m.play(mv, &ctx, &mut rng).expect("a legal move"));
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, read_back);
criterion_main!(benches);
