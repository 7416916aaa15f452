//! The Ishitori solver against an independent brute force written here: the
//! plain definition of winning and losing positions, computed position by
//! position, with no periods and no Sprague-Grundy theory.

use std::collections::HashMap;
use std::time::Duration;

use kibitz::games::ishitori::solve::{Explanation, MoveAnalysis, SolverConfig, SubtractionSolver};
use kibitz::games::ishitori::{Game, Heaps, IshitoriError, Outcome, TakeSet};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BRUTE_LIMIT: usize = 3_000;

fn generous_limits() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(60))
}

/// `wins[n]`: does the player to move win a lone heap of n stones?
fn brute_one_heap(take: &[u64], misere: bool, limit: usize) -> Vec<bool> {
    let mut wins = vec![false; limit];
    for n in 0..limit {
        let children: Vec<usize> = take
            .iter()
            .filter(|&&t| t as usize <= n)
            .map(|&t| n - t as usize)
            .collect();
        wins[n] = if children.is_empty() {
            misere
        } else {
            children.iter().any(|&c| !wins[c])
        };
    }
    wins
}

/// Does the player to move win with these heaps? Plain game-tree search
/// over the full tuple of heaps, memoised.
fn brute_heaps(take: &[u64], misere: bool, heaps: &mut Vec<u64>, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&known) = memo.get(heaps.as_slice()) {
        return known;
    }
    let mut has_move = false;
    let mut wins = false;
    for i in 0..heaps.len() {
        for &t in take {
            if t <= heaps[i] {
                has_move = true;
                heaps[i] -= t;
                let child_wins = brute_heaps(take, misere, heaps, memo);
                heaps[i] += t;
                wins |= !child_wins;
            }
        }
    }
    let result = if has_move { wins } else { misere };
    memo.insert(heaps.clone(), result);
    result
}

fn random_take_set(rng: &mut StdRng, max_amount: u64, max_len: usize) -> Vec<u64> {
    let len = rng.gen_range(1..=max_len);
    let mut amounts = Vec::new();
    while amounts.len() < len {
        let amount = rng.gen_range(1..=max_amount);
        if !amounts.contains(&amount) {
            amounts.push(amount);
        }
    }
    amounts
}

fn one_heap(take: &[u64], misere: bool, n: u64) -> Game {
    Game::one_heap(TakeSet::new(take).unwrap(), misere, n)
}

fn outcome(wins: bool) -> Outcome {
    if wins {
        Outcome::Win
    } else {
        Outcome::Loss
    }
}

/// The move is legal, a winning move leaves a lost position, and a lost
/// position is answered with the smallest legal take.
fn assert_sound_one_heap(take: &[u64], n: u64, analysis: &MoveAnalysis, wins: &[bool]) {
    let smallest_legal = take.iter().copied().filter(|&t| t <= n).min().unwrap();
    assert!(take.contains(&analysis.take) && analysis.take <= n);
    assert_eq!(analysis.remaining_after, n - analysis.take);
    match analysis.outcome {
        Some(Outcome::Win) => assert!(!wins[analysis.remaining_after as usize]),
        Some(Outcome::Loss) => assert_eq!(analysis.take, smallest_legal),
        None => panic!("unsolved with generous limits"),
    }
}

#[test]
fn one_heap_agrees_with_brute_force_for_random_take_sets_in_both_conventions() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..40 {
        let take = random_take_set(&mut rng, 12, 5);
        for misere in [true, false] {
            let wins = brute_one_heap(&take, misere, BRUTE_LIMIT);
            let smallest = *take.iter().min().unwrap();
            for n in 0..BRUTE_LIMIT as u64 {
                let result = solver.best_move(&one_heap(&take, misere, n), &limits);
                if n < smallest {
                    assert!(matches!(result, Err(IshitoriError::GameOver { .. })));
                    continue;
                }
                let analysis = result.unwrap();
                assert_eq!(
                    analysis.outcome,
                    Some(outcome(wins[n as usize])),
                    "take {take:?} misere {misere} n {n}"
                );
                assert_sound_one_heap(&take, n, &analysis, &wins);
            }
        }
    }
}

