//! Nine Square search and strategies: legal answers, repeatability, the
//! exact endgame against a brute-force expectimax written here, the seed's
//! greedy, and whole games.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use kibitz::arena::players::{play_out, Chooser, FromFn, Referee, UniformRandom};
use kibitz::games::nine_square::solve::{best_placements, EXACT_MAX_EMPTY};
use kibitz::games::nine_square::strategies::{greedy_placements, greedy_value};
use kibitz::games::nine_square::Greedy;
use kibitz::games::nine_square::{Board, Coord, NineSquareMove, NineSquareState, Player, Position};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::brute as nine_square_brute;
use nine_square_brute::brute_score;

fn budget(nodes: u64) -> SearchLimits {
    SearchLimits::within(Duration::from_secs(60)).with_max_nodes(nodes)
}

/// A random grid with `empty` empty cells, X and O scattered.
fn random_board(rng: &mut StdRng, empty: usize) -> Board {
    let mut board = Board::new();
    let mut cells: Vec<Coord> = board.empty_cells().collect();
    cells.shuffle(rng);
    for &at in &cells[empty..] {
        let player = if rng.gen_bool(0.5) { Player::X } else { Player::O };
        board.place(at, player).expect("empty");
    }
    board
}

fn assert_legal(position: &Position, placements: &[Coord]) {
    assert_eq!(placements.len(), position.placements_due());
    let distinct: HashSet<Coord> = placements.iter().copied().collect();
    assert_eq!(distinct.len(), placements.len(), "repeated cell");
    for &at in placements {
        assert_eq!(position.board().get(at), None, "occupied cell {at:?}");
    }
    let loose: Vec<(i64, i64)> = placements.iter().map(|c| (c.row() as i64, c.col() as i64)).collect();
    assert!(position.apply(&loose).is_ok());
}

#[test]
fn every_strategy_places_exactly_the_due_number_of_distinct_empty_cells() {
    let mut rng = StdRng::seed_from_u64(11);
    for empty in [1, 2, 3, 5, 6, 7, 9, 10, 12, 30, 81] {
        for dice in 1..=6 {
            let board = random_board(&mut rng, empty);
            let player = if rng.gen_bool(0.5) { Player::X } else { Player::O };
            let position = Position::new(board, player, dice).expect("not full");
            let best = best_placements(&position, &budget(3_000), rng.gen());
            assert_legal(&position, &best.placements);
            assert_legal(&position, &greedy_placements(&position));
        }
    }
}

#[test]
fn a_zero_budget_still_answers_legally() {
    let position = Position::new(Board::new(), Player::O, 6).expect("valid");
    let result = best_placements(&position, &budget(0), 1);
    assert_legal(&position, &result.placements);
    assert!(!result.solved);
}

#[test]
fn a_seeded_search_under_a_node_budget_is_repeatable() {
    let mut rng = StdRng::seed_from_u64(5);
    for (empty, dice) in [(81, 3), (50, 6), (25, 2)] {
        let board = random_board(&mut rng, empty);
        let position = Position::new(board, Player::X, dice).expect("valid");
        let first = best_placements(&position, &budget(40_000), 99);
        let second = best_placements(&position, &budget(40_000), 99);
        assert_eq!(first, second);
        assert!(first.nodes >= 40_000, "nodes {}", first.nodes);
    }
}

#[test]
fn the_search_honours_its_deadline() {
    let position = Position::new(Board::new(), Player::X, 6).expect("valid");
    let started = Instant::now();
    let result = best_placements(&position, &SearchLimits::within(Duration::from_millis(100)), 3);
    // Generous: the machine running the tests may be busy.
    assert!(started.elapsed() < Duration::from_millis(1_000));
    assert_legal(&position, &result.placements);
}

/// Every box line of this tile holds both marks, and so does every line of
/// nine when it fills all nine boxes.
const DEAD_TILE: [[u8; 3]; 3] = [[1, 2, 1], [1, 2, 2], [2, 1, 1]];

