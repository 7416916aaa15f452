//! The gnubg adapter against the real GNU Backgammon, plus its failure
//! handling against small fake gnubgs (shell scripts that hang or answer
//! garbage), which need no gnubg.
//!
//! gnubg is found on PATH or in /usr/games. Without it the tests that need
//! it fail, unless KIBITZ_TEST_GNUBG=skip says the run chose to skip them.
//!
//! The legal plays are checked against a move generator written here from
//! the rules (both dice when possible, else the larger, four moves on
//! doubles, the bar first, bearing off with the exact or, from the
//! highest point, a larger die), and a Position ID codec written from its
//! published description (each side's 25 points from its ace point to its
//! bar, a 1 per checker and a 0 after each point, the side not on roll
//! first, 80 bits little-endian in 10 bytes, base64 without padding).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kibitz::engines::EngineError;
use kibitz::games::backgammon::gnubg::{
    Cube, CubeAction, CubeOwner, CubeResponse, GnubgConfig, GnubgError, GnubgPool, MatchState, MoveAnalysis, Situation,
    Strength, BAR, OFF,
};
use kibitz::solve::limits::SearchLimits;
use rand::{Rng, SeedableRng};

use super::gnubg_support;
use gnubg_support::gnubg;

const START: &str = "4HPwATDgc/ABMA";

fn pool(path: &Path) -> GnubgPool {
    GnubgPool::new(GnubgConfig {
        path: Some(path.to_path_buf()),
        count: 1,
        ..GnubgConfig::default()
    })
}

fn money(position: &str) -> Situation {
    Situation {
        position: position.to_string(),
        ..Situation::default()
    }
}

fn plies(n: u8) -> Strength {
    Strength {
        plies: Some(n),
        noise: 0.0,
    }
}

fn budget(ms: u64) -> SearchLimits {
    SearchLimits::within(Duration::from_millis(ms))
}