#[test]
fn the_reported_rule_is_exact_and_its_period_and_preperiod_are_the_smallest() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(40);
    for _ in 0..60 {
        let take = random_take_set(&mut rng, 10, 4);
        for misere in [true, false] {
            let rule = solver
                .heap_rule(&TakeSet::new(&take).unwrap(), misere, &limits)
                .unwrap()
                .unwrap();
            let wins = brute_one_heap(&take, misere, BRUTE_LIMIT);
            let (pre, period) = (rule.preperiod as usize, rule.period as usize);
            assert!(pre + 3 * period < BRUTE_LIMIT, "take {take:?}: {rule:?}");
            for (n, &w) in wins.iter().enumerate() {
                let lost_by_rule = if n >= pre {
                    rule.losing_residues.contains(&((n % period) as u64))
                } else {
                    rule.losing_before_preperiod.contains(&(n as u64))
                };
                assert_eq!(lost_by_rule, !w, "take {take:?} misere {misere} n {n}");
            }
            let is_period_from = |d: usize, start: usize| (start..BRUTE_LIMIT - d).all(|n| wins[n] == wins[n + d]);
            assert!((1..period).all(|d| !is_period_from(d, pre)), "{take:?}");
            assert!(pre == 0 || !is_period_from(period, pre - 1), "{take:?}");
        }
    }
}

#[test]
fn the_engine_finds_the_seed_rule_for_take_1_2_3_misere() {
    let solver = SubtractionSolver::default();
    let take = TakeSet::new(&[1, 2, 3]).unwrap();
    let rule = solver.heap_rule(&take, true, &generous_limits()).unwrap().unwrap();
    assert_eq!(rule.period, 4);
    assert_eq!(rule.preperiod, 0);
    assert_eq!(&rule.losing_residues[..], &[1]);
    // The seed paper's opening: from 24 stones, leave 21 (21 mod 4 = 1).
    let analysis = solver
        .best_move(&one_heap(&[1, 2, 3], true, 24), &generous_limits())
        .unwrap();
    assert_eq!((analysis.take, analysis.remaining_after), (3, 21));
    assert_eq!(analysis.outcome, Some(Outcome::Win));
    match analysis.explanation {
        Explanation::OneHeap {
            heap: 0,
            rule: explained,
        } => assert_eq!(explained, rule),
        other => panic!("unexpected explanation {other:?}"),
    }
}

#[test]
fn huge_heaps_behave_like_small_heaps_a_whole_number_of_periods_smaller() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(400);
    for _ in 0..30 {
        let take = random_take_set(&mut rng, 9, 4);
        let k = *take.iter().max().unwrap();
        for misere in [true, false] {
            let wins = brute_one_heap(&take, misere, BRUTE_LIMIT);
            let rule = solver
                .heap_rule(&TakeSet::new(&take).unwrap(), misere, &limits)
                .unwrap()
                .unwrap();
            // Beyond preperiod + max(take), a heap and its children are all
            // in the periodic part, so the answer depends on n mod period.
            let base = rule.preperiod + k;
            for n in (u64::MAX - 40..=u64::MAX).chain([u64::MAX / 2, 1 << 40]) {
                let m = (n - base) / rule.period;
                let small = n - m * rule.period;
                assert!((small as usize) < BRUTE_LIMIT);
                let big = solver.best_move(&one_heap(&take, misere, n), &limits).unwrap();
                let reference = solver.best_move(&one_heap(&take, misere, small), &limits).unwrap();
                assert_eq!(big.outcome, Some(outcome(wins[small as usize])));
                assert_eq!(big.take, reference.take, "take {take:?} n {n}");
                assert_eq!(big.remaining_after, n - big.take);
            }
        }
    }
}

#[test]
fn large_take_amounts_agree_with_brute_force() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(4_000);
    for _ in 0..4 {
        let take = random_take_set(&mut rng, 1_500, 3);
        for misere in [true, false] {
            let wins = brute_one_heap(&take, misere, 20_000);
            for n in (0..20_000u64).step_by(7) {
                match solver.best_move(&one_heap(&take, misere, n), &limits) {
                    Err(IshitoriError::GameOver { .. }) => {
                        assert!(n < *take.iter().min().unwrap())
                    }
                    Ok(analysis) => {
                        assert_eq!(analysis.outcome, Some(outcome(wins[n as usize])));
                        assert_sound_one_heap(&take, n, &analysis, &wins);
                    }
                    Err(other) => panic!("{other}"),
                }
            }
        }
    }
}

fn random_heaps(rng: &mut StdRng, count: usize, max: u64) -> Vec<u64> {
    (0..count).map(|_| rng.gen_range(0..=max)).collect()
}

