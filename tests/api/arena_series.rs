//! The arena's domain: strategy names, Pig's exact evaluation against the
//! published reference and against an independent computation, sampled
//! runs against the exact values, repeatability, and every game's series.

use std::sync::Arc;
use std::time::Duration;

use kibitz::arena::strategy::known_names;
use kibitz::arena::ArenaKind;
use kibitz::arena::{Arena, ArenaError, ArenaSpec, Budget, Strategy, Tally};
use kibitz::games::pig::arena::PigPolicy;
use kibitz::games::pig::arena_exact::evaluate;
use kibitz::games::pig::solve::solve;
use kibitz::games::pig::tables::cache::PigTables;
use kibitz::games::pig::{PigRules, Variant};
use kibitz::registry::ARENA_GAMES;
use kibitz::solve::limits::SearchLimits;
use kibitz::solve::solvers::{MemoSizes, Solvers};
use serde_json::{json, Value};

use crate::game::connect_four::brute as connect_four_brute;

use connect_four_brute::{brute_score, Grid};

/// The server's solvers as the arena shares them: the Pig tables prepared
/// (in the tests' table directory).
fn shared() -> Solvers {
    let solvers = Solvers::new(MemoSizes {
        positions: 1 << 16,
        sequence_bytes: MemoSizes::DEFAULT_SEQUENCE_BYTES,
        table_entries: 1 << 16,
        answers: 0,
        search_helpers: 0,
    });
    solvers.provide(Arc::new(PigTables::new(
        std::env::temp_dir().join("kibitz-test-tables"),
        1 << 28,
    )));
    solvers
}

fn arena(game: &str, a: &str, b: &str, options: Option<Value>) -> Result<Arena, ArenaError> {
    let spec = ArenaSpec {
        game,
        a,
        b,
        options: options.as_ref(),
    };
    Arena::new(ARENA_GAMES, spec, &shared(), Budget::default())
}

/// The arena game called `id`.
fn kind(id: &str) -> ArenaKind {
    ARENA_GAMES.find(id).unwrap()
}

fn run(arena: &Arena, games: u64, seed: u64) -> Tally {
    let limits = SearchLimits::within(Duration::from_secs(3600));
    arena.run(games, seed, &limits, &mut |_| {}).unwrap()
}

fn policy(rules: PigRules, name: &str) -> PigPolicy {
    let table = Arc::new(solve(&rules));
    PigPolicy::new(Strategy::parse(kind("pig"), "a", name).unwrap(), table).unwrap()
}

fn rules(goal: i64, sides: i64, variant: Variant) -> PigRules {
    PigRules::new(goal, sides, variant, 200).unwrap()
}

#[test]
fn optimal_against_hold_at_20_matches_the_reference() {
    let exact = arena("pig", "optimal", "hold_at:20", None).unwrap().exact().unwrap();
    println!("{exact:?}");
    assert!((exact.a_first - 0.5715).abs() < 5e-5, "{exact:?}");
    assert!((exact.a_second - 0.5083).abs() < 5e-5, "{exact:?}");
}

#[test]
fn optimal_against_itself_is_the_solvers_first_player_probability() {
    let arena = arena("pig", "optimal", "level:10", None).unwrap();
    let exact = arena.exact().unwrap();
    let rules = rules(100, 6, Variant::Standard);
    let p = kibitz::games::pig::tables::shared_tables(&shared())
        .get_blocking(rules)
        .win_probability(0, 0, 0);
    assert!((p - 0.5306).abs() < 5e-5, "published: 0.5306, table {p}");
    assert!((exact.a_first - p).abs() < 1e-9, "{exact:?} vs {p}");
    assert!((exact.a_second - (1.0 - p)).abs() < 1e-9, "{exact:?} vs {p}");
}