async fn moves(pool: &GnubgPool, position: &str, dice: [u8; 2], depth: u8) -> MoveAnalysis {
    pool.moves(&money(position), dice, &plies(depth), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{position} {dice:?}: {e}"))
}

// ---- A Position ID codec and a move generator of the test's own ----

type Side = [u8; 25];

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The ID of a board whose `first` side is not on roll.
fn encode(first: &Side, second: &Side) -> String {
    let mut bits = Vec::with_capacity(80);
    for side in [first, second] {
        for &n in side {
            bits.extend(std::iter::repeat_n(true, n as usize));
            bits.push(false);
        }
    }
    let mut bytes = [0u8; 10];
    for (i, bit) in bits.iter().enumerate() {
        if *bit {
            bytes[i / 8] |= 1 << (i % 8);
        }
    }
    // 80 bits are 13 full sextets and 2 bits: 14 characters.
    let mut out = String::new();
    for k in 0..14 {
        let mut v = 0usize;
        for j in 0..6 {
            let bit = k * 6 + j;
            let set = bit < 80 && bytes[bit / 8] & (0x80 >> (bit % 8)) != 0;
            v = v << 1 | usize::from(set);
        }
        out.push(B64[v] as char);
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Board {
    /// The side on roll, from its ace point (index 0) to its bar (24).
    me: Side,
    /// The opponent, from its own ace point.
    opp: Side,
}

impl Board {
    fn id(&self) -> String {
        encode(&self.opp, &self.me)
    }

    /// The ID once the turn has passed (the mover's side first).
    fn id_after(&self) -> String {
        encode(&self.me, &self.opp)
    }

    /// One checker from `from` (1..=25, 25 the bar) by `die`.
    fn step(&self, from: usize, die: u8) -> Option<Board> {
        let mut n = *self;
        if n.me[from - 1] == 0 || (n.me[24] > 0 && from != 25) {
            return None;
        }
        let to = from as i32 - i32::from(die);
        if to >= 1 {
            let to = to as usize;
            let theirs = 24 - to;
            if n.opp[theirs] >= 2 {
                return None;
            }
            if n.opp[theirs] == 1 {
                n.opp[theirs] = 0;
                n.opp[24] += 1;
            }
            n.me[to - 1] += 1;
        } else {
            // Bearing off: everything home; a larger die only from the
            // highest occupied point.
            if n.me[6..25].iter().any(|&c| c > 0) || (to < 0 && n.me[from..6].iter().any(|&c| c > 0)) {
                return None;
            }
        }
        n.me[from - 1] -= 1;
        Some(n)
    }

    /// Every legal play's resulting board.
    fn plays(&self, dice: [u8; 2]) -> BTreeSet<Board> {
        fn walk(b: &Board, dice: &[u8], used: usize, first: Option<u8>, out: &mut Vec<(usize, Option<u8>, Board)>) {
            let mut moved = false;
            if let Some((&d, rest)) = dice.split_first() {
                for from in 1..=25 {
                    if let Some(next) = b.step(from, d) {
                        moved = true;
                        walk(&next, rest, used + 1, first.or(Some(d)), out);
                    }
                }
            }
            if !moved {
                out.push((used, first, *b));
            }
        }
        let [a, b] = dice;
        let orders = if a == b {
            vec![vec![a; 4]]
        } else {
            vec![vec![a, b], vec![b, a]]
        };
        let mut all = Vec::new();
        for order in orders {
            walk(self, &order, 0, None, &mut all);
        }
        let most = all.iter().map(|(used, _, _)| *used).max().unwrap_or(0);
        all.retain(|(used, _, _)| *used == most);
        if most == 1 && a != b && all.iter().any(|(_, die, _)| *die == Some(a.max(b))) {
            all.retain(|(_, die, _)| *die == Some(a.max(b)));
        }
        all.into_iter().map(|(_, _, board)| board).collect()
    }
}

fn start() -> Board {
    let mut side = [0u8; 25];
    side[5] = 5;
    side[7] = 3;
    side[12] = 5;
    side[23] = 2;
    Board { me: side, opp: side }
}

/// A random position: 15 checkers a side, some borne off or on the bar,
/// no point shared.
fn random_board(rng: &mut impl Rng) -> Board {
    let mut b = Board {
        me: [0; 25],
        opp: [0; 25],
    };
    // A third are bear-offs: everything home.
    let racing = rng.gen_bool(0.35);
    for side in 0..2 {
        let on_board = rng.gen_range(if racing { 3..=15 } else { 12..=15 });
        let mut placed = 0;
        while placed < on_board {
            let point = if rng.gen_bool(0.03) {
                24
            } else if racing {
                rng.gen_range(0..6)
            } else {
                rng.gen_range(0..24)
            };
            let (mine, theirs) = if side == 0 {
                (&mut b.me, &b.opp)
            } else {
                (&mut b.opp, &b.me)
            };
            if point < 24 && theirs[23 - point] > 0 {
                continue;
            }
            mine[point] += 1;
            placed += 1;
        }
    }
    b
}

fn ids_after(answer: &MoveAnalysis) -> BTreeSet<String> {
    answer.plays.iter().map(|p| p.position_after.clone()).collect()
}

#[test]
fn the_test_codec_gives_the_start_id() {
    assert_eq!(start().id(), START);
    // The generator's 16 distinct plays for the opening 3-1 (counted by
    // hand: 8/5 6/5, 8/4, 6/2, 13/9, 24/20, 24/23 24/21, and the ten other
    // pairs of a 3 from 24, 13, 8 or 6 with a 1 from 24, 8 or 6 that are
    // not those), among them 8/5 6/5, which gnubg calls sGfwATDgc/ABMA.
    let plays = start().plays([3, 1]);
    assert_eq!(plays.len(), 16);
    let mut made = start();
    made.me[7] -= 1;
    made.me[5] -= 1;
    made.me[4] += 2;
    assert!(plays.contains(&made));
    assert_eq!(made.id_after(), "sGfwATDgc/ABMA");
}

// ---- Against the real gnubg ----

#[tokio::test]
async fn the_opening_rolls_get_the_plays_every_engine_agrees_on() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    for (dice, play) in [([3, 1], "8/5 6/5"), ([4, 2], "8/4 6/4"), ([6, 1], "13/7 8/7")] {
        let answer = moves(&pool, START, dice, 2).await;
        let best = &answer.plays[0];
        assert_eq!(best.text, play, "{dice:?}");
        assert_eq!(best.plies, 2, "the chosen play is evaluated at the depth asked");
        let p = best.probabilities;
        assert!(p.win > 0.5 && p.win < 0.6, "{p:?}");
        assert!(p.win_gammon >= p.win_backgammon && p.lose_gammon >= p.lose_backgammon);
        assert!(best.equity > 0.0 && best.mwc.is_none());
    }
}

#[tokio::test]
async fn every_legal_play_is_listed_once() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    // The opening rolls, then random positions, against the test's own
    // generator: the same set of resulting positions, none twice.
    let mut cases: Vec<(Board, [u8; 2])> = [[3, 1], [3, 3], [6, 5], [1, 1], [6, 6]]
        .into_iter()
        .map(|d| (start(), d))
        .collect();
    // On the bar against a closed board: no legal play.
    let mut closed = Board {
        me: [0; 25],
        opp: [0; 25],
    };
    closed.me[24] = 1;
    closed.me[5] = 14;
    closed.opp[..6].fill(2);
    closed.opp[12] = 3;
    cases.push((closed, [6, 6]));
    let mut rng = rand::rngs::StdRng::seed_from_u64(44);
    for _ in 0..60 {
        let dice = [rng.gen_range(1..=6), rng.gen_range(1..=6)];
        cases.push((random_board(&mut rng), dice));
    }
    // What the cases covered, so that the comparison is not vacuous.
    let (mut entering, mut bearing_off, mut blocked) = (0, 0, 0);
    for (board, dice) in cases {
        let answer = moves(&pool, &board.id(), dice, 0).await;
        let steps = answer.plays.iter().flat_map(|p| p.steps.iter());
        entering += steps.clone().filter(|s| s.from == BAR).count();
        bearing_off += steps.filter(|s| s.to == OFF).count();
        let expected: BTreeSet<String> = board.plays(dice).iter().map(Board::id_after).collect();
        let got = ids_after(&answer);
        assert_eq!(
            got.len(),
            answer.plays.len(),
            "{} {dice:?}: a position listed twice",
            board.id()
        );
        // The generator's empty play (no legal move) is the board
        // unchanged; gnubg's must be its one play, with no step.
        if answer.plays[0].steps.is_empty() {
            assert_eq!(answer.plays.len(), 1);
            assert!(answer.plays[0].text.is_empty());
            blocked += 1;
        }
        assert_eq!(got, expected, "{} {dice:?}", board.id());
    }
    eprintln!("{entering} entering moves, {bearing_off} bearing off, {blocked} rolls with no play");
    assert!(entering > 0 && bearing_off > 0 && blocked > 0);
}

#[tokio::test]
async fn the_opening_counts_are_the_generators() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    for (dice, count) in [([3, 1], 16), ([3, 3], 73)] {
        let answer = moves(&pool, START, dice, 0).await;
        assert_eq!(start().plays(dice).len(), count, "{dice:?}");
        assert_eq!(answer.plays.len(), count, "{dice:?}");
    }
}

