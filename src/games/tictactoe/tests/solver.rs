//! The solver against an independent brute-force minimax written here, on
//! every reachable 3x3 position and on random small m,n,k positions; plus
//! tactics on 4x4 and 19x19, limits, and many threads sharing one memo.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::games::tictactoe::solve::{Analysis, Outcome, TicTacToeSolver};
use kibitz::games::tictactoe::{AfterMove, Player, Position};
use kibitz::solve::limits::SearchLimits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plain depth-aware minimax over a flat board (0 empty, 1 X, 2 O). A value
/// is from the mover's side: a win in p plies is `1000 - p`, a loss in p
/// plies `-(1000 - p)`, a draw 0.
struct Brute {
    rows: usize,
    cols: usize,
    lines: Vec<Vec<usize>>,
    cache: HashMap<Vec<u8>, i32>,
}

impl Brute {
    fn new(rows: usize, cols: usize, k: usize) -> Brute {
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> = (0..k as i32).map(|i| (r + dr * i, c + dc * i)).collect();
                    if cells
                        .iter()
                        .all(|&(r, c)| r >= 0 && c >= 0 && r < rows as i32 && c < cols as i32)
                    {
                        let mut line: Vec<usize> =
                            cells.iter().map(|&(r, c)| (r as usize) * cols + c as usize).collect();
                        line.sort();
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    }
                }
            }
        }
        Brute {
            rows,
            cols,
            lines,
            cache: HashMap::new(),
        }
    }

    fn completes_line(&self, board: &[u8], cell: usize) -> bool {
        let who = board[cell];
        self.lines
            .iter()
            .any(|l| l.contains(&cell) && l.iter().all(|&i| board[i] == who))
    }

    fn mover(board: &[u8]) -> u8 {
        let xs = board.iter().filter(|&&c| c == 1).count();
        let os = board.iter().filter(|&&c| c == 2).count();
        if xs == os {
            1
        } else {
            2
        }
    }

    /// Value of playing `cell` for the mover.
    fn move_value(&mut self, board: &mut Vec<u8>, cell: usize) -> i32 {
        board[cell] = Self::mover(board);
        let value = if self.completes_line(board, cell) {
            999
        } else if board.iter().all(|&c| c != 0) {
            0
        } else {
            let child = self.value(board);
            match child {
                0 => 0,
                c if c > 0 => -c + 1,
                c => -c - 1,
            }
        };
        board[cell] = 0;
        value
    }

    fn value(&mut self, board: &mut Vec<u8>) -> i32 {
        if let Some(&v) = self.cache.get(board.as_slice()) {
            return v;
        }
        let mut best = i32::MIN;
        for cell in 0..board.len() {
            if board[cell] == 0 {
                best = best.max(self.move_value(board, cell));
            }
        }
        self.cache.insert(board.clone(), best);
        best
    }

    fn outcome(value: i32, empties: usize) -> (Outcome, u32) {
        match value {
            0 => (Outcome::Draw, empties as u32),
            v if v > 0 => (Outcome::Win, (1000 - v) as u32),
            v => (Outcome::Loss, (1000 + v) as u32),
        }
    }

    fn rows_of(&self, board: &[u8]) -> Vec<String> {
        board
            .chunks(self.cols)
            .map(|r| r.iter().map(|&c| [".", "X", "O"][c as usize]).collect())
            .collect()
    }
}

fn generous() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(30))
}

/// Checks an analysis against the brute force: the position's outcome and
/// length, every move's, and that the chosen move is the lowest-index move
/// among the best.
fn check_against_brute(brute: &mut Brute, board: &[u8], analysis: &Analysis) {
    let rows = brute.rows_of(board);
    let empties = board.iter().filter(|&&c| c == 0).count();
    let mut scratch = board.to_vec();
    let values: Vec<(usize, i32)> = (0..board.len())
        .filter(|&i| board[i] == 0)
        .map(|i| (i, brute.move_value(&mut scratch, i)))
        .collect();
    let best_value = values.iter().map(|v| v.1).max().unwrap();
    let first_best = values.iter().find(|v| v.1 == best_value).unwrap().0;
    let (outcome, plies) = Brute::outcome(best_value, empties);
    assert!(analysis.solved, "{rows:?} not solved");
    assert_eq!(analysis.outcome, Some(outcome), "{rows:?}");
    assert_eq!(analysis.plies_to_end, Some(plies), "{rows:?}");
    assert_eq!(
        analysis.best_move, first_best,
        "{rows:?}: chose {} over {first_best}",
        analysis.best_move
    );
    assert_eq!(analysis.principal_variation.first(), Some(&first_best), "{rows:?}");
    check_principal_variation(brute, board, analysis);
    assert_eq!(analysis.moves.len(), values.len(), "{rows:?}");
    for (m, &(index, value)) in analysis.moves.iter().zip(&values) {
        let (outcome, plies) = Brute::outcome(value, empties);
        assert_eq!(m.index, index, "{rows:?}");
        assert_eq!(m.outcome, Some(outcome), "{rows:?} move {index}");
        assert_eq!(m.plies_to_end, Some(plies), "{rows:?} move {index}");
    }
}

