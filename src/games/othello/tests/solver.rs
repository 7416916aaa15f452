//! The exact solver against a brute force written in the tests (a plain
//! board and negamax, `othello_support`): every reachable 4x4 position, and
//! random 6x6 endings; then the engine's own consistency on 6x6 endings
//! with 20 empties, too many for the brute force.

use super::support as othello_support;

use std::collections::HashMap;
use std::time::Duration;

use kibitz::games::game::Game;
use kibitz::games::othello::{parse_position, OthelloEngine, OthelloMove, Size};
use kibitz::solve::limits::SearchLimits;
use othello_support::Reference;

fn player(reference: &Reference) -> &'static str {
    if reference.to_move == 0 {
        "X"
    } else {
        "O"
    }
}

/// Plain minimax over the whole game tree, remembering every position
/// met: the exact value of each reachable position for its mover.
fn solve_all(position: &Reference, values: &mut HashMap<Reference, i32>) -> i32 {
    if let Some(&v) = values.get(position) {
        return v;
    }
    let moves = position.legal_moves();
    let value = if moves.is_empty() {
        let passed = position.passed();
        if passed.legal_moves().is_empty() {
            position.final_score()
        } else {
            -solve_all(&passed, values)
        }
    } else {
        moves
            .into_iter()
            .map(|(r, c)| -solve_all(&position.play(r, c), values))
            .max()
            .unwrap_or(i32::MIN)
    };
    values.insert(position.clone(), value);
    value
}

#[test]
fn every_reachable_4x4_position_has_the_brute_force_value_and_the_second_player_wins() {
    let mut values = HashMap::new();
    let start = Reference::start(4);
    let start_value = solve_all(&start, &mut values);
    // Published: 4x4 Othello is a win for the second player (white).
    assert!(start_value < 0, "start value {start_value}");
    let engine = OthelloEngine::new(1 << 16);
    let mut checked = 0;
    for (position, &value) in &values {
        let game = match parse_position(Some(4), &position.rows(), Some(player(position))) {
            Ok(game) => game,
            // Finished games are not positions to search.
            Err(_) => {
                assert!(position.legal_moves().is_empty() && position.passed().legal_moves().is_empty());
                continue;
            }
        };
        let limits = SearchLimits::within(Duration::from_secs(10));
        let analysis = engine.analyze(&game, &limits);
        assert!(analysis.solved, "{:?}", position.rows());
        assert_eq!(analysis.score, value, "{:?} {}", position.rows(), player(position));
        // Every move's score is the value of the position it leads to.
        for mv in &analysis.moves {
            let child = position.play(mv.square.row() as usize, mv.square.col() as usize);
            assert!(mv.solved);
            assert_eq!(mv.score, -values[&child], "{:?} {}", position.rows(), mv.square);
        }
        checked += 1;
    }
    let engine_start = engine.analyze(
        &kibitz::games::othello::OthelloState::new(Size::Four),
        &SearchLimits::within(Duration::from_secs(10)),
    );
    assert_eq!(engine_start.score, start_value);
    assert!(checked > 1000, "only {checked} positions");
    println!("4x4: {checked} positions checked; the start is worth {start_value} for black");
}

/// A repeatable random walk from the start down to `empties` empties.
fn random_position(size: Size, empties: u32, seed: &mut u64) -> Option<kibitz::games::othello::OthelloState> {
    let mut game = kibitz::games::othello::OthelloState::new(size);
    while game.empties() > empties {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        game.play(moves[(*seed % moves.len() as u64) as usize]);
    }
    (!game.is_over()).then_some(game)
}

#[test]
fn random_6x6_endings_have_the_brute_force_value() {
    let engine = OthelloEngine::new(1 << 18);
    let mut seed = 0xDEAD_BEEF_CAFE_F00Du64;
    let mut checked = 0;
    while checked < 30 {
        let empties = 9 + (seed % 3) as u32;
        let Some(game) = random_position(Size::Six, empties, &mut seed) else {
            continue;
        };
        let reference = Reference::from_rows(&game.rows(), game.to_move());
        let expected = reference.value(-36, 36);
        let analysis = engine.analyze(&game, &SearchLimits::within(Duration::from_secs(20)));
        assert!(analysis.solved);
        assert_eq!(analysis.score, expected, "{:?} to move {}", game.rows(), game.to_move());
        checked += 1;
    }
}

#[test]
fn six_by_six_endings_with_20_empties_are_solved_and_consistent() {
    let engine = OthelloEngine::new(1 << 20);
    let mut seed = 0x0123_4567_89AB_CDEFu64;
    let mut checked = 0;
    while checked < 4 {
        let Some(game) = random_position(Size::Six, 20, &mut seed) else {
            continue;
        };
        // A generous budget: the test profile is barely optimised, and the
        // 1 s claim is measured in release by examples/othello_6x6.rs.
        let analysis = engine.analyze(&game, &SearchLimits::within(Duration::from_secs(60)));
        assert!(analysis.solved, "{:?}", game.rows());
        // The best move's score is the best of the moves' exact scores.
        assert!(analysis.moves.iter().all(|m| m.solved));
        assert_eq!(analysis.moves.iter().map(|m| m.score).max(), Some(analysis.score));
        // Playing the principal variation out reaches that final score.
        let mut end = game;
        for &mv in &analysis.principal_variation {
            end.play(mv);
        }
        assert!(
            end.is_over(),
            "the line stops early: {:?}",
            analysis.principal_variation
        );
        assert_eq!(end.final_score(game.to_move()), analysis.score);
        // A fresh engine agrees on the position after the best move.
        let mut after = game;
        after.play(analysis.best);
        let fresh = OthelloEngine::new(1 << 16);
        let reply = fresh
            .solve(&after, &SearchLimits::within(Duration::from_secs(60)))
            .map(|s| s.score);
        assert_eq!(reply, Some(-analysis.score));
        checked += 1;
    }
}

#[test]
fn a_player_without_a_move_passes_and_the_score_is_the_opponents_negated() {
    // O has no move; X has.
    let rows = ["XXXX", "XXXX", "XXXO", "XO.."];
    let game = parse_position(None, &rows, Some("O")).unwrap();
    let analysis = engine_analyze(&game);
    assert_eq!(analysis.best, OthelloMove::Pass);
    assert_eq!(analysis.principal_variation.first(), Some(&OthelloMove::Pass));
    let reference = Reference::from_rows(&game.rows(), game.to_move());
    assert_eq!(analysis.score, reference.value(-16, 16));
}

fn engine_analyze(game: &kibitz::games::othello::OthelloState) -> kibitz::games::othello::Analysis {
    OthelloEngine::new(1 << 12).analyze(game, &SearchLimits::within(Duration::from_secs(5)))
}