#[tokio::test]
async fn plays_come_best_first() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    for depth in [0, 2] {
        let answer = moves(&pool, START, [3, 3], depth).await;
        assert_eq!(answer.plies, depth);
        assert_eq!(answer.plays[0].plies, depth);
        // Deeper first, then by equity within a depth.
        for pair in answer.plays.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(a.plies >= b.plies, "{} before {}", a.text, b.text);
            if a.plies == b.plies {
                assert!(
                    a.equity >= b.equity,
                    "{} {} before {} {}",
                    a.text,
                    a.equity,
                    b.text,
                    b.equity
                );
            }
        }
        if depth == 0 {
            assert!(answer.plays.iter().all(|p| p.plies == 0));
        }
    }
}

#[tokio::test]
async fn a_play_is_seen_from_the_movers_side_and_its_position_from_the_opponents() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    let answer = moves(&pool, START, [3, 1], 0).await;
    let best = &answer.plays[0];
    // The position after, with the opponent on roll, evaluated for them:
    // the same numbers, negated and mirrored.
    let theirs = pool
        .evaluate(&money(&best.position_after), &plies(0), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        (theirs.equity + best.equity).abs() < 1e-6,
        "{} {}",
        theirs.equity,
        best.equity
    );
    assert!((theirs.cubeless_equity + best.cubeless_equity).abs() < 1e-6);
    assert!((theirs.probabilities.win + best.probabilities.win - 1.0).abs() < 1e-6);
    assert!((theirs.probabilities.lose_gammon - best.probabilities.win_gammon).abs() < 1e-6);
}

