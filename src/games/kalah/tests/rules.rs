//! Kalah's rules and solver from outside the crate: boards refused with
//! their reason, and the published values of small boards (Irving, Donkers
//! and Uiterwijk, 2000) from the start position. Kalah(6,4) (+8 standard,
//! +10 empty) takes minutes from scratch: it comes from the compiled book,
//! checked through the API.

use std::time::{Duration, Instant};

use kibitz::games::kalah::rules::{Capture, KalahState, Layout, Player, Rules};
use kibitz::games::kalah::solve::{analyze, solve_position};
use kibitz::solve::limits::SearchLimits;
use kibitz::solve::table::SharedTable;

fn layout(south: Vec<u32>, north: Vec<u32>, south_store: u32) -> Layout {
    Layout {
        south,
        north,
        south_store,
        north_store: 0,
        to_move: Player::North,
    }
}

#[test]
fn bad_boards_are_refused_with_the_reason() {
    let rules = Rules::new(3, 3, Capture::Standard).unwrap();
    let refused = |board: Layout| KalahState::from_board(rules, &board).unwrap_err();
    assert!(refused(layout(vec![1, 2], vec![1, 1, 1], 0)).contains("south has 2 houses"));
    assert!(refused(layout(vec![1, 2, 3], vec![1, 1, 1, 1], 0)).contains("north has 4 houses"));
    assert!(refused(layout(vec![1, 2, 3], vec![1, 1, 1], 250)).contains("more than 255 seeds"));
    assert!(refused(layout(vec![1, 2, u32::MAX], vec![1, 1, 1], 0)).contains("more than 255 seeds"));
    assert!(refused(layout(vec![1, 2, 3], vec![0, 0, 0], 0)).contains("game is over"));
    assert!(Rules::new(0, 3, Capture::Standard).is_err());
    assert!(Rules::new(9, 3, Capture::Standard).is_err());
    assert!(Rules::new(6, 9, Capture::Empty).is_err());
}

#[test]
fn a_board_comes_back_as_it_was_given_and_bad_moves_are_refused() {
    let rules = Rules::new(3, 3, Capture::Empty).unwrap();
    let board = layout(vec![1, 0, 3], vec![2, 0, 0], 7);
    let mut position = KalahState::from_board(rules, &board).unwrap();
    assert_eq!(position.to_board(), board);
    assert_eq!(position.to_move(), Player::North);
    assert_eq!(position.legal_houses(), vec![1]);
    assert!(position.play(0).is_err());
    assert!(position.play(2).unwrap_err().contains("empty"));
    assert!(position.play(4).is_err());
    assert_eq!(position.south_margin(), 7);
}

fn start_value(m: u32, n: u32, capture: Capture, entries: usize) -> i32 {
    let rules = Rules::new(m, n, capture).unwrap();
    let table = SharedTable::new(entries);
    let limits = SearchLimits::within(Duration::from_secs(3600));
    let clock = Instant::now();
    let (value, nodes) = solve_position(&rules.start(), &table, &limits).unwrap();
    eprintln!(
        "Kalah({m},{n}) {capture:?}: {value:+}, {nodes} nodes, {:.2} s",
        clock.elapsed().as_secs_f64()
    );
    value
}

#[test]
fn kalah_4_3_is_won_by_6_with_the_standard_capture_and_8_with_the_empty_one() {
    assert_eq!(start_value(4, 3, Capture::Standard, 1 << 20), 6);
    assert_eq!(start_value(4, 3, Capture::Empty, 1 << 20), 8);
}

#[test]
fn kalah_6_3_is_won_by_2() {
    assert_eq!(start_value(6, 3, Capture::Standard, 1 << 22), 2);
    assert_eq!(start_value(6, 3, Capture::Empty, 1 << 22), 2);
}

#[test]
fn every_house_of_kalah_6_3_is_solved_and_the_best_wins_by_2() {
    let rules = Rules::new(6, 3, Capture::Empty).unwrap();
    let table = SharedTable::new(1 << 22);
    let analysis = analyze(&rules.start(), &table, &SearchLimits::within(Duration::from_secs(600)));
    assert!(analysis.solved);
    assert_eq!(analysis.value, 2);
    assert_eq!(analysis.houses.len(), 6);
}

/// A node budget far too small: an estimate, never labelled solved.
#[test]
fn a_spent_budget_gives_an_unsolved_estimate() {
    let rules = Rules::new(6, 4, Capture::Standard).unwrap();
    let table = SharedTable::new(1 << 16);
    let limits = SearchLimits::within(Duration::from_secs(600)).with_max_nodes(200_000);
    let analysis = analyze(&rules.start(), &table, &limits);
    assert!(!analysis.solved);
    assert!(analysis.houses.iter().all(|h| !h.solved));
    assert_eq!(analysis.houses.len(), 6);
    assert!(analysis.nodes < 210_000, "{}", analysis.nodes);
    assert!(analysis.depth > 0);
}