/// The principal variation is legal, optimal for both sides at every step
/// (per the brute force), and runs exactly to the end of the game.
fn check_principal_variation(brute: &mut Brute, board: &[u8], analysis: &Analysis) {
    let rows = brute.rows_of(board);
    let mut line = board.to_vec();
    for (ply, &cell) in analysis.principal_variation.iter().enumerate() {
        assert_eq!(line[cell], 0, "{rows:?}: pv plays a taken cell");
        let empty: Vec<usize> = (0..line.len()).filter(|&i| line[i] == 0).collect();
        let best = empty.iter().map(|&i| brute.move_value(&mut line, i)).max().unwrap();
        assert_eq!(
            brute.move_value(&mut line, cell),
            best,
            "{rows:?}: pv step {ply} is not optimal"
        );
        line[cell] = Brute::mover(&line);
    }
    let plies = analysis.principal_variation.len() as u32;
    assert_eq!(
        Some(plies),
        analysis.plies_to_end,
        "{rows:?}: pv {:?}",
        analysis.principal_variation
    );
}

/// Every position reachable from the empty board, terminal ones included.
fn reachable(brute: &Brute) -> Vec<Vec<u8>> {
    fn visit(brute: &Brute, board: &mut Vec<u8>, seen: &mut HashMap<Vec<u8>, bool>) {
        if seen.contains_key(board.as_slice()) {
            return;
        }
        let over =
            (0..board.len()).any(|i| board[i] != 0 && brute.completes_line(board, i)) || board.iter().all(|&c| c != 0);
        seen.insert(board.clone(), over);
        if over {
            return;
        }
        let who = Brute::mover(board);
        for i in 0..board.len() {
            if board[i] == 0 {
                board[i] = who;
                visit(brute, board, seen);
                board[i] = 0;
            }
        }
    }
    let mut seen = HashMap::new();
    visit(brute, &mut vec![0; brute.rows * brute.cols], &mut seen);
    let mut all: Vec<(Vec<u8>, bool)> = seen.into_iter().collect();
    all.sort();
    all.into_iter()
        .map(|(b, over)| if over { Vec::new() } else { b })
        .collect()
}

#[test]
fn every_reachable_3x3_position_is_solved_like_the_brute_force() {
    let mut brute = Brute::new(3, 3, 3);
    let all = reachable(&brute);
    assert_eq!(all.len(), 5478, "reachable 3x3 positions");
    let playable: Vec<&Vec<u8>> = all.iter().filter(|b| !b.is_empty()).collect();
    assert_eq!(playable.len(), 4520, "reachable positions that are not over");
    let shared = TicTacToeSolver::new(1 << 16);
    for board in playable {
        let position = Position::parse(&brute.rows_of(board), None).unwrap();
        // A cold memo every time, and one warmed by all the others.
        let cold = TicTacToeSolver::new(1 << 12).analyze(&position, &generous());
        check_against_brute(&mut brute, board, &cold);
        let warm = shared.analyze(&position, &generous());
        check_against_brute(&mut brute, board, &warm);
    }
}

#[test]
fn the_empty_3x3_board_is_a_draw_in_nine_plies_whatever_the_first_move() {
    let analysis = TicTacToeSolver::new(1 << 16).analyze(&Position::new_game(3, 3, None).unwrap(), &generous());
    assert_eq!(analysis.player, Player::X);
    assert!(analysis.solved);
    assert_eq!(analysis.outcome, Some(Outcome::Draw));
    assert_eq!(analysis.plies_to_end, Some(9));
    assert_eq!(analysis.score, 0);
    assert_eq!(analysis.best_move, 0, "all draw, so the lowest index");
    assert!(analysis.moves.iter().all(|m| m.outcome == Some(Outcome::Draw)));
    assert_eq!(analysis.principal_variation.len(), 9);
}