/// An independent computation: Gauss-Seidel value iteration over every
/// state (who moves, the mover's score, the other's, the turn total) until
/// no value moves. Returns A's chances moving first and second.
fn brute_force(a: &PigPolicy, b: &PigPolicy) -> (f64, f64) {
    let rules = *a.rules();
    let goal = rules.goal() as usize;
    let sides = rules.die_sides();
    let p = 1.0 / f64::from(sides);
    let idx = |m: usize, i: usize, j: usize, k: usize| ((m * goal + i) * goal + j) * goal + k;
    let mut v = vec![0.5; 2 * goal * goal * goal];
    for _ in 0..100_000 {
        let mut delta: f64 = 0.0;
        for m in 0..2 {
            let (policy, win) = if m == 0 { (a, 1.0) } else { (b, 0.0) };
            for i in (0..goal).rev() {
                for j in (0..goal).rev() {
                    for k in (0..goal - i).rev() {
                        let (iu, ju, ku) = (i as u32, j as u32, k as u32);
                        let end_turn = |v: &[f64], amount: u32| {
                            let score = i + amount as usize;
                            if score >= goal {
                                win
                            } else {
                                v[idx(1 - m, j, score, 0)]
                            }
                        };
                        let new = if policy.holding_wins(iu, ku) {
                            win
                        } else {
                            let hold = end_turn(&v, rules.banked_on_hold(ku));
                            let mut roll = p * end_turn(&v, rules.banked_on_one());
                            for face in 2..=sides {
                                let t = ku + face;
                                roll += p * if policy.holding_wins(iu, t) {
                                    win
                                } else {
                                    v[idx(m, i, j, t as usize)]
                                };
                            }
                            let r = policy.roll_probability(iu, ju, ku);
                            r * roll + (1.0 - r) * hold
                        };
                        delta = delta.max((new - v[idx(m, i, j, k)]).abs());
                        v[idx(m, i, j, k)] = new;
                    }
                }
            }
        }
        if delta < 1e-15 {
            break;
        }
    }
    (v[idx(0, 0, 0, 0)], v[idx(1, 0, 0, 0)])
}

#[test]
fn exact_evaluation_agrees_with_brute_force_value_iteration() {
    let pairs = [
        ("optimal", "hold_at:5"),
        ("kper", "random"),
        ("level:3", "optimal"),
        ("hold_at:3", "level:1"),
        ("random", "random"),
    ];
    for (goal, sides, variant) in [
        (12, 6, Variant::Standard),
        (15, 4, Variant::Progressive),
        (20, 6, Variant::Standard),
    ] {
        let r = rules(goal, sides, variant);
        for (a, b) in pairs {
            let (pa, pb) = (policy(r, a), policy(r, b));
            let exact = evaluate(&pa, &pb);
            let (first, second) = brute_force(&pa, &pb);
            assert!(
                (exact.a_first - first).abs() < 1e-10,
                "{goal} {a}/{b}: {exact:?} vs {first}"
            );
            assert!(
                (exact.a_second - second).abs() < 1e-10,
                "{goal} {a}/{b}: {exact:?} vs {second}"
            );
        }
    }
}

#[test]
fn exact_evaluation_of_goal_one_matches_the_hand_computation() {
    let r = rules(1, 6, Variant::Standard);
    // Any roll but a 1 wins: x = 5/6 + (1/6)(1/6)x, so x = 6/7.
    let sure = evaluate(&policy(r, "hold_at:1"), &policy(r, "hold_at:1"));
    assert!((sure.a_first - 6.0 / 7.0).abs() < 1e-15, "{sure:?}");
    // A coin between rolling and passing: x = 5/12 + (7/12) y with
    // y = (7/12) x, so x = 12/19.
    let coin = evaluate(&policy(r, "random"), &policy(r, "random"));
    assert!((coin.a_first - 12.0 / 19.0).abs() < 1e-15, "{coin:?}");
    assert!((coin.a_second - 7.0 / 19.0).abs() < 1e-15, "{coin:?}");
}

fn contains(interval: [f64; 2], value: f64) -> bool {
    interval[0] <= value && value <= interval[1]
}

#[test]
fn sampled_pig_runs_agree_with_the_exact_values_within_their_interval() {
    for (a, b, games) in [("optimal", "hold_at:20", 4000), ("level:2", "kper", 2000)] {
        let arena = arena("pig", a, b, None).unwrap();
        let exact = arena.exact().unwrap();
        let tally = run(&arena, games, 42);
        let ci = tally.a_share_ci95().unwrap();
        println!("{a} vs {b}: sampled {:?} {ci:?}, exact {exact:?}", tally.a_share());
        assert!(contains(ci, exact.a_share()), "{a}/{b}: {ci:?} vs {exact:?}");
        let seat =
            |r: &kibitz::arena::Record| kibitz::arena::summary::wilson(r.points / r.games() as f64, r.games() as f64);
        assert!(contains(seat(&tally.seats.a_first), exact.a_first), "{a}/{b} first");
        assert!(contains(seat(&tally.seats.a_second), exact.a_second), "{a}/{b} second");
    }
}

#[test]
fn the_same_seed_gives_the_same_series_and_another_seed_another() {
    let arena = arena("pig", "random", "kper", Some(json!({"goal": 40}))).unwrap();
    let one = run(&arena, 60, 5);
    assert_eq!(one, run(&arena, 60, 5));
    assert_ne!(one.mean_margin(), run(&arena, 60, 6).mean_margin());
    // Level 10 is the optimal player itself, die for die.
    let best = run(&self::arena("pig", "optimal", "kper", None).unwrap(), 50, 9);
    let ten = run(&self::arena("pig", "level:10", "kper", None).unwrap(), 50, 9);
    assert_eq!(best, ten);
}

