//! The engine pool and chess analysis against a real Stockfish, plus the
//! pool's failure handling against small fake engines (shell scripts that
//! hang or die), which need no Stockfish.
//!
//! Stockfish is found on PATH or in /usr/games. Without it the tests that
//! need it fail, unless KIBITZ_TEST_STOCKFISH=skip says the run chose to
//! skip them (scripts/test.sh sets it only when no binary is found, and its
//! last lines say whether Stockfish was tested).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::engines::{EngineConfig, EngineError, EnginePool, SearchJob};
use kibitz::games::chess::{review_game, AnalyzeOptions, ChessAnalyzer, ChessError, ChessState, EvalScore};
use kibitz::review::Judgment;
use kibitz::solve::limits::SearchLimits;

use super::stockfish_support;
use stockfish_support::stockfish;

/// Engine tests take turns: two cores, and timing assertions that should
/// not measure each other's load.
static ENGINE_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn config(path: &Path, count: usize) -> EngineConfig {
    EngineConfig {
        path: Some(path.to_path_buf()),
        count,
        ..EngineConfig::stockfish()
    }
}

fn analyzer(path: &Path, count: usize) -> ChessAnalyzer {
    ChessAnalyzer::new(EnginePool::new(config(path, count)), 64)
}

fn position(fen: &str) -> ChessState {
    ChessState::from_fen_and_moves(Some(fen), &[] as &[&str]).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn budget(ms: u64) -> SearchLimits {
    SearchLimits::within(Duration::from_millis(ms))
}

async fn analyze(
    a: &ChessAnalyzer,
    state: &ChessState,
    options: AnalyzeOptions,
) -> kibitz::games::chess::ChessAnalysis {
    let limits = budget(options.max_ms);
    a.analyze(state, &options, &limits, |_| {})
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

fn options(max_ms: u64, depth: Option<u32>) -> AnalyzeOptions {
    AnalyzeOptions {
        max_ms,
        depth,
        ..AnalyzeOptions::default()
    }
}

#[tokio::test]
async fn a_mate_in_one_is_found_as_mate_1_and_solved() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 1);
    let answer = analyze(
        &a,
        &position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        options(3000, Some(12)),
    )
    .await;
    assert_eq!(answer.best.uci, "d1d8");
    assert_eq!(answer.best.san, "Rd8#");
    assert_eq!(answer.score, EvalScore::Mate(1));
    assert_eq!(answer.white_score, EvalScore::Mate(1));
    assert!(answer.solved);
    assert!((answer.win_percent - 97.55).abs() < 0.01, "{}", answer.win_percent);
    assert_eq!(answer.player, "white");
}

#[tokio::test]
async fn a_mate_in_two_is_found_as_mate_2_for_either_side() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 1);
    // 1.Nf6+ gxf6 2.Bxf7#.
    let white = analyze(
        &a,
        &position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"),
        options(3000, Some(14)),
    )
    .await;
    assert_eq!(white.score, EvalScore::Mate(2));
    assert_eq!(white.best.san, "Nf6+");
    assert!(white.solved);
    // 1...Rg1+ 2.Kxg1 Rf1#: Black mates, so White's view is mated in 2.
    let black = analyze(
        &a,
        &position("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"),
        options(3000, Some(14)),
    )
    .await;
    assert_eq!(black.player, "black");
    assert_eq!(black.score, EvalScore::Mate(2));
    assert_eq!(black.white_score, EvalScore::Mate(-2));
    assert_eq!(black.pvs[0].san, vec!["Rg1+", "Kxg1", "Rxf1#"]);
}