/// Random positions after `stones` random (non-final) moves.
fn random_positions(rows: usize, cols: usize, k: usize, stones: usize, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let brute = Brute::new(rows, cols, k);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = vec![0u8; rows * cols];
        let mut alive = true;
        for _ in 0..stones {
            let empty: Vec<usize> = (0..board.len()).filter(|&i| board[i] == 0).collect();
            let cell = empty[rng.gen_range(0..empty.len())];
            board[cell] = Brute::mover(&board);
            if brute.completes_line(&board, cell) || board.iter().all(|&c| c != 0) {
                alive = false;
                break;
            }
        }
        if alive {
            found.push(board);
        }
    }
    found
}

#[test]
fn random_small_mnk_positions_match_the_brute_force() {
    // (rows, cols, k, stones already played)
    let shapes = [
        (3, 4, 3, 3),
        (4, 3, 3, 4),
        (4, 4, 3, 6),
        (4, 4, 4, 8),
        (4, 4, 4, 5),
        (5, 5, 4, 15),
        (2, 5, 2, 2),
        (1, 7, 3, 2),
    ];
    let solver = TicTacToeSolver::new(1 << 18);
    for (seed, &(rows, cols, k, stones)) in shapes.iter().enumerate() {
        let mut brute = Brute::new(rows, cols, k);
        for board in random_positions(rows, cols, k, stones, 25, seed as u64) {
            let position = Position::parse(&brute.rows_of(&board), Some(k)).unwrap();
            let analysis = solver.analyze(&position, &generous());
            check_against_brute(&mut brute, &board, &analysis);
        }
    }
}

fn analyze(rows: &[&str], k: Option<usize>, budget_ms: u64) -> Analysis {
    let position = Position::parse(rows, k).unwrap();
    TicTacToeSolver::new(1 << 18).analyze(&position, &SearchLimits::within(Duration::from_millis(budget_ms)))
}

#[test]
fn on_4x4_the_mover_takes_a_win_and_blocks_a_loss() {
    let win = analyze(&["XXX.", "OO..", "O...", "...."], None, 5_000);
    assert_eq!(win.best_move, 3);
    assert_eq!(win.outcome, Some(Outcome::Win));
    assert_eq!(win.plies_to_end, Some(1));
    let block = analyze(&["XXX.", "OO..", "....", "...."], None, 5_000);
    assert_eq!(block.player, Player::O);
    assert_eq!(block.best_move, 3, "O must block the row");
    for m in block.moves.iter().filter(|m| m.index != 3) {
        assert_eq!(
            (m.outcome, m.plies_to_end),
            (Some(Outcome::Loss), Some(2)),
            "move {}",
            m.index
        );
    }
}

