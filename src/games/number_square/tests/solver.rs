//! The Number Square search against the tests' brute-force negamax
//! (support/number_square_brute.rs: a plain grid, memoised by the set of
//! tiles left, no pruning), plus how it honours its limits.

use std::time::{Duration, Instant};

use kibitz::games::number_square::solve::{Analysis, MoveBound, NumberSquareSolver};
use kibitz::games::number_square::{Board, Tile};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::brute;

use brute::{Grid, Reference};

// ---------------------------------------------------------------- helpers

fn random_grid(size: usize, rng: &mut StdRng) -> Grid {
    let spread = rng.gen_range(1..=30);
    (0..size)
        .map(|_| (0..size).map(|_| Some(rng.gen_range(-spread..=spread))).collect())
        .collect()
}

/// `moves` random legal moves into a random game; `None` if it ended.
fn part_played(size: usize, moves: usize, rng: &mut StdRng) -> Option<Board> {
    let mut board = Board::from_rows(&random_grid(size, rng)).ok()?;
    for _ in 0..moves {
        let tile = *board.legal_moves().choose(rng)?;
        board = board.play(tile).ok()?.board;
    }
    (!board.is_over()).then_some(board)
}

fn generous() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(60))
}

/// The analysis must equal the reference: value, every move's value, and a
/// best move that achieves the value.
fn check_against_reference(board: &Board, analysis: &Analysis) {
    let mut reference = Reference::new(&board.rows());
    let expected_moves = reference.root_moves();
    let expected_value = expected_moves.iter().map(|&(_, v)| v).max().unwrap();
    let context = format!("board {:?}", board.rows());
    assert!(analysis.solved, "{context}");
    assert_eq!(analysis.value, expected_value, "{context}");
    let best = expected_moves
        .iter()
        .find(|&&(tile, _)| tile == analysis.best_move)
        .map(|&(_, v)| v);
    assert_eq!(best, Some(expected_value), "best move value, {context}");
    assert!(analysis.moves.iter().all(|m| m.bound == MoveBound::Exact), "{context}");
    let mut got: Vec<(Tile, i64)> = analysis.moves.iter().map(|m| (m.tile, m.value)).collect();
    got.sort();
    let mut expected = expected_moves;
    expected.sort();
    assert_eq!(got, expected, "{context}");
}

/// Plays the principal variation and returns its margin for the mover, or
/// `None` if the line stops before the game ends.
fn margin_along(board: &Board, line: &[Tile]) -> Option<i64> {
    let mut board = board.clone();
    let mut margin = 0;
    for (ply, &tile) in line.iter().enumerate() {
        let played = board.play(tile).expect("the line is legal");
        margin += if ply % 2 == 0 { played.points } else { -played.points };
        board = played.board;
    }
    board.is_over().then_some(margin)
}

// ---------------------------------------------------------------- exactness

#[test]
fn solves_two_hundred_and_forty_random_4x4_boards_like_the_reference() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut checked = 0;
    let mut fresh = 0;
    while checked < 240 {
        // Fresh boards and boards up to 7 moves in.
        let moves = if checked % 3 == 0 { 0 } else { rng.gen_range(1..=7) };
        let Some(board) = part_played(4, moves, &mut rng) else {
            continue;
        };
        // A fresh solver each time, so no answer comes from a memo that an
        // earlier board filled.
        let analysis = NumberSquareSolver::new(1 << 16).analyze(&board, &generous()).unwrap();
        check_against_reference(&board, &analysis);
        checked += 1;
        fresh += usize::from(moves == 0);
    }
    assert!(fresh >= 80);
}

#[test]
fn one_shared_solver_stays_exact_across_many_4x4_boards() {
    let solver = NumberSquareSolver::new(1 << 12);
    let mut rng = StdRng::seed_from_u64(44);
    let mut checked = 0;
    for round in 0..60 {
        let Some(board) = part_played(4, round % 5, &mut rng) else {
            continue;
        };
        let analysis = solver.analyze(&board, &generous()).unwrap();
        check_against_reference(&board, &analysis);
        checked += 1;
    }
    // A few random openings end the game early; most boards must be checked.
    assert!(checked >= 50, "only {checked} of 60 boards were checked");
}

#[test]
fn small_boards_of_every_shape_up_to_5x5_match_the_reference() {
    let mut rng = StdRng::seed_from_u64(23);
    let solver = NumberSquareSolver::default();
    for (size, moves) in [(2, 0), (2, 1), (3, 0), (3, 2), (5, 6), (5, 9), (5, 12)] {
        // Random openings that end the game early are drawn again: six
        // boards of each shape are checked.
        let mut checked = 0;
        for _ in 0..200 {
            let Some(board) = part_played(size, moves, &mut rng) else {
                continue;
            };
            let analysis = solver.analyze(&board, &generous()).unwrap();
            check_against_reference(&board, &analysis);
            checked += 1;
            if checked == 6 {
                break;
            }
        }
        assert_eq!(
            checked, 6,
            "{size}x{size} after {moves} moves: only {checked} boards were checked"
        );
    }
}

/// Takes every tile except a band around the anti-diagonal (which blocks
/// every crossing path) and a few tiles chosen by `rng`.
fn endgame(size: usize, band: usize, rng: &mut StdRng) -> Board {
    let grid = random_grid(size, rng);
    let open = |r: usize, c: usize| (r + c).abs_diff(size - 1) <= band;
    let rows: Grid = (0..size)
        .map(|r| (0..size).map(|c| if open(r, c) { grid[r][c] } else { None }).collect())
        .collect();
    Board::from_rows(&rows).expect("the anti-diagonal band blocks every path")
}