#[tokio::test]
async fn a_huge_position_is_double_pass_or_too_good() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    // The side on roll has everything home; the opponent is far behind in
    // a race (its checkers on its 13, 14 and 18 points).
    let mut b = Board {
        me: [0; 25],
        opp: [0; 25],
    };
    b.me[..3].fill(5);
    b.opp[12] = 5;
    b.opp[13] = 5;
    b.opp[17] = 5;
    let decision = pool
        .cube(&money(&b.id()), &plies(2), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        decision.too_good || (decision.action == CubeAction::Double && decision.response == Some(CubeResponse::Pass)),
        "{decision:?}"
    );
    assert_eq!(decision.response, Some(CubeResponse::Pass));
    assert!(decision.equities.double_pass <= decision.equities.double_take);
    // The start: no double, take.
    let opening = pool
        .cube(&money(START), &plies(0), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(opening.action, CubeAction::NoDouble);
    assert_eq!(opening.response, Some(CubeResponse::Take));
    assert!(!opening.too_good && opening.available);
    // The opponent's cube: the side on roll may not double.
    let theirs = Situation {
        cube: Cube {
            value: 2,
            owner: CubeOwner::Opponent,
        },
        ..money(START)
    };
    let decision = pool
        .cube(&theirs, &plies(0), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!decision.available && decision.response.is_none());
}

#[tokio::test]
async fn match_play_gives_match_winning_chances() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    let situation = Situation {
        match_state: Some(MatchState {
            length: 7,
            score_me: 0,
            score_opponent: 0,
            crawford: false,
        }),
        ..money(START)
    };
    let answer = pool
        .moves(&situation, [3, 1], &plies(0), &budget(5000))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mwc = answer.plays[0].mwc.unwrap_or(0.0);
    assert!(mwc > 0.5 && mwc < 0.6, "{mwc}");
    // A score past the match is refused, not sent on.
    let wrong = Situation {
        match_state: Some(MatchState {
            length: 7,
            score_me: 7,
            score_opponent: 0,
            crawford: false,
        }),
        ..money(START)
    };
    let out = pool.moves(&wrong, [3, 1], &plies(0), &budget(5000)).await;
    assert!(matches!(out, Err(GnubgError::Invalid(_))), "{out:?}");
}

#[tokio::test]
async fn a_garbage_position_is_an_error_not_a_hang() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    let started = Instant::now();
    for garbage in ["garbage", "", "4HPwATDgc/ABM", "//////////////", "4HPwATDgc/AB\nA"] {
        let out = pool.moves(&money(garbage), [3, 1], &plies(0), &budget(5000)).await;
        assert!(matches!(out, Err(GnubgError::Invalid(_))), "{garbage:?}: {out:?}");
    }
    let dice = pool.moves(&money(START), [0, 7], &plies(0), &budget(5000)).await;
    assert!(matches!(dice, Err(GnubgError::Invalid(_))), "{dice:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    // The process survived all of it.
    assert_eq!(pool.processes().spawned(), 1);
    assert_eq!(pool.processes().killed(), 0);
    moves(&pool, START, [3, 1], 0).await;
}