/// All 92 scoring lines as cell indices.
fn all_lines() -> Vec<Vec<usize>> {
    let mut lines = Vec::new();
    for b in 0..9 {
        let (top, left) = ((b / 3) * 3, (b % 3) * 3);
        let at = |r: usize, c: usize| (top + r) * 9 + left + c;
        for i in 0..3 {
            lines.push((0..3).map(|j| at(i, j)).collect());
            lines.push((0..3).map(|j| at(j, i)).collect());
        }
        lines.push((0..3).map(|i| at(i, i)).collect());
        lines.push((0..3).map(|i| at(i, 2 - i)).collect());
    }
    for i in 0..9 {
        lines.push((0..9).map(|j| i * 9 + j).collect());
        lines.push((0..9).map(|j| j * 9 + i).collect());
    }
    lines.push((0..9).map(|i| i * 9 + i).collect());
    lines.push((0..9).map(|i| i * 9 + 8 - i).collect());
    lines
}

fn is_dead(cells: &[u8; 81], line: &[usize]) -> bool {
    line.iter().any(|&c| cells[c] == 1) && line.iter().any(|&c| cells[c] == 2)
}

#[test]
fn the_search_completes_a_line_and_blocks_one_when_nothing_else_matters() {
    let mut cells = [0u8; 81];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = DEAD_TILE[(i / 9) % 3][(i % 9) % 3];
    }
    // X: box row (0,0),(0,1) with (0,2) empty. O: box column (3,4),(4,4)
    // with (5,4) empty. Both are the only live lines.
    cells[1] = 1;
    cells[2] = 0;
    cells[5 * 9 + 4] = 0;
    let lines = all_lines();
    let live = |cells: &[u8; 81]| lines.iter().filter(|l| !is_dead(cells, l)).count();
    let live_before = live(&cells);
    // Empty more cells, keeping every other line dead, so that the
    // endgame is too big for the exact solver (the tree search answers) and
    // only the threats decide anything.
    for i in 0..81 {
        if cells[i] == 0 {
            continue;
        }
        let kept = cells[i];
        cells[i] = 0;
        if live(&cells) > live_before {
            cells[i] = kept;
        }
    }
    let rows: Vec<String> = cells
        .chunks(9)
        .map(|row| row.iter().map(|&c| ['.', 'X', 'O'][usize::from(c)]).collect())
        .collect();
    let position = Position::parse(&rows, "X", 2).expect("valid");
    assert!(position.board().empty_count() > EXACT_MAX_EMPTY);
    for seed in 0..5 {
        let result = best_placements(&position, &budget(30_000), seed);
        assert!(!result.solved);
        let chosen: HashSet<(usize, usize)> = result.placements.iter().map(|c| (c.row(), c.col())).collect();
        assert_eq!(chosen, HashSet::from([(0, 2), (5, 4)]), "{rows:#?}");
    }
}

// ---------------------------------------------------------------------------
// Brute-force reference for the exact endgame

/// Expected final margin for X, `roller` about to roll; no memo, no
/// pruning: every roll, every set of cells.
fn brute_before_roll(cells: &mut [u8; 81], roller: u8) -> f64 {
    let empties: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
    if empties.is_empty() {
        let (x, o) = brute_score(cells);
        return f64::from(x - o);
    }
    let total: f64 = (1..=6)
        .map(|die: usize| brute_best_turn(cells, roller, die.min(empties.len())).0)
        .sum();
    total / 6.0
}

