//! The Connect Four solver against two independent references: a plain
//! minimax written here over a grid of cells (no bitboards, no table, no
//! pruning) on small grids, and the scores of Pascal Pons' solver for 300
//! 7x6 positions (src/games/connect_four/tests/data/connect_four_7x6_scores.txt, made as its
//! header says).

use std::collections::HashMap;
use std::time::Duration;

use kibitz::core::game::Game;
use kibitz::games::connect_four::solve::ConnectFourSolver;
use kibitz::games::connect_four::{ConnectFourState, Shape};
use kibitz::solve::limits::SearchLimits;

use super::brute as connect_four_brute;

use connect_four_brute::{brute_score, Grid};

fn unlimited() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(3600))
}

/// Every reachable position of a small grid, up to `max_stones`, checked
/// column by column against the brute force.
fn check_every_position(cols: usize, rows: usize, k: usize, max_stones: usize) -> usize {
    check_positions(cols, rows, k, max_stones, false)
}

fn check_positions(cols: usize, rows: usize, k: usize, max_stones: usize, wide: bool) -> usize {
    let shape = Shape::new(Some(cols as i64), Some(rows as i64), Some(k as i64)).expect("a valid shape");
    let solver = ConnectFourSolver::new(1 << 16);
    let mut memo = HashMap::new();
    let mut frontier = vec![(String::new(), Grid::new(cols, rows, k))];
    let mut checked = 0;
    let mut seen = std::collections::HashSet::new();
    while let Some((moves, grid)) = frontier.pop() {
        check_one(&solver, shape, &moves, &grid, &mut memo, wide);
        checked += 1;
        if grid.stones < max_stones {
            for col in 0..cols {
                if grid.height(col) < rows {
                    let mut child = grid.clone();
                    if !child.drop(col) && !child.full() && seen.insert(child.clone()) {
                        frontier.push((format!("{moves}{}", col + 1), child));
                    }
                }
            }
        }
    }
    checked
}

/// The analysis of the position `moves` (drawn in `grid`) gives every
/// column the brute force's score and picks a best one.
fn check_one(
    solver: &ConnectFourSolver,
    shape: Shape,
    moves: &str,
    grid: &Grid,
    memo: &mut HashMap<Grid, i32>,
    wide: bool,
) {
    let (cols, rows, k) = (grid.cols, grid.rows, grid.k);
    let game = ConnectFourState::from_moves(shape, moves).expect("a legal game");
    let analysis = if wide {
        solver.analyze_wide(&game, &unlimited())
    } else {
        solver.analyze(&game, &unlimited())
    };
    assert!(analysis.solved, "{moves} not solved");
    for col in 0..cols {
        let expected = (grid.height(col) < rows).then(|| {
            let mut child = grid.clone();
            if child.drop(col) {
                ((cols * rows) as i32 + 1 - grid.stones as i32) / 2
            } else if child.full() {
                0
            } else {
                -brute_score(&child, memo)
            }
        });
        assert_eq!(
            analysis.columns[col].score,
            expected,
            "{cols}x{rows} k={k} after {moves:?}, column {}",
            col + 1
        );
    }
    let best = analysis.columns.iter().filter_map(|c| c.score).max();
    assert_eq!(
        Some(analysis.score),
        best,
        "{moves}: the chosen move has the best score"
    );
}

#[test]
fn every_position_of_the_4x4_grid_scores_as_the_brute_force_says() {
    let checked = check_every_position(4, 4, 4, 16);
    assert!(checked > 1000, "only {checked} positions");
}

#[test]
fn positions_of_the_5x4_grid_score_as_the_brute_force_says() {
    let checked = check_every_position(5, 4, 4, 6);
    assert!(checked > 500, "only {checked} positions");
}