#[tokio::test]
async fn an_ordinary_position_is_evaluated_with_multipv_san_lines_and_streamed_depths() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 1);
    // Started ahead: a cold start (~0.25 s to load the network) would eat
    // most of this 400 ms budget.
    assert_eq!(a.pool().warm_up().await.ok(), Some(1));
    let state = ChessState::from_fen_and_moves(None, &["e2e4", "e7e5"]).unwrap_or_else(|e| panic!("{e}"));
    let opts = AnalyzeOptions {
        max_ms: 400,
        multi_pv: 3,
        ..AnalyzeOptions::default()
    };
    let mut depths = Vec::new();
    let started = Instant::now();
    let answer = a
        .analyze(&state, &opts, &budget(400), |partial| {
            depths.push((partial.depth, partial.pvs.len()))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let took = started.elapsed();
    assert!(took < Duration::from_millis(400 + 150), "took {took:?}");
    assert!(!answer.solved);
    assert!(
        matches!(answer.score, EvalScore::Cp(cp) if cp.abs() < 150),
        "{:?}",
        answer.score
    );
    assert_eq!(answer.pvs.len(), 3);
    let firsts: Vec<&String> = answer.pvs.iter().map(|pv| &pv.moves[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    assert!(answer.pvs.iter().all(|pv| pv.moves.len() == pv.san.len()));
    assert!(answer.depth >= 8, "depth {} in 400 ms", answer.depth);
    // Every depth reported once, in order, each with all three lines.
    assert!(depths.len() >= 5, "{depths:?}");
    assert!(depths.windows(2).all(|w| w[0].0 < w[1].0), "{depths:?}");
    assert!(depths.iter().all(|(_, lines)| *lines == 3), "{depths:?}");
    assert!(depths.last().is_some_and(|(d, _)| *d <= answer.depth));

    // The same question again: from the cache, no engine time.
    let again_started = Instant::now();
    let again = a.analyze(&state, &opts, &budget(400), |_| {}).await;
    assert!(again_started.elapsed() < Duration::from_millis(20));
    assert_eq!(again.ok(), Some(answer));
    assert_eq!(a.cache_stats().hits, 1);
}

#[tokio::test]
async fn cloud_eval_answers_in_lichess_shape_from_whites_view() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 1);
    assert_eq!(a.pool().warm_up().await.ok(), Some(1));
    let state = position("3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    let cloud = a
        .cloud_eval(&state, 2, 500, &budget(500))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let json = serde_json::to_value(&cloud).unwrap_or_default();
    assert_eq!(json["fen"], "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    assert_eq!(json["pvs"][0]["mate"], -1, "{json}");
    assert!(
        json["pvs"][0]["moves"].as_str().is_some_and(|m| m.starts_with("d8d1")),
        "{json}"
    );
    assert!(json["pvs"][0].get("cp").is_none());
    assert!(json["knodes"].is_u64() && json["depth"].is_u64());
    assert_eq!(cloud.pvs.len(), 2);
}

#[tokio::test]
async fn a_finished_game_and_bad_parameters_are_refused_before_the_engine() {
    // No engine needed: these never reach it.
    let a = ChessAnalyzer::new(EnginePool::new(config(Path::new("/nonexistent/stockfish"), 1)), 4);
    let mated =
        ChessState::from_fen_and_moves(None, &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap_or_else(|e| panic!("{e}"));
    let refused = a
        .analyze(&mated, &AnalyzeOptions::default(), &budget(100), |_| {})
        .await;
    assert!(matches!(refused, Err(ChessError::Rules(_))), "{refused:?}");
    assert_eq!(refused.as_ref().err().map(ChessError::status), Some(422));
    assert!(refused.is_err_and(|e| e.client_detail() == "the game is over (checkmate)"));
    let bad = AnalyzeOptions {
        multi_pv: 6,
        ..AnalyzeOptions::default()
    };
    let refused = a.analyze(&ChessState::default(), &bad, &budget(100), |_| {}).await;
    assert!(
        matches!(&refused, Err(ChessError::BadParameter { field: "multi_pv", .. })),
        "{refused:?}"
    );
}

#[tokio::test]
async fn the_analyzer_is_shared_across_tasks() {
    // What an axum handler and /analyze's parallel items need: one
    // analyzer behind an Arc, its futures spawned on the runtime.
    let a = Arc::new(ChessAnalyzer::new(
        EnginePool::new(config(Path::new("/nonexistent/stockfish"), 1)),
        4,
    ));
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let a = Arc::clone(&a);
            tokio::spawn(async move {
                let state = ChessState::default();
                a.analyze(&state, &AnalyzeOptions::default(), &budget(100), |_| {})
                    .await
                    .map(|analysis| analysis.depth)
            })
        })
        .collect();
    for task in tasks {
        let result = task.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(result, Err(ChessError::Engine(EngineError::Unavailable(_)))));
    }
}

#[tokio::test]
async fn without_the_engine_requests_are_unavailable_and_say_how_to_install_it() {
    let pool = EnginePool::new(config(Path::new("/nonexistent/stockfish"), 1));
    assert!(!pool.is_available());
    assert!(pool
        .unavailable_reason()
        .is_some_and(|r| r.contains("apt-get install stockfish")));
    let a = ChessAnalyzer::new(pool, 4);
    let answer = a
        .analyze(&ChessState::default(), &AnalyzeOptions::default(), &budget(500), |_| {})
        .await;
    let error = answer.as_ref().err();
    assert_eq!(error.map(ChessError::status), Some(503));
    assert_eq!(error.and_then(ChessError::retry_after_secs), None);
    assert!(error.is_some_and(|e| e.client_detail().contains("apt-get install stockfish")));
    match answer {
        Err(ChessError::Engine(EngineError::Unavailable(message))) => {
            assert!(message.contains("apt-get install stockfish"), "{message}");
            assert!(message.contains("KIBITZ_STOCKFISH_PATH"), "{message}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn a_cold_pool_refuses_a_budget_shorter_than_the_start_and_keeps_the_process() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let pool = EnginePool::new(config(&sf, 1));
    let started = Instant::now();
    let first = pool.search(&long_job(), &budget(60), |_| {}).await;
    assert!(matches!(first, Err(EngineError::Busy { .. })), "{first:?}");
    assert!(started.elapsed() < Duration::from_millis(60 + 50));
    // The process started anyway and serves the next search.
    let next = pool.search(&long_job(), &budget(1500), |_| {}).await;
    assert!(next.is_ok(), "{next:?}");
    assert_eq!(pool.spawned(), 1);
}

#[tokio::test]
async fn a_level_plays_a_legal_move() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 1);
    assert_eq!(a.pool().warm_up().await.ok(), Some(1));
    let state = ChessState::default();
    for level in [1, 5, 10] {
        let mv = a
            .choose_move(&state, level, Some(7), &budget(200))
            .await
            .unwrap_or_else(|e| panic!("level {level}: {e}"));
        assert!(state.san(mv).is_some(), "level {level} played {mv}");
    }
    // The same process served all three (options reset, not restarted).
    assert_eq!(a.pool().spawned(), 1);
}

#[tokio::test]
async fn a_review_finds_the_blunder_that_allowed_mate() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let a = analyzer(&sf, 2);
    assert_eq!(a.pool().warm_up().await.ok(), Some(2));
    // 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#
    let moves: Vec<String> = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let started = Instant::now();
    let review = review_game(&a, None, &moves, &budget(2400))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2400 + 150), "took {took:?}");
    assert_eq!(review.moves.len(), 7);
    let nf6 = &review.moves[5];
    assert_eq!((nf6.color, nf6.played.san.as_str()), ("black", "Nf6"));
    assert_eq!(nf6.judgment, Judgment::Blunder, "{nf6:?}");
    assert_eq!(nf6.eval_after, EvalScore::Mate(-1));
    assert!(nf6.loss >= 15.0 && nf6.accuracy < 50.0, "{nf6:?}");
    let mate = &review.moves[6];
    assert_eq!(mate.played.san, "Qxf7#");
    assert_eq!(mate.judgment, Judgment::Best, "{mate:?}");
    assert_eq!(mate.eval_after, EvalScore::Mate(1));
    assert_eq!(review.black.blunders, 1);
    assert_eq!(review.white.blunders, 0);
    let (white, black) = (
        review.white.accuracy.unwrap_or(0.0),
        review.black.accuracy.unwrap_or(100.0),
    );
    assert!(white > black, "white {white}, black {black}");
    assert!(!mate.exact);
    eprintln!("review of 7 moves in {took:?}: white accuracy {white:.1}, black {black:.1}");
}