#[test]
fn endgames_on_6x6_7x7_11x11_and_12x12_are_solved_exactly() {
    let mut rng = StdRng::seed_from_u64(612);
    let solver = NumberSquareSolver::default();
    // Tiles left: 6x6 band 1: 16; 7x7 band 1: 19; 11x11 and 12x12 band 0: 11, 12.
    for (size, band) in [(6, 1), (7, 1), (11, 0), (12, 0)] {
        for _ in 0..3 {
            let board = endgame(size, band, &mut rng);
            let analysis = solver.analyze(&board, &generous()).unwrap();
            check_against_reference(&board, &analysis);
        }
    }
}

// ---------------------------------------------------------------- the line

#[test]
fn a_solved_principal_variation_is_legal_and_earns_the_value() {
    let mut rng = StdRng::seed_from_u64(99);
    let solver = NumberSquareSolver::default();
    let mut complete_lines = 0;
    for _ in 0..40 {
        let Some(board) = part_played(4, 2, &mut rng) else {
            continue;
        };
        let analysis = solver.analyze(&board, &generous()).unwrap();
        assert_eq!(analysis.principal_variation[0], analysis.best_move);
        if let Some(margin) = margin_along(&board, &analysis.principal_variation) {
            assert_eq!(margin, analysis.value, "board {:?}", board.rows());
            complete_lines += 1;
        }
    }
    assert!(complete_lines >= 30, "only {complete_lines} lines reached the end");
}

// ---------------------------------------------------------------- limits

#[test]
fn a_fresh_8x8_board_is_answered_within_its_deadline_with_a_legal_move() {
    let mut rng = StdRng::seed_from_u64(8);
    let board = Board::shuffled(8, &mut rng).unwrap();
    let solver = NumberSquareSolver::default();
    let started = Instant::now();
    let analysis = solver
        .analyze(&board, &SearchLimits::within(Duration::from_millis(200)))
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert!(!analysis.solved);
    assert!(analysis.depth >= 2, "depth {}", analysis.depth);
    assert!(board.is_legal(analysis.best_move));
    assert_eq!(analysis.moves.len(), board.legal_moves().len());
    assert_eq!(analysis.moves[0].tile, analysis.best_move);
    assert_eq!(analysis.moves[0].value, analysis.value);
    assert_eq!(analysis.moves[0].bound, MoveBound::Exact);
    // The others were only proved no better than the best.
    assert!(analysis.moves.iter().all(|m| m.value <= analysis.value));
    assert!(analysis.moves.iter().any(|m| m.bound == MoveBound::AtMost));
    assert_eq!(analysis.principal_variation[0], analysis.best_move);
    margin_along(&board, &analysis.principal_variation); // panics if illegal
}

#[test]
fn a_12x12_board_is_answered_within_its_deadline() {
    let mut rng = StdRng::seed_from_u64(12);
    let board = Board::shuffled(12, &mut rng).unwrap();
    let started = Instant::now();
    let analysis = NumberSquareSolver::default()
        .analyze(&board, &SearchLimits::within(Duration::from_millis(150)))
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
    assert!(board.is_legal(analysis.best_move));
    assert_eq!(analysis.moves.len(), 44);
}

#[test]
fn a_tiny_node_budget_still_gives_a_one_ply_answer() {
    let mut rng = StdRng::seed_from_u64(1);
    let board = Board::shuffled(10, &mut rng).unwrap();
    let limits = SearchLimits::within(Duration::from_secs(10)).with_max_nodes(1);
    let analysis = NumberSquareSolver::default().analyze(&board, &limits).unwrap();
    assert_eq!(analysis.depth, 1);
    assert!(!analysis.solved);
    assert!(board.is_legal(analysis.best_move));
    assert_eq!(analysis.moves.len(), board.legal_moves().len());
}

#[test]
fn a_cancelled_search_stops_early() {
    let mut rng = StdRng::seed_from_u64(3);
    let board = Board::shuffled(8, &mut rng).unwrap();
    let limits = SearchLimits::within(Duration::from_secs(30));
    limits.cancel_handle().store(true, std::sync::atomic::Ordering::Relaxed);
    let started = Instant::now();
    let analysis = NumberSquareSolver::default().analyze(&board, &limits).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(board.is_legal(analysis.best_move));
}

#[test]
fn a_finished_board_has_no_analysis() {
    let board = Board::from_rows(&[vec![Some(1), Some(2)], vec![Some(3), Some(4)]]).unwrap();
    let one = board.play(Tile::new(0, 0)).unwrap().board;
    let over = one.play(Tile::new(0, 1)).unwrap().board;
    assert!(NumberSquareSolver::default().analyze(&over, &generous()).is_none());
}

#[test]
fn asking_again_reuses_the_memo_and_gives_the_same_answer() {
    let mut rng = StdRng::seed_from_u64(5);
    let board = part_played(4, 0, &mut rng).unwrap();
    let solver = NumberSquareSolver::default();
    let first = solver.analyze(&board, &generous()).unwrap();
    let second = solver.analyze(&board, &generous()).unwrap();
    assert_eq!(first.value, second.value);
    assert_eq!(first.moves, second.moves);
    assert!(second.nodes < first.nodes, "{} vs {}", second.nodes, first.nodes);
    assert!(solver.memo_stats().hits > 0);
}

#[test]
fn the_solver_can_be_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<NumberSquareSolver>();
    let solver = NumberSquareSolver::default();
    let mut rng = StdRng::seed_from_u64(6);
    let boards: Vec<Board> = (0..4).filter_map(|_| part_played(4, 1, &mut rng)).collect();
    std::thread::scope(|scope| {
        for board in &boards {
            let solver = &solver;
            scope.spawn(move || {
                let analysis = solver.analyze(board, &generous()).unwrap();
                check_against_reference(board, &analysis);
            });
        }
    });
}