#[test]
fn seats_alternate_with_a_first_in_odd_numbered_games() {
    let arena = arena("tictactoe", "random", "random", None).unwrap();
    let tally = run(&arena, 7, 1);
    assert_eq!(tally.seats.a_first.games(), 4);
    assert_eq!(tally.seats.a_second.games(), 3);
    assert_eq!(tally.a.wins, tally.b.losses);
    assert_eq!(tally.a.draws, tally.b.draws);
}

#[test]
fn strategy_names_are_read_per_game() {
    let ok = [
        (kind("pig"), "optimal", Strategy::Best),
        (kind("pig"), "best", Strategy::Best),
        (kind("pig"), "hold_at:20", Strategy::HoldAt(20)),
        (kind("pig"), "kper", Strategy::Kper),
        (kind("tictactoe"), "perfect", Strategy::Best),
        (kind("ishitori"), "optimal", Strategy::Best),
        (kind("number-square"), "lookahead2", Strategy::Lookahead2),
        (kind("nine-square"), "greedy", Strategy::Greedy),
        (kind("nine-square"), "random", Strategy::Random),
        (kind("number-square"), "level:1", Strategy::Level(1)),
        (kind("tictactoe"), "level:10", Strategy::Level(10)),
        (kind("connect-four"), "best", Strategy::Best),
        (kind("connect-four"), "random", Strategy::Random),
        (kind("connect-four"), "level:3", Strategy::Level(3)),
    ];
    for (game, name, expected) in ok {
        assert_eq!(Strategy::parse(game, "a", name).unwrap(), expected, "{game} {name}");
    }
    for (game, name) in [
        (kind("pig"), "greedy"),
        (kind("pig"), "hold_at:0"),
        (kind("pig"), "hold_at:-3"),
        (kind("pig"), "hold_at:+3"),
        (kind("tictactoe"), "hold_at:20"),
        (kind("tictactoe"), "optimal"),
        (kind("nine-square"), "lookahead2"),
        (kind("ishitori"), "level:0"),
        (kind("ishitori"), "level:11"),
        (kind("number-square"), "level:"),
        (kind("number-square"), ""),
        (kind("connect-four"), "greedy"),
        (kind("connect-four"), "perfect"),
    ] {
        let err = Strategy::parse(game, "b", name).unwrap_err().to_string();
        assert!(
            err.starts_with("b: ") && err.contains("expected one of"),
            "{game} {name}: {err}"
        );
    }
}

#[test]
fn every_name_a_game_lists_is_one_of_its_players_and_reads_back() {
    // The lists as error messages show them (API.md): each game's, in full.
    let lists = [
        (
            kind("pig"),
            "optimal, hold_at:N (N >= 1), kper, random, level:N (1..10)",
        ),
        (kind("tictactoe"), "perfect, random, level:N (1..10)"),
        (kind("ishitori"), "optimal, random, level:N (1..10)"),
        (kind("number-square"), "best, lookahead2, random, level:N (1..10)"),
        (kind("nine-square"), "best, greedy, random, level:N (1..10)"),
        (kind("connect-four"), "best, random, level:N (1..10)"),
        (kind("othello"), "best, greedy, random, level:N (1..10)"),
        (kind("chess"), "best, random, level:N (1..10)"),
        (kind("kalah"), "best, greedy, random, level:N (1..10)"),
        (kind("xiangqi"), "best, random, level:N (1..10)"),
        (kind("shogi"), "best, random, level:N (1..10)"),
        (kind("backgammon"), "best, random, level:N (1..10)"),
    ];
    assert_eq!(lists.len(), ARENA_GAMES.all().len());
    for (game, list) in lists {
        assert_eq!(known_names(game), list, "{game}");
        for entry in list.split(", ") {
            // "level:N (1..10)" stands for level:1 to level:10, and so on.
            let names: Vec<String> = match entry.split_once(":N") {
                Some((prefix, _)) => [1, 7, 10].iter().map(|n| format!("{prefix}:{n}")).collect(),
                None => vec![entry.to_string()],
            };
            for name in names {
                let strategy = Strategy::parse(game, "a", &name).unwrap_or_else(|e| panic!("{game} {name}: {e}"));
                assert_eq!(strategy.name(game), name, "{game}");
            }
        }
    }
}