fn long_job() -> SearchJob {
    SearchJob {
        position: "startpos".into(),
        multi_pv: 1,
        ..SearchJob::default()
    }
}

#[tokio::test]
async fn killing_an_engine_mid_search_fails_only_that_search() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let pool = EnginePool::new(config(&sf, 2));
    // Two searches at once, each on its own process.
    let depth_a = Arc::new(AtomicU32::new(0));
    let depth_b = Arc::new(AtomicU32::new(0));
    let run = |depth: Arc<AtomicU32>| {
        let pool = pool.clone();
        tokio::spawn(async move {
            let job = long_job();
            let limits = budget(1500);
            pool.search(&job, &limits, |r| depth.store(r.depth, Ordering::Relaxed))
                .await
        })
    };
    let a = run(Arc::clone(&depth_a));
    let b = run(Arc::clone(&depth_b));
    let started = Instant::now();
    while (depth_a.load(Ordering::Relaxed) < 5 || depth_b.load(Ordering::Relaxed) < 5)
        && started.elapsed() < Duration::from_secs(2)
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let pids = pool.live_pids();
    assert_eq!(pids.len(), 2, "{pids:?}");
    let killed_at = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-9", &pids[0].to_string()])
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(status.success());
    let (a, b) = (a.await, b.await);
    let results = [a.unwrap_or_else(|e| panic!("{e}")), b.unwrap_or_else(|e| panic!("{e}"))];
    let failed: Vec<&EngineError> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(failed.len(), 1, "exactly the killed one fails: {results:?}");
    assert!(matches!(failed[0], EngineError::Died(_)), "{failed:?}");
    let ok = results.iter().find_map(|r| r.as_ref().ok());
    assert!(ok.is_some_and(|o| o.best_move.is_some() && o.depth >= 5), "{ok:?}");
    eprintln!(
        "the killed search failed; the other finished {:?} after the kill",
        killed_at.elapsed()
    );
    assert_eq!(pool.killed(), 1);
    assert!(!pool.live_pids().contains(&pids[0]));
    // Two searches at once again: one on the survivor, one on a fresh
    // process, both fine.
    // A generous budget (a process starts, ~0.25 s) but a quick search.
    let job = SearchJob {
        depth: Some(8),
        ..long_job()
    };
    let limits = budget(3000);
    let (c, d) = tokio::join!(pool.search(&job, &limits, |_| {}), pool.search(&job, &limits, |_| {}));
    assert!(c.as_ref().is_ok_and(|o| o.best_move.is_some()), "{c:?}");
    assert!(d.as_ref().is_ok_and(|o| o.best_move.is_some()), "{d:?}");
    assert_eq!(pool.spawned(), 3);
    let pids_after = pool.live_pids();
    assert_eq!(pids_after.len(), 2, "{pids_after:?}");
    assert!(!pids_after.contains(&pids[0]));
}