/// The best set of `due` cells for `player` (1 X, 2 O): X's expected final
/// margin and the set, trying every subset of the empty cells by bitmask.
fn brute_best_turn(cells: &mut [u8; 81], player: u8, due: usize) -> (f64, Vec<usize>) {
    let empties: Vec<usize> = (0..81).filter(|&c| cells[c] == 0).collect();
    let sign = if player == 1 { 1.0 } else { -1.0 };
    let mut best: Option<(f64, Vec<usize>)> = None;
    for mask in 0u32..(1 << empties.len()) {
        if mask.count_ones() as usize != due {
            continue;
        }
        let chosen: Vec<usize> = (0..empties.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| empties[i])
            .collect();
        for &c in &chosen {
            cells[c] = player;
        }
        let value = brute_before_roll(cells, 3 - player);
        for &c in &chosen {
            cells[c] = 0;
        }
        if best.as_ref().is_none_or(|(b, _)| sign * value > sign * b) {
            best = Some((value, chosen));
        }
    }
    best.unwrap_or((0.0, Vec::new()))
}

fn to_cells(board: &Board) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let at = Coord::new(r, c).expect("on grid");
            cells[at.index()] = match board.get(at) {
                None => 0,
                Some(Player::X) => 1,
                Some(Player::O) => 2,
            };
        }
    }
    cells
}

/// A grid with a few empty cells chosen where lines are still open: the
/// box rows of the top-left box and a line of nine (row 4) nearly done.
fn endgame_board(rng: &mut StdRng, empty: &[(usize, usize)]) -> Board {
    let mut board = Board::new();
    for r in 0..9 {
        for c in 0..9 {
            if empty.contains(&(r, c)) {
                continue;
            }
            let player = if r == 4 || r == 0 || rng.gen_bool(0.5) {
                Player::X
            } else {
                Player::O
            };
            board.place(Coord::new(r, c).expect("on grid"), player).expect("empty");
        }
    }
    board
}