#[test]
fn other_line_lengths_and_wide_words_score_as_the_brute_force_says() {
    // k = 3 takes the general line code.
    assert!(check_every_position(4, 4, 3, 16) > 100);
    assert!(check_every_position(4, 5, 3, 6) > 100);
    // The words grids beyond 64 bits use, on a grid the brute force can do.
    assert!(check_positions(4, 4, 4, 8, true) > 500);
}

#[test]
fn a_search_given_any_guess_of_the_value_finds_the_brute_force_value() {
    use kibitz::games::connect_four::board::Geometry;
    use kibitz::games::connect_four::search::Search;
    use kibitz::games::connect_four::table::Table;
    let (cols, rows) = (5, 4);
    let shape = Shape::new(Some(cols as i64), Some(rows as i64), None).expect("a valid shape");
    let geo = Geometry::<u64, _>::new(shape.dims());
    let mut memo = HashMap::new();
    let mut frontier = vec![(String::new(), Grid::new(cols, rows, 4))];
    let mut checked = 0;
    while let Some((moves, grid)) = frontier.pop() {
        let board = ConnectFourState::from_moves(shape, &moves)
            .expect("a legal game")
            .to_board(&geo);
        if !board.can_win_next() {
            let expected = brute_score(&grid, &mut memo);
            // Right, near, far and outside every possible value.
            for guess in [
                None,
                Some(expected),
                Some(expected - 1),
                Some(expected + 2),
                Some(-9),
                Some(40),
            ] {
                let table = Table::new(1 << 12);
                let limits = unlimited();
                let found = Search::new(&table, &limits).solve_near(board, guess);
                assert_eq!(found, Some(expected), "{moves:?} guessed {guess:?}");
            }
            checked += 1;
        }
        if grid.stones < 5 {
            for col in 0..cols {
                let mut child = grid.clone();
                if grid.height(col) < rows && !child.drop(col) {
                    frontier.push((format!("{moves}{}", col + 1), child));
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} positions");
}

/// The first `count` positions of Pons' scores (16 to 22 stones first),
/// each analysed by `solver` and held to every column's score.
fn check_pons_scores(solver: &ConnectFourSolver, count: usize) -> usize {
    let data = include_str!("data/connect_four_7x6_scores.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let game = ConnectFourState::from_moves(Shape::default(), fields[0]).expect("a legal game");
        let analysis = solver.analyze(&game, &unlimited());
        let ours: Vec<String> = analysis
            .columns
            .iter()
            .map(|c| c.score.map_or("full".to_string(), |s| s.to_string()))
            .collect();
        assert_eq!(ours, fields[1..].to_vec(), "after {}", fields[0]);
        assert!(analysis.solved);
        checked += 1;
    }
    checked
}

#[test]
fn three_hundred_7x6_positions_score_as_pons_solver_says() {
    assert_eq!(check_pons_scores(&ConnectFourSolver::new(1 << 20), 300), 300);
}

#[test]
fn two_threads_sharing_the_columns_and_the_table_score_as_pons_solver_says() {
    let solver = ConnectFourSolver::new(1 << 20).with_helpers(1);
    assert_eq!(check_pons_scores(&solver, 60), 60);
}

#[test]
fn the_principal_variation_is_legal_and_ends_as_the_score_says() {
    let solver = ConnectFourSolver::new(1 << 20);
    let grid = |cols, rows, k| Shape::new(Some(cols), Some(rows), k).expect("a grid");
    let cases = [
        (Shape::default(), "4444443"),
        (Shape::default(), "44444433332"),
        (Shape::default(), "1234567123456712345"),
        // Odd and even areas, draws to a full grid, other line lengths.
        (grid(4, 4, None), ""),
        (grid(5, 5, None), "3"),
        (grid(5, 4, Some(3)), ""),
        (grid(4, 5, Some(3)), "21"),
    ];
    for (shape, moves) in cases {
        let mut game = ConnectFourState::from_moves(shape, moves).expect("legal");
        let analysis = solver.analyze(&game, &unlimited());
        let (_, plies) = analysis.verdict(analysis.score);
        assert_eq!(analysis.principal_variation.len() as u32, plies, "{moves}");
        // What the server asks before it returns an answer at once.
        assert!(analysis.is_complete(), "{moves}");
        let mover = game.seat_to_move();
        for &col in &analysis.principal_variation {
            assert!(game.legal_moves().contains(&col), "{moves}: column {col} is not legal");
            game.play(col);
        }
        let result = game.result().expect("the line reaches the end");
        use kibitz::core::game::GameOutcome::*;
        match analysis.score.signum() {
            1 => assert_eq!(result, Won(mover)),
            0 => assert_eq!(result, Draw),
            _ => assert_eq!(result, Won(1 - mover)),
        }
    }
}

#[test]
fn a_search_out_of_budget_says_it_is_not_solved() {
    let solver = ConnectFourSolver::new(1 << 16);
    // The open 8x7 grid: no opening book, and far from solved in 5,000
    // nodes.
    let shape = Shape::new(Some(8), Some(7), None).expect("a valid shape");
    let game = ConnectFourState::from_moves(shape, "").expect("legal");
    let analysis = solver.analyze(&game, &unlimited().with_max_nodes(5_000));
    assert!(!analysis.solved);
    assert!(analysis.columns.iter().all(|c| !c.solved));
    assert!(analysis.depth >= 1);
    assert!(analysis.nodes <= 5_000 + 2 * 60_000, "{}", analysis.nodes);
}

#[test]
fn a_symmetric_position_gives_mirror_columns_equal_scores() {
    let solver = ConnectFourSolver::new(1 << 20);
    let game = ConnectFourState::from_moves(Shape::default(), "44444433").expect("legal");
    let plain = solver.analyze(&game, &unlimited());
    let scores: Vec<Option<i32>> = plain.columns.iter().map(|c| c.score).collect();
    let mut mirrored = scores.clone();
    mirrored.reverse();
    assert_ne!(scores, mirrored, "not symmetric, so a control");
    let symmetric = ConnectFourState::from_moves(Shape::default(), "4444443355").expect("legal");
    let analysis = solver.analyze(&symmetric, &unlimited());
    let scores: Vec<Option<i32>> = analysis.columns.iter().map(|c| c.score).collect();
    let mut mirrored = scores.clone();
    mirrored.reverse();
    assert_eq!(scores, mirrored);
}

/// Random positions with 15 or 16 empty cells (27 stones on 7x6), every
/// column against the brute force: deep enough for every pruning of the
/// search (each child's table entry read before any child is searched from
/// 10 empty cells on, the big table from 16, the claimeven bound on the
/// even heights), small enough for the brute force in the test build.
#[test]
fn random_positions_near_the_end_score_as_the_brute_force_says() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut random = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut checked = 0;
    for (cols, rows, empty, count) in [(7, 6, 15..=15, 5), (5, 5, 15..=16, 8), (6, 4, 15..=16, 8)] {
        let shape = Shape::new(Some(cols as i64), Some(rows as i64), Some(4)).expect("a valid shape");
        // One table for all, as the server keeps one: entries of earlier
        // positions must not mislead later ones.
        let solver = ConnectFourSolver::new(1 << 16);
        let mut memo = HashMap::new();
        let mut made = 0;
        while made < count {
            let stones = cols * rows - empty.start() - random(empty.end() - empty.start() + 1);
            let mut grid = Grid::new(cols, rows, 4);
            let mut moves = String::new();
            let mut over = false;
            while grid.stones < stones && !over {
                let col = random(cols);
                if grid.height(col) < rows {
                    over = grid.drop(col);
                    moves.push_str(&(col + 1).to_string());
                }
            }
            if over {
                continue;
            }
            check_one(&solver, shape, &moves, &grid, &mut memo, false);
            made += 1;
            checked += 1;
        }
    }
    assert_eq!(checked, 21);
}

/// The empty boards the test build solves in moments, against the
/// published results: c4's readme (github.com/ChristopheSteininger/c4,
/// "Outcome" and "Last Move" tables, which agree with John Tromp's) gives,
/// width x height: 4x4 draw (move 16), 5x4 draw (20), 6x4 second player
/// wins on move 24, 4x5 draw (20), 5x5 draw (25), 4x6 draw (24), 4x7 draw
/// (28). A draw ends on the last cell; a win on the move given.
#[test]
fn small_empty_boards_end_as_published() {
    use kibitz::core::outcome::Outcome;
    let solver = ConnectFourSolver::new(1 << 20);
    // Every grid with width + height <= 13, as c4's readme (and John Tromp)
    // publish them; the larger ones are answered from their opening books.
    for (cols, rows, outcome, last_move) in [
        (4, 4, Outcome::Draw, 16),
        (5, 4, Outcome::Draw, 20),
        (6, 4, Outcome::Loss, 24),
        (7, 4, Outcome::Draw, 28),
        (8, 4, Outcome::Loss, 32),
        (9, 4, Outcome::Loss, 36),
        (4, 5, Outcome::Draw, 20),
        (5, 5, Outcome::Draw, 25),
        (6, 5, Outcome::Draw, 30),
        (7, 5, Outcome::Draw, 35),
        (8, 5, Outcome::Win, 39),
        (4, 6, Outcome::Draw, 24),
        (5, 6, Outcome::Draw, 30),
        (6, 6, Outcome::Loss, 36),
        (7, 6, Outcome::Win, 41),
        (4, 7, Outcome::Draw, 28),
        (5, 7, Outcome::Draw, 35),
        (6, 7, Outcome::Win, 41),
        (4, 8, Outcome::Draw, 32),
        (5, 8, Outcome::Draw, 40),
        (4, 9, Outcome::Draw, 36),
    ] {
        let shape = Shape::new(Some(cols), Some(rows), Some(4)).expect("a valid shape");
        let game = ConnectFourState::from_moves(shape, "").expect("the empty board");
        let analysis = solver.analyze(&game, &unlimited());
        assert!(analysis.solved, "{cols}x{rows}");
        // For the first player, to move: a loss is the second's win.
        assert_eq!(
            analysis.verdict(analysis.score),
            (outcome, last_move),
            "{cols}x{rows}: {:?}",
            analysis.columns
        );
    }
}

/// Positions of 9 to 12 stones, where a position and its mirror image
/// share one table entry, and their mirror images, solved in turn with one
/// table: each gets Pons' scores (benches/connect_four_positions.txt), the
/// mirror's reversed, whichever of the two stored the entries.
#[test]
fn mirror_images_sharing_entries_score_as_pons_solver_says() {
    let solver = ConnectFourSolver::new(1 << 20);
    let mirror = |moves: &str| -> String { moves.chars().map(|c| char::from(b'8' - (c as u8 - b'0'))).collect() };
    for (moves, scores) in [
        ("453753436", [-15, -15, 0, 0, -15, -15, -15]),
        ("162465645", [16, 16, 17, 16, 16, 16, 17]),
        ("172625527175", [-15, -15, -15, 13, -15, -15, -15]),
        ("573333132757", [-15, -15, -15, 15, -15, -15, 6]),
    ] {
        let mut reversed = scores;
        reversed.reverse();
        for (line, expected) in [(mirror(moves), reversed), (moves.to_string(), scores)] {
            let game = ConnectFourState::from_moves(Shape::default(), &line).expect("a legal game");
            let analysis = solver.analyze(&game, &unlimited());
            let ours: Vec<Option<i32>> = analysis.columns.iter().map(|c| c.score).collect();
            assert_eq!(ours, expected.map(Some).to_vec(), "after {line}");
            assert!(analysis.solved, "{line}");
        }
    }
}