#[tokio::test]
async fn sixteen_concurrent_searches_on_two_engines_answer_in_budget_or_are_refused_promptly() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let cfg = EngineConfig {
        queue_wait: Duration::from_millis(400),
        ..config(&sf, 2)
    };
    let pool = EnginePool::new(cfg);
    // Warm: this is about sharing two processes, not about starting them
    // (a cold start has its own test).
    assert_eq!(pool.warm_up().await.ok(), Some(2));
    // Budgets of 150..600 ms; a third also stop at depth 6 (quick).
    let tasks: Vec<_> = (0..16u64)
        .map(|i| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let max_ms = 150 + 30 * i;
                let job = SearchJob {
                    depth: (i % 3 == 0).then_some(6),
                    ..long_job()
                };
                let started = Instant::now();
                let result = pool.search(&job, &budget(max_ms), |_| {}).await;
                (max_ms, started.elapsed(), result)
            })
        })
        .collect();
    let (mut answered, mut refused) = (0, 0);
    let mut worst_overrun = Duration::ZERO;
    for task in tasks {
        let (max_ms, took, result) = task.await.unwrap_or_else(|e| panic!("{e}"));
        let budget = Duration::from_millis(max_ms);
        match result {
            Ok(out) => {
                answered += 1;
                assert!(out.best_move.is_some());
                worst_overrun = worst_overrun.max(took.saturating_sub(budget));
                assert!(
                    took <= budget + Duration::from_millis(100),
                    "answered in {took:?}, budget {budget:?}"
                );
            }
            Err(EngineError::Busy { retry_after_secs, .. }) => {
                refused += 1;
                assert!(retry_after_secs >= 1);
                // Refused no later than the queue wait (or its own budget).
                let wait = Duration::from_millis(400).min(budget);
                assert!(took <= wait + Duration::from_millis(100), "refused after {took:?}");
            }
            Err(other) => panic!("neither an answer nor Busy: {other}"),
        }
    }
    eprintln!("16 searches on 2 engines: {answered} answered, {refused} refused, worst overrun {worst_overrun:?}");
    assert!(answered >= 2, "{answered} answered");
    assert_eq!(answered + refused, 16);
    assert_eq!(pool.spawned(), 2, "never more than two processes");
}