#[test]
fn several_heaps_agree_with_brute_force_search_in_both_conventions() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(44);
    for _ in 0..25 {
        let take = random_take_set(&mut rng, 5, 3);
        for misere in [true, false] {
            let mut memo = HashMap::new();
            for _ in 0..30 {
                let count = rng.gen_range(2..=3);
                let mut heaps = random_heaps(&mut rng, count, 9);
                let game = Game::new(TakeSet::new(&take).unwrap(), misere, Heaps::Several(heaps.clone())).unwrap();
                let result = solver.best_move(&game, &limits);
                if game.is_over() {
                    assert!(matches!(result, Err(IshitoriError::GameOver { .. })));
                    continue;
                }
                let analysis = result.unwrap();
                let wins = brute_heaps(&take, misere, &mut heaps, &mut memo);
                assert_eq!(analysis.outcome, Some(outcome(wins)), "{take:?} {heaps:?}");
                let after = game.apply(analysis.chosen_move()).unwrap();
                assert_eq!(after.heap_sizes()[analysis.heap], analysis.remaining_after);
                if wins {
                    let mut after = after.heap_sizes().to_vec();
                    assert!(!brute_heaps(&take, misere, &mut after, &mut memo));
                } else {
                    let smallest = game.legal_moves().iter().map(|m| m.take).min();
                    assert_eq!(Some(analysis.take), smallest);
                }
            }
        }
    }
}

/// Mex of the children's Grundy values, straight from the definition.
fn brute_grundy(take: &[u64], limit: usize) -> Vec<u8> {
    let mut grundy = vec![0u8; limit];
    for n in 0..limit {
        let children: Vec<u8> = take
            .iter()
            .filter(|&&t| t as usize <= n)
            .map(|&t| grundy[n - t as usize])
            .collect();
        grundy[n] = (0..).find(|g| !children.contains(g)).unwrap();
    }
    grundy
}

#[test]
fn nim_explanation_reports_the_grundy_values_and_their_nim_sum() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let mut rng = StdRng::seed_from_u64(444);
    for _ in 0..30 {
        let take = random_take_set(&mut rng, 8, 4);
        let grundy = brute_grundy(&take, BRUTE_LIMIT);
        let heaps = random_heaps(&mut rng, 4, BRUTE_LIMIT as u64 - 1);
        let game = Game::new(TakeSet::new(&take).unwrap(), false, Heaps::Several(heaps.clone())).unwrap();
        let Ok(analysis) = solver.best_move(&game, &limits) else {
            assert!(game.is_over());
            continue;
        };
        let Explanation::Nim(nim) = analysis.explanation else {
            panic!("expected a nim explanation");
        };
        let expected: Vec<u8> = heaps.iter().map(|&h| grundy[h as usize]).collect();
        assert_eq!(nim.grundy_values, expected);
        assert_eq!(nim.nim_sum, expected.iter().fold(0, |a, g| a ^ g));
        let won = nim.nim_sum != 0;
        assert_eq!(analysis.outcome, Some(outcome(won)));
        if won {
            let mut after = expected.clone();
            after[analysis.heap] = grundy[analysis.remaining_after as usize];
            assert_eq!(after.iter().fold(0, |a, g| a ^ g), 0);
        }
    }
}

#[test]
fn misere_heaps_with_only_one_playable_heap_use_the_one_heap_rule_at_any_size() {
    let solver = SubtractionSolver::default();
    let take = [2, 3];
    let game = Game::new(TakeSet::new(&take).unwrap(), true, Heaps::Several(vec![1, u64::MAX, 0])).unwrap();
    let analysis = solver.best_move(&game, &generous_limits()).unwrap();
    assert_eq!(analysis.heap, 1);
    let Explanation::OneHeap { heap: 1, rule } = &analysis.explanation else {
        panic!("{:?}", analysis.explanation);
    };
    let wins = brute_one_heap(&take, true, BRUTE_LIMIT);
    let small = rule.preperiod + 3 + (u64::MAX - rule.preperiod - 3) % rule.period;
    assert_eq!(analysis.outcome, Some(outcome(wins[small as usize])));
}

#[test]
fn misere_heaps_beyond_the_table_bound_are_refused_with_the_limit_named() {
    let solver = SubtractionSolver::new(SolverConfig {
        max_misere_positions: 1_000,
        ..SolverConfig::default()
    });
    let game = Game::new(TakeSet::default(), true, Heaps::Several(vec![40, 40])).unwrap();
    let error = solver.best_move(&game, &generous_limits()).unwrap_err();
    assert_eq!(error, IshitoriError::MisereSearchTooLarge { limit: 1_000 });
    assert!(error.to_string().contains("1000"));
    let huge = Game::new(TakeSet::default(), true, Heaps::Several(vec![u64::MAX; 64])).unwrap();
    assert!(matches!(
        solver.best_move(&huge, &generous_limits()),
        Err(IshitoriError::MisereSearchTooLarge { .. })
    ));
    // 31 * 31 = 961 positions fit.
    let fits = Game::new(TakeSet::default(), true, Heaps::Several(vec![30, 30])).unwrap();
    assert!(solver.best_move(&fits, &generous_limits()).is_ok());
}