#[test]
fn the_exact_endgame_agrees_with_brute_force_expectimax() {
    let mut rng = StdRng::seed_from_u64(21);
    let layouts: [&[(usize, usize)]; 3] = [
        &[(0, 0), (0, 1), (4, 4), (1, 1), (8, 8)],
        &[(0, 2), (4, 0), (4, 8), (2, 0), (2, 2), (6, 6)],
        &[(0, 0), (1, 1), (2, 2), (4, 4), (3, 3), (5, 5)],
    ];
    for (i, layout) in layouts.iter().enumerate() {
        let board = endgame_board(&mut rng, layout);
        for player in [Player::X, Player::O] {
            for dice in [1, 2, 4] {
                let position = Position::new(board, player, dice).expect("valid");
                let result = best_placements(&position, &budget(5_000_000), 0);
                assert!(result.solved, "layout {i} not solved");
                let mut cells = to_cells(&board);
                let code = if player == Player::X { 1 } else { 2 };
                let (reference_x, _) = brute_best_turn(&mut cells, code, position.placements_due());
                let sign = if player == Player::X { 1.0 } else { -1.0 };
                assert!(
                    (result.expected_margin - sign * reference_x).abs() < 1e-9,
                    "layout {i} {player} dice {dice}: {} vs {}",
                    result.expected_margin,
                    sign * reference_x
                );
                // The chosen set is worth the optimum, by the reference.
                for at in &result.placements {
                    cells[at.index()] = code;
                }
                let chosen_x = brute_before_roll(&mut cells, 3 - code);
                assert!((chosen_x - reference_x).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn when_every_empty_cell_must_be_filled_the_answer_is_exact() {
    let mut rng = StdRng::seed_from_u64(8);
    let board = random_board(&mut rng, 3);
    let position = Position::new(board, Player::O, 5).expect("valid");
    let result = best_placements(&position, &budget(10_000), 0);
    assert!(result.solved);
    let mut after = board;
    for &at in &result.placements {
        after.place(at, Player::O).expect("empty");
    }
    assert!(after.is_full());
    assert_eq!(result.expected_margin, f64::from(after.score().margin_for(Player::O)));
}

#[test]
fn endgames_up_to_the_exact_limit_are_solved_within_a_request_budget() {
    let mut rng = StdRng::seed_from_u64(13);
    let board = random_board(&mut rng, EXACT_MAX_EMPTY);
    let position = Position::new(board, Player::X, 3).expect("valid");
    let result = best_placements(&position, &budget(20_000_000), 0);
    assert!(result.solved);
}

// ---------------------------------------------------------------------------
// The seed's greedy

#[test]
fn greedy_values_open_lines_and_a_completed_line_as_the_paper_does() {
    let empty = Board::new();
    let at = |r, c| Coord::new(r, c).expect("on grid");
    // Grid centre: 4 box lines + 4 lines of nine, all open.
    assert_eq!(greedy_value(&empty, at(4, 4), Player::X), 8);
    // A box edge cell off the diagonals: box row + box column + grid row +
    // grid column.
    assert_eq!(greedy_value(&empty, at(0, 1), Player::X), 4);
    // Box corner on the grid diagonal: 3 box lines + 3 grid lines.
    assert_eq!(greedy_value(&empty, at(0, 0), Player::X), 6);

    let mut rows = vec![".........".to_string(); 9];
    rows[0] = "XX.O.....".into();
    let position = Position::parse(&rows, "X", 1).expect("valid");
    let board = position.board();
    // (0,2): box row completes (+1 +5), box column, anti-diagonal open;
    // the grid row holds an O, the grid column is open.
    assert_eq!(greedy_value(board, at(0, 2), Player::X), 1 + 5 + 1 + 1 + 1);
    // The empty board's first greedy mark is the grid centre.
    let first = Position::new(Board::new(), Player::X, 1).expect("valid");
    assert_eq!(greedy_placements(&first), vec![at(4, 4)]);
}

#[test]
fn greedy_does_not_block() {
    // O threatens the box row (0,0),(0,1); X's greedy prefers open cells.
    let mut rows = vec![".........".to_string(); 9];
    rows[0] = "OO.......".into();
    let position = Position::parse(&rows, "X", 1).expect("valid");
    assert_ne!(greedy_placements(&position), vec![Coord::new(0, 2).expect("on grid")]);
}

// ---------------------------------------------------------------------------
// Whole games, through the arena's loop (greedy against random over many
// games is tests/api/arena_series.rs's `greedy_nine_square_beats_random`)

/// A game from an empty grid, X first, the dice and the players' choices
/// drawn from `seed`.
fn play(x: &mut dyn Chooser<NineSquareState>, o: &mut dyn Chooser<NineSquareState>, seed: u64) -> NineSquareState {
    let mut game = NineSquareState::new();
    let mut rng = StdRng::seed_from_u64(seed);
    play_out(&mut game, [x, o], &mut rng, &Referee::untimed()).expect("a legal game");
    game
}

#[test]
fn a_game_is_repeatable_from_its_seed_and_fills_the_grid() {
    let a = play(&mut Greedy, &mut UniformRandom, 42);
    assert_eq!(a, play(&mut Greedy, &mut UniformRandom, 42));
    assert_ne!(a, play(&mut Greedy, &mut UniformRandom, 43));
    assert!(a.is_over() && a.board().is_full());
}

#[test]
fn best_under_a_small_node_budget_beats_greedy_over_a_few_seeded_games() {
    // Repeatable (node budget), small and only a sanity check; the strength
    // figure at 100 ms a turn comes from the arena.
    let mut best = FromFn(|game: &NineSquareState| {
        let position = game.position(game.rolled()).expect("a placement is due");
        let seed = u64::from(game.rolled()) + game.board().empty_cells().count() as u64;
        best_placements(&position, &budget(20_000), seed)
            .placements
            .into_iter()
            .map(NineSquareMove::Place)
    });
    let mut margin = 0;
    for seed in 0..4u64 {
        let best_is_x = seed % 2 == 0;
        let game = if best_is_x {
            play(&mut best, &mut Greedy, seed)
        } else {
            play(&mut Greedy, &mut best, seed)
        };
        let seat = if best_is_x { Player::X } else { Player::O };
        margin += game.board().score().margin_for(seat);
    }
    assert!(margin > 0, "best's total margin over greedy: {margin}");
}