#[tokio::test]
async fn a_cancelled_search_stops_at_once_and_keeps_its_engine() {
    let Some(sf) = stockfish() else { return };
    let _turn = ENGINE_LOCK.lock().await;
    let pool = EnginePool::new(config(&sf, 1));
    assert_eq!(pool.warm_up().await.ok(), Some(1));
    let limits = budget(5000);
    let cancel = limits.cancel_handle();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let out = pool.search(&long_job(), &limits, |_| {}).await;
    let took = started.elapsed();
    // Cancelled at 200 ms of a 5 s budget: answered at once (the slack is
    // for a loaded machine).
    assert!(
        took < Duration::from_millis(200 + 40 + 300),
        "cancelled search took {took:?}"
    );
    assert!(
        out.as_ref().is_ok_and(|o| o.stopped && o.best_move.is_some()),
        "{out:?}"
    );
    // A search whose caller went away (its future dropped) is stopped in
    // the background and its process reused.
    let dropped = tokio::time::timeout(
        Duration::from_millis(200),
        pool.search(&long_job(), &budget(5000), |_| {}),
    )
    .await;
    assert!(dropped.is_err());
    let next_started = Instant::now();
    let next = pool.search(&long_job(), &budget(1000), |_| {}).await;
    assert!(next.is_ok(), "{next:?}");
    assert!(next_started.elapsed() < Duration::from_millis(1000 + 100));
    assert_eq!(pool.spawned(), 1);
    assert_eq!(pool.killed(), 0);
}

/// A fake engine: answers the handshake, then does what `on_go` says.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo 'option name Hash type spin default 16 min 1 max 64'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
    path
}

#[tokio::test]
async fn a_silent_engine_is_declared_hung_after_the_grace_and_replaced() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Never answers `go` or `stop`, and has printed nothing to answer from.
    let silent = fake_engine(dir.path(), "silent", ":");
    let pool = EnginePool::new(EngineConfig {
        stop_grace: Duration::from_millis(100),
        ..config(&silent, 1)
    });
    let started = Instant::now();
    let out = pool.search(&long_job(), &budget(200), |_| {}).await;
    let took = started.elapsed();
    assert!(matches!(out, Err(EngineError::Hung(_))), "{out:?}");
    assert!(took < Duration::from_millis(200 + 100 + 150), "took {took:?}");
    assert_eq!(pool.killed(), 1);
    assert!(pool.live_pids().is_empty());
    let again = pool.search(&long_job(), &budget(100), |_| {}).await;
    assert!(matches!(again, Err(EngineError::Hung(_))));
    assert_eq!(pool.spawned(), 2, "a fresh process for the next search");
}

#[tokio::test]
async fn a_stuck_engine_answers_from_its_last_depth_on_time_then_is_killed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Reports a depth, then never sends `bestmove` (but, like Stockfish
    // mid-search, still answers `isready`).
    let stuck = fake_engine(dir.path(), "stuck", "echo 'info depth 1 score cp 5 nodes 20 pv e2e4'");
    let pool = EnginePool::new(EngineConfig {
        stop_grace: Duration::from_millis(100),
        ..config(&stuck, 1)
    });
    assert_eq!(pool.warm_up().await.ok(), Some(1));
    let started = Instant::now();
    let out = pool.search(&long_job(), &budget(200), |_| {}).await;
    let took = started.elapsed();
    let Ok(out) = out else {
        panic!("expected an answer from the last depth, got {out:?}");
    };
    assert_eq!(out.best_move.as_deref(), Some("e2e4"));
    assert!(out.stopped);
    // The deadline plus the answer wait (40 ms), plus slack for a loaded
    // machine; not the 100 ms grace.
    assert!(took < Duration::from_millis(200 + 40 + 50), "took {took:?}");
    // In the background the engine gets its grace, then is killed.
    let waited = Instant::now();
    while pool.killed() == 0 && waited.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(pool.killed(), 1);
    assert!(pool.live_pids().is_empty());
}

#[tokio::test]
async fn an_engine_that_dies_fails_its_search_quickly() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dies = fake_engine(dir.path(), "dies", "exit 3");
    let pool = EnginePool::new(config(&dies, 1));
    let started = Instant::now();
    let out = pool.search(&long_job(), &budget(2000), |_| {}).await;
    assert!(matches!(out, Err(EngineError::Died(_))), "{out:?}");
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!(pool.killed(), 1);
}

#[tokio::test]
async fn an_engine_flooding_one_endless_line_is_refused() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let flood = fake_engine(dir.path(), "flood", "head -c 200000 /dev/zero | tr '\\0' a; echo");
    let pool = EnginePool::new(config(&flood, 1));
    let out = pool.search(&long_job(), &budget(2000), |_| {}).await;
    assert!(matches!(out, Err(EngineError::Protocol(_))), "{out:?}");
}