#[test]
fn a_period_beyond_the_work_bound_is_an_error_that_says_so_and_is_remembered() {
    let solver = SubtractionSolver::new(SolverConfig {
        max_sequence_terms: 500,
        ..SolverConfig::default()
    });
    let game = one_heap(&[300, 301], true, 5_000);
    let error = solver.best_move(&game, &generous_limits()).unwrap_err();
    assert_eq!(error, IshitoriError::PeriodNotFound { max_terms: 500 });
    assert!(error.to_string().contains("500"));
    let again = solver
        .best_move(&game, &SearchLimits::within(Duration::ZERO))
        .unwrap_err();
    assert_eq!(again, error);
}

#[test]
fn running_out_of_time_gives_the_smallest_take_unproven_or_an_exact_small_answer() {
    let solver = SubtractionSolver::default();
    let tight = SearchLimits::within(Duration::from_secs(60)).with_max_nodes(1);
    let take = [1_000, 1_001];
    // The period needs far more than the first 1024 values.
    let far = solver.best_move(&one_heap(&take, true, 1 << 40), &tight).unwrap();
    assert_eq!(far.outcome, None);
    assert_eq!((far.take, far.explanation.clone()), (1_000, Explanation::Unfinished));
    // Heap sizes among the first 1024 values, computed before the limit
    // was checked, are still answered exactly.
    let near = solver.best_move(&one_heap(&take, true, 1_010), &tight).unwrap();
    let wins = brute_one_heap(&take, true, 1_011);
    assert_eq!(near.outcome, Some(outcome(wins[1_010])));
    assert_eq!(near.explanation, Explanation::Unfinished);
    // A misère table that would need more positions than allowed by the limits.
    let heaps = Game::new(TakeSet::default(), true, Heaps::Several(vec![50, 50])).unwrap();
    let cut = solver.best_move(&heaps, &tight).unwrap();
    assert_eq!((cut.outcome, cut.take), (None, 1));
    // Nothing unfinished was cached: with time, the answer is exact.
    let full = solver
        .best_move(&one_heap(&take, true, 1 << 40), &generous_limits())
        .unwrap();
    assert!(full.solved());
    assert!(full.nodes > 1_024);
}

#[test]
fn a_warm_cache_answers_without_computing() {
    let solver = SubtractionSolver::default();
    let limits = generous_limits();
    let first = solver.best_move(&one_heap(&[2, 7, 9], false, 100), &limits).unwrap();
    assert!(first.nodes > 0);
    let second = solver
        .best_move(&one_heap(&[9, 2, 7], false, u64::MAX), &limits)
        .unwrap();
    assert_eq!(second.nodes, 0);
}

#[test]
fn the_solver_can_be_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SubtractionSolver>();
    let solver = SubtractionSolver::default();
    std::thread::scope(|scope| {
        for n in 0..4u64 {
            let solver = &solver;
            scope.spawn(move || {
                let analysis = solver
                    .best_move(&one_heap(&[1, 2, 3], true, 21 + n), &generous_limits())
                    .unwrap();
                let wins = brute_one_heap(&[1, 2, 3], true, 30);
                assert_eq!(analysis.outcome, Some(outcome(wins[(21 + n) as usize])));
            });
        }
    });
}

#[test]
fn a_known_rule_answers_without_a_search_and_as_the_search_does() {
    let solver = SubtractionSolver::new(SolverConfig::default());
    let limits = SearchLimits::within(Duration::from_secs(5));
    let one = Game::one_heap(TakeSet::new(&[1, 3, 4]).unwrap(), false, u64::MAX);
    assert!(solver.known_move(&one).is_none(), "nothing is known yet");
    let searched = solver.best_move(&one, &limits).unwrap();
    let known = solver.known_move(&one).expect("the rule is known now");
    assert_eq!(
        (known.take, known.heap, known.outcome),
        (searched.take, searched.heap, searched.outcome)
    );
    // Normal play over several heaps: the take set's Grundy values.
    let nim = Game::new(
        TakeSet::new(&[1, 3, 4]).unwrap(),
        false,
        Heaps::Several(vec![10, 11, 12]),
    )
    .unwrap();
    assert!(solver.known_move(&nim).is_none());
    let searched = solver.best_move(&nim, &limits).unwrap();
    let known = solver.known_move(&nim).expect("the Grundy values are known now");
    assert_eq!((known.take, known.heap), (searched.take, searched.heap));
    // Several heaps under misère play are a table search every time.
    let misere = Game::new(TakeSet::new(&[1, 2]).unwrap(), true, Heaps::Several(vec![3, 4])).unwrap();
    solver.best_move(&misere, &limits).unwrap();
    assert!(solver.known_move(&misere).is_none());
}