#[tokio::test]
async fn a_process_killed_in_the_pool_is_replaced() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    assert_eq!(pool.warm_up().await.unwrap_or_else(|e| panic!("{e}")), 1);
    let pids = pool.processes().live_pids();
    assert_eq!(pids.len(), 1);
    let status = std::process::Command::new("kill")
        .arg("-9")
        .arg(pids[0].to_string())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
    tokio::time::sleep(Duration::from_millis(50)).await;
    // The dead process fails its question (it is killed and counted) or,
    // if the pool saw it die first, the next one simply starts afresh.
    let first = pool.moves(&money(START), [3, 1], &plies(0), &budget(5000)).await;
    if let Err(e) = &first {
        assert!(matches!(e, GnubgError::Engine(EngineError::Died(_))), "{e}");
        assert_eq!(pool.processes().killed(), 1);
    }
    let answer = moves(&pool, START, [3, 1], 0).await;
    assert_eq!(answer.plays[0].text, "8/5 6/5");
    assert_eq!(pool.processes().spawned(), 2);
    assert_eq!(pool.processes().live_pids().len(), 1);
    assert_ne!(pool.processes().live_pids(), pids);
}

/// Prints how long gnubg takes: start-up, and a `move` for the opening at
/// each depth. `cargo test --test backgammon_gnubg -- --ignored --nocapture`
#[tokio::test]
#[ignore]
async fn timings() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    let started = Instant::now();
    pool.warm_up().await.unwrap_or_else(|e| panic!("{e}"));
    eprintln!("start-up to ready: {:?}", started.elapsed());
    for dice in [[3, 1], [3, 3]] {
        for depth in 0..=3 {
            let started = Instant::now();
            let answer = pool.moves(&money(START), dice, &plies(depth), &budget(60_000)).await;
            let answer = answer.unwrap_or_else(|e| panic!("{e}"));
            eprintln!(
                "move {dice:?} at {depth}-ply: {:?} round trip, gnubg {:.1} ms, {} plays",
                started.elapsed(),
                answer.elapsed_ms,
                answer.plays.len()
            );
        }
    }
    for depth in 0..=3 {
        let started = Instant::now();
        pool.cube(&money(START), &plies(depth), &budget(60_000))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        eprintln!("cube at {depth}-ply: {:?}", started.elapsed());
    }
}

// ---- Without gnubg ----

#[tokio::test]
async fn without_gnubg_the_error_says_how_to_install_it() {
    let pool = GnubgPool::new(GnubgConfig {
        path: Some(PathBuf::from("/nonexistent/gnubg")),
        ..GnubgConfig::default()
    });
    assert!(!pool.is_available());
    let reason = pool.unavailable_reason().unwrap_or_default();
    assert!(reason.contains("apt-get install gnubg"), "{reason}");
    let out = pool.moves(&money(START), [3, 1], &plies(0), &budget(1000)).await;
    match out {
        Err(e @ GnubgError::Engine(EngineError::Unavailable(_))) => {
            assert!(e.to_string().contains("install gnubg"), "{e}");
            assert_eq!(e.retry_after_secs(), None);
        }
        other => panic!("{other:?}"),
    }
}

/// A fake gnubg: says ready, then runs `on_request` for each line read.
fn fake_gnubg(dir: &Path, name: &str, on_request: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\necho 'GNU Backgammon 0.0 fake'\necho '{{\"ready\":true,\"protocol\":1}}'\nwhile read -r line; do\n  {on_request}\ndone\n"
    );
    std::fs::write(&path, script).unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
    path
}

fn fake_pool(path: &Path) -> GnubgPool {
    GnubgPool::new(GnubgConfig {
        path: Some(path.to_path_buf()),
        count: 1,
        answer_grace: Duration::from_millis(200),
        ..GnubgConfig::default()
    })
}

#[tokio::test]
async fn a_silent_gnubg_is_declared_hung_after_the_grace_and_replaced() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pool = fake_pool(&fake_gnubg(dir.path(), "silent", ":"));
    let started = Instant::now();
    let out = pool.moves(&money(START), [3, 1], &plies(0), &budget(100)).await;
    let took = started.elapsed();
    assert!(matches!(out, Err(GnubgError::Engine(EngineError::Hung(_)))), "{out:?}");
    assert!(took < Duration::from_millis(100 + 200 + 300), "took {took:?}");
    assert_eq!(pool.processes().killed(), 1);
    assert!(pool.processes().live_pids().is_empty());
    let again = pool.moves(&money(START), [3, 1], &plies(0), &budget(100)).await;
    assert!(matches!(again, Err(GnubgError::Engine(EngineError::Hung(_)))));
    assert_eq!(pool.processes().spawned(), 2, "a fresh process for the next question");
}