#[test]
fn bad_games_options_and_exact_requests_are_refused() {
    assert!(matches!(arena("go", "best", "best", None), Err(ArenaError::Setup(_))));
    let err = arena("pig", "optimal", "kper", Some(json!({"goal": 500})))
        .err()
        .unwrap();
    assert!(err.to_string().contains("goal"), "{err}");
    let err = arena(
        "number-square",
        "best",
        "random",
        Some(json!({"size": 4, "board": [[1, 2], [3, 4]]})),
    )
    .err()
    .unwrap();
    // As POST /matches reads it: size and board must agree.
    assert!(err.to_string().contains("does not match"), "{err}");
    let err = arena("nine-square", "best", "random", Some(json!({"size": 4})))
        .err()
        .unwrap();
    assert!(err.to_string().contains("options.size"), "{err}");
    let tictactoe = arena("tictactoe", "perfect", "random", None).unwrap();
    assert_eq!(
        tictactoe.exact().unwrap_err(),
        ArenaError::NoExactEvaluation("tictactoe")
    );
}

#[test]
fn a_run_out_of_time_stops_and_says_how_far_it_got() {
    let arena = arena("tictactoe", "perfect", "perfect", None).unwrap();
    let spent = SearchLimits::within(Duration::ZERO);
    let err = arena.run(10, 1, &spent, &mut |_| {}).unwrap_err();
    assert_eq!(err, ArenaError::OutOfTime { played: 0, games: 10 });
}

#[test]
fn perfect_tictactoe_never_loses_and_draws_against_itself() {
    let tally = run(&arena("tictactoe", "perfect", "perfect", None).unwrap(), 4, 1);
    assert_eq!(tally.a.draws, 4);
    let tally = run(&arena("tictactoe", "perfect", "random", None).unwrap(), 20, 1);
    assert_eq!(tally.a.losses, 0);
    assert!(tally.a.wins >= 10, "{tally:?}");
}

#[test]
fn best_connect_four_plays_the_grids_brute_force_value_and_never_loses_to_random() {
    let options = json!({"cols": 5, "rows": 4, "k": 4});
    let value = brute_score(&Grid::new(5, 4, 4), &mut std::collections::HashMap::new());
    let tally = run(
        &arena("connect-four", "best", "best", Some(options.clone())).unwrap(),
        2,
        1,
    );
    let first = &tally.seats.a_first;
    let expected = (u64::from(value > 0), u64::from(value == 0), u64::from(value < 0));
    assert_eq!((first.wins, first.draws, first.losses), expected, "value {value}");
    let tally = run(&arena("connect-four", "best", "random", Some(options)).unwrap(), 10, 1);
    assert_eq!(tally.a.losses, 0, "{tally:?}");
    assert!(tally.a.wins >= 5, "{tally:?}");
    assert!(arena("connect-four", "best", "random", Some(json!({"cols": 10}))).is_err());
}

#[test]
fn optimal_ishitori_wins_every_game_the_theory_gives_it() {
    // 21 stones, takes 1-3, misere: 21 = 1 (mod 4) loses for the mover.
    let tally = run(&arena("ishitori", "optimal", "optimal", None).unwrap(), 6, 1);
    assert_eq!((tally.seats.a_first.losses, tally.seats.a_second.wins), (3, 3));
    let tally = run(&arena("ishitori", "optimal", "random", None).unwrap(), 40, 1);
    assert_eq!(tally.seats.a_second.wins, 20);
    // From 22 the mover wins.
    let tally = run(
        &arena("ishitori", "random", "optimal", Some(json!({"remaining": 22}))).unwrap(),
        40,
        2,
    );
    assert_eq!(tally.seats.a_second.losses, 20);
}

#[test]
fn best_number_square_wins_every_4x4_board_from_the_first_seat() {
    // Every 4x4 board is a first-player win under perfect play.
    for b in ["lookahead2", "random"] {
        let tally = run(
            &arena("number-square", "best", b, Some(json!({"size": 4}))).unwrap(),
            10,
            3,
        );
        assert_eq!(tally.seats.a_first.wins, 5, "{b}: {tally:?}");
    }
    // A fixed board: both seats of every pair play it.
    let board = json!([[1, 9, 2], [8, 3, 7], [4, 6, 5]]);
    let tally = run(
        &arena("number-square", "best", "best", Some(json!({"board": board}))).unwrap(),
        4,
        1,
    );
    assert_eq!(tally.mean_margin(), Some(0.0), "the same player from both seats");
}

#[test]
fn greedy_nine_square_beats_random() {
    // The dice make single games noisy (greedy loses about one in four):
    // enough games that the whole 95% interval lies above an even share.
    let tally = run(&arena("nine-square", "greedy", "random", None).unwrap(), 60, 1);
    let [low, _] = tally.a_share_ci95().unwrap();
    assert!(low > 0.5, "{tally:?}");
    assert!(tally.mean_margin().unwrap() > 0.0);
}