fn empty_19(stones: &[(usize, usize, char)]) -> Vec<String> {
    let mut grid = vec![vec!['.'; 19]; 19];
    for &(r, c, who) in stones {
        grid[r][c] = who;
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[test]
fn on_19x19_the_mover_takes_a_win_and_blocks_a_four() {
    // X has four on row 9 with one end blocked; O scattered.
    let four = [
        (9, 5, 'X'),
        (9, 6, 'X'),
        (9, 7, 'X'),
        (9, 8, 'X'),
        (9, 4, 'O'),
        (3, 3, 'O'),
        (15, 15, 'O'),
    ];
    let o_to_move = empty_19(&four);
    let rows: Vec<&str> = o_to_move.iter().map(String::as_str).collect();
    let block = analyze(&rows, None, 500);
    assert_eq!(block.player, Player::O);
    assert_eq!(block.best_move, 9 * 19 + 9, "O must block at (9, 9)");
    assert!(!block.solved);
    for m in &block.moves {
        if m.index != 9 * 19 + 9 {
            assert_eq!(m.outcome, Some(Outcome::Loss), "move {} leaves the four open", m.index);
            assert_eq!(m.plies_to_end, Some(2));
        }
    }

    let mut x_to_move = four.to_vec();
    x_to_move.push((0, 18, 'O'));
    let grid = empty_19(&x_to_move);
    let rows: Vec<&str> = grid.iter().map(String::as_str).collect();
    let win = analyze(&rows, None, 500);
    assert_eq!(win.player, Player::X);
    assert_eq!(win.best_move, 9 * 19 + 9);
    assert!(win.solved);
    assert_eq!((win.outcome, win.plies_to_end), (Some(Outcome::Win), Some(1)));
}

#[test]
fn on_19x19_an_open_four_is_a_lost_position_for_the_defender() {
    let stones = [
        (9, 5, 'X'),
        (9, 6, 'X'),
        (9, 7, 'X'),
        (9, 8, 'X'),
        (3, 3, 'O'),
        (15, 15, 'O'),
        (0, 0, 'O'),
    ];
    let grid = empty_19(&stones);
    let rows: Vec<&str> = grid.iter().map(String::as_str).collect();
    let analysis = analyze(&rows, None, 500);
    assert!(analysis.solved);
    assert_eq!(analysis.outcome, Some(Outcome::Loss));
    assert_eq!(analysis.plies_to_end, Some(2));
    // Every move loses in two, so the contract's tie rule picks the lowest
    // index, (0, 1), rather than an end of the four.
    assert_eq!(analysis.best_move, 1);
}

#[test]
fn a_big_board_search_answers_within_its_deadline() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut position = Position::new_game(19, 19, None).unwrap();
    // Random play near the centre until 30 stones are down.
    while position.board().cells().iter().flatten().count() < 30 {
        let cell = (rng.gen_range(5..14)) * 19 + rng.gen_range(5..14);
        if let Ok(AfterMove::Continues(next)) = position.play(cell) {
            position = next;
        }
    }
    let solver = TicTacToeSolver::new(1 << 18);
    for budget_ms in [50u64, 300] {
        let started = Instant::now();
        let analysis = solver.analyze(&position, &SearchLimits::within(Duration::from_millis(budget_ms)));
        let elapsed = started.elapsed();
        // Generous margin: the machine running the tests may be busy.
        assert!(
            elapsed < Duration::from_millis(budget_ms + 250),
            "took {elapsed:?} for {budget_ms} ms"
        );
        assert!(position.is_legal(analysis.best_move));
        assert_eq!(analysis.moves.len(), 19 * 19 - 30);
        assert!(analysis.depth >= 1);
    }
}

#[test]
fn a_node_budget_of_zero_still_gets_a_legal_move_from_the_one_ply_look() {
    let position = Position::new_game(4, 4, None).unwrap();
    let limits = SearchLimits::within(Duration::from_secs(5)).with_max_nodes(0);
    let analysis = TicTacToeSolver::new(1 << 10).analyze(&position, &limits);
    assert_eq!(analysis.depth, 1);
    assert!(!analysis.solved);
    assert_eq!(analysis.outcome, None);
    assert!(position.is_legal(analysis.best_move));
}

#[test]
fn the_empty_4x4_board_is_a_draw_and_a_warm_memo_answers_quickly() {
    let solver = TicTacToeSolver::new(1 << 22);
    let position = Position::new_game(4, 4, None).unwrap();
    let cold = solver.analyze(&position, &SearchLimits::within(Duration::from_secs(60)));
    assert!(cold.solved, "depth {} nodes {}", cold.depth, cold.nodes);
    assert_eq!(cold.outcome, Some(Outcome::Draw));
    assert_eq!(cold.plies_to_end, Some(16));
    assert!(cold.moves.iter().all(|m| m.outcome == Some(Outcome::Draw)));
    let warm = solver.analyze(&position, &SearchLimits::within(Duration::from_secs(60)));
    assert_eq!(warm.outcome, Some(Outcome::Draw));
    assert!(
        warm.nodes * 10 < cold.nodes,
        "warm {} vs cold {} nodes",
        warm.nodes,
        cold.nodes
    );
}

#[test]
fn many_threads_sharing_one_solver_agree_with_each_other_and_the_brute_force() {
    fn shareable<T: Send + Sync>() {}
    shareable::<TicTacToeSolver>();
    let mut brute = Brute::new(3, 3, 3);
    let boards: Vec<Vec<u8>> = reachable(&brute).into_iter().filter(|b| !b.is_empty()).collect();
    let expected: Vec<(usize, Option<Outcome>, Option<u32>)> = boards
        .iter()
        .map(|b| {
            let empties = b.iter().filter(|&&c| c == 0).count();
            let mut scratch = b.clone();
            let values: Vec<(usize, i32)> = (0..9)
                .filter(|&i| b[i] == 0)
                .map(|i| (i, brute.move_value(&mut scratch, i)))
                .collect();
            let best = values.iter().map(|v| v.1).max().unwrap();
            let (outcome, plies) = Brute::outcome(best, empties);
            (
                values.iter().find(|v| v.1 == best).unwrap().0,
                Some(outcome),
                Some(plies),
            )
        })
        .collect();
    let rows: Vec<Vec<String>> = boards.iter().map(|b| brute.rows_of(b)).collect();
    // Small enough that the memo rotates while the threads run.
    let solver = Arc::new(TicTacToeSolver::new(2_000));
    let rows = Arc::new(rows);
    let expected = Arc::new(expected);
    let handles: Vec<_> = (0..8u64)
        .map(|seed| {
            let (solver, rows, expected) = (Arc::clone(&solver), Arc::clone(&rows), Arc::clone(&expected));
            std::thread::spawn(move || {
                let mut rng = StdRng::seed_from_u64(seed);
                for _ in 0..600 {
                    let i = rng.gen_range(0..rows.len());
                    let position = Position::parse(&rows[i], None).unwrap();
                    let a = solver.analyze(&position, &generous());
                    assert_eq!((a.best_move, a.outcome, a.plies_to_end), expected[i], "{:?}", rows[i]);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let stats = solver.memo_stats();
    assert!(stats.entries <= stats.capacity);
    assert!(stats.hits > 0 && stats.misses > 0);
}

#[test]
fn on_19x19_an_open_three_is_blocked_at_an_end() {
    // X: an open three on row 9, columns 7..=9; O elsewhere, O to move.
    let stones = [(9, 7, 'X'), (9, 8, 'X'), (9, 9, 'X'), (3, 3, 'O'), (15, 15, 'O')];
    let grid = empty_19(&stones);
    let rows: Vec<&str> = grid.iter().map(String::as_str).collect();
    let analysis = analyze(&rows, None, 1_000);
    let ends = [9 * 19 + 6, 9 * 19 + 10];
    assert!(ends.contains(&analysis.best_move), "chose {}", analysis.best_move);
    // Leaving the three open loses in 4: open four, one block, five.
    for far_end in [9 * 19 + 5, 9 * 19 + 11] {
        let m = analysis.moves.iter().find(|m| m.index == far_end).unwrap();
        assert_eq!(
            (m.outcome, m.plies_to_end),
            (Some(Outcome::Loss), Some(4)),
            "move {far_end}"
        );
    }
}

#[test]
fn self_play_on_medium_boards_finishes_with_legal_moves_and_honest_claims() {
    // Square and rectangular, packed and wide memo keys, crossing from
    // near-stone candidates (over 25 empty cells) to full width.
    let solver = TicTacToeSolver::new(1 << 20);
    let mut claims_checked = 0;
    for (rows, cols, k) in [(7, 7, 4), (6, 8, 5), (10, 10, 5)] {
        let mut position = Position::new_game(rows, cols, Some(k)).unwrap();
        let mut claimed: Option<(Player, Outcome)> = None;
        loop {
            let analysis = solver.analyze(&position, &SearchLimits::within(Duration::from_millis(10)));
            assert!(position.is_legal(analysis.best_move));
            assert_eq!(analysis.principal_variation.first(), Some(&analysis.best_move));
            if let Some(outcome) = analysis.outcome {
                claimed.get_or_insert((analysis.player, outcome));
            }
            match position.play(analysis.best_move).unwrap() {
                AfterMove::Continues(next) => position = next,
                AfterMove::Over(end) => {
                    // A proved result, once claimed, is what happened.
                    if let Some((player, outcome)) = claimed {
                        let expected = match outcome {
                            Outcome::Win => kibitz::games::tictactoe::GameResult::Won(player),
                            Outcome::Loss => kibitz::games::tictactoe::GameResult::Won(player.opponent()),
                            Outcome::Draw => kibitz::games::tictactoe::GameResult::Draw,
                        };
                        assert_eq!(end.result(), expected, "{rows}x{cols} k={k}");
                        // Lengths are not checked: a side short of time may
                        // take a longer win or a shorter loss than proved.
                        claims_checked += 1;
                    }
                    break;
                }
            }
        }
    }
    // Every game ends with its last moves proved: each board's claim was
    // held to what happened.
    assert_eq!(claims_checked, 3, "a game ended without a proved result to check");
}