#[tokio::test]
async fn a_question_abandoned_by_its_caller_costs_the_process() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pool = fake_pool(&fake_gnubg(dir.path(), "slow", "sleep 10"));
    let (situation, strength, limits) = (money(START), plies(0), budget(5000));
    let question = pool.moves(&situation, [3, 1], &strength, &limits);
    // The caller goes away mid-question (a client that hung up).
    assert!(tokio::time::timeout(Duration::from_millis(300), question)
        .await
        .is_err());
    assert_eq!(pool.processes().killed(), 1);
    assert!(pool.processes().live_pids().is_empty());
    // The permit came free with it.
    let again = pool.moves(&money(START), [3, 1], &plies(0), &budget(100)).await;
    assert!(
        matches!(again, Err(GnubgError::Engine(EngineError::Hung(_)))),
        "{again:?}"
    );
    assert_eq!(pool.processes().spawned(), 2);
}

#[tokio::test]
async fn a_garbage_answer_kills_the_process() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (name, answer) in [
        ("garbage", "echo 'not json'"),
        ("wrong-id", "echo '{\"id\":99,\"ok\":{}}'"),
        (
            "wrong-shape",
            "echo \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/{\"id\":\\1,\"ok\":{\"plays\":3}}/'",
        ),
        (
            "no-play",
            "echo \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/{\"id\":\\1,\"ok\":{\"class\":\"race\",\"plays\":[],\"elapsed_ms\":1}}/'",
        ),
        (
            "internal",
            "echo \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/{\"id\":\\1,\"error\":\"internal\",\"message\":\"x\"}/'",
        ),
        ("endless", "head -c 5000000 /dev/zero | tr '\\0' 'x'; echo"),
    ] {
        let pool = fake_pool(&fake_gnubg(dir.path(), name, answer));
        let out = pool.moves(&money(START), [3, 1], &plies(0), &budget(2000)).await;
        assert!(
            matches!(out, Err(GnubgError::Engine(EngineError::Protocol(_)))),
            "{name}: {out:?}"
        );
        assert_eq!(pool.processes().killed(), 1, "{name}");
    }
}

#[tokio::test]
async fn a_program_that_never_says_ready_fails_to_start() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("mute");
    std::fs::write(&path, "#!/bin/sh\necho hello\nexit 0\n").unwrap_or_else(|e| panic!("{e}"));
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
    }
    let pool = fake_pool(&path);
    let out = pool.moves(&money(START), [3, 1], &plies(0), &budget(2000)).await;
    assert!(matches!(out, Err(GnubgError::Engine(EngineError::Died(_)))), "{out:?}");
}

#[tokio::test]
async fn one_process_serves_clients_in_turn_and_the_budget_picks_the_depth() {
    let Some(path) = gnubg() else { return };
    let pool = pool(&path);
    // Four clients at once on a pool of one: each waits its turn.
    let asks = (1..=4u8).map(|n| {
        let pool = pool.clone();
        let client = std::net::IpAddr::from([127, 0, 0, n]);
        tokio::spawn(kibitz::fair::as_client(client, async move {
            pool.moves(&money(START), [n, 1], &plies(0), &budget(5000)).await
        }))
    });
    for ask in asks.collect::<Vec<_>>() {
        let answer = ask.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(answer.is_ok(), "{answer:?}");
    }
    assert_eq!(pool.processes().spawned(), 1);
    // No depth asked: the budget's. A level's depth is a ceiling.
    let any = Strength::default();
    let quick = pool.moves(&money(START), [3, 1], &any, &budget(50)).await;
    assert_eq!(quick.map(|a| a.plies).ok(), Some(0));
    let slower = pool.moves(&money(START), [3, 1], &any, &budget(3000)).await;
    assert_eq!(slower.map(|a| a.plies).ok(), Some(2));
    let capped = pool.moves(&money(START), [3, 1], &plies(3), &budget(500)).await;
    assert_eq!(capped.map(|a| a.plies).ok(), Some(1));
}
