//! Connect Four's opening book: built by kibitz's own builder on a small
//! grid and held to the brute force (`support/connect_four_brute.rs`), and
//! the book compiled in for 7x6 checked against the enumeration of its
//! positions and against the solver without it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::time::Duration;

use kibitz::games::connect_four::board::{Board, Geometry, Standard};
use kibitz::games::connect_four::book::build::{build_in_memory, positions, Position};
use kibitz::games::connect_four::book::{Book, CHUNK_POSITIONS};
use kibitz::games::connect_four::search::canonical_key;
use kibitz::games::connect_four::solve::ConnectFourSolver;
use kibitz::games::connect_four::{ConnectFourState, Shape};
use kibitz::solve::limits::SearchLimits;

use super::brute as connect_four_brute;

use connect_four_brute::{brute_score, Grid};

fn unlimited() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(3600))
}

/// The position as the brute force's grid.
fn grid_of(p: &Position, cols: usize, rows: usize, ply: usize) -> Grid {
    let mut grid = Grid::new(cols, rows, 4);
    let (mover, other) = if ply.is_multiple_of(2) { (1, 2) } else { (2, 1) };
    for col in 0..cols {
        for row in 0..rows {
            let bit = 1u64 << (col * (rows + 1) + row);
            if p.mask & bit != 0 {
                grid.cells[row * cols + col] = if p.current & bit != 0 { mover } else { other };
            }
        }
    }
    grid.stones = ply;
    grid
}

/// Every position reachable in `stones` moves and not over, as move
/// strings, one per position.
fn games_of(cols: usize, rows: usize, stones: usize) -> Vec<String> {
    let mut level = vec![(String::new(), Grid::new(cols, rows, 4))];
    for _ in 0..stones {
        let mut next = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (moves, grid) in &level {
            for col in 0..cols {
                let mut child = grid.clone();
                if grid.height(col) < rows && !child.drop(col) && !child.full() && seen.insert(child.clone()) {
                    next.push((format!("{moves}{}", col + 1), child));
                }
            }
        }
        level = next;
    }
    level.into_iter().map(|(moves, _)| moves).collect()
}

#[test]
fn a_book_built_by_kibitz_on_5x4_holds_the_brute_force_values_and_answers_from_them() {
    let shape = Shape::new(Some(5), Some(4), None).unwrap();
    let geo = Geometry::<u64, _>::new(shape.dims());
    let ply: u32 = 6;
    // The book of the ply before first: the builder bounds each position
    // of the next from below by the values of the positions it is reached
    // from.
    let parents = build_in_memory(&geo, ply - 1, 1 << 16, &[]).unwrap();
    let book = build_in_memory(&geo, ply, 1 << 16, std::slice::from_ref(&parents)).unwrap();
    assert!(book.len() > 300, "only {} positions", book.len());
    let mut memo = HashMap::new();
    for (book, ply) in [(&parents, ply - 1), (&book, ply)] {
        for p in positions(&geo, ply) {
            let board = Board {
                geo: &geo,
                current: p.current,
                mask: p.mask,
                moves: ply,
            };
            assert_eq!(
                book.value(&board),
                Some(brute_score(&grid_of(&p, 5, 4, ply as usize), &mut memo)),
                "{p:?}"
            );
        }
    }

    // Every position with as many stones or fewer, analysed with the book,
    // scores every column as without it (at the book's ply, the values of
    // the positions each column's position is reached from bound it from
    // above).
    let with = ConnectFourSolver::with_books(1 << 16, Cow::Owned(vec![book]));
    let without = ConnectFourSolver::with_books(1 << 16, Cow::Owned(Vec::new()));
    let (mut nodes_with, mut nodes_without) = (0, 0);
    for stones in 0..=ply {
        for moves in games_of(5, 4, stones as usize) {
            let game = ConnectFourState::from_moves(shape, &moves).unwrap();
            let (a, b) = (with.analyze(&game, &unlimited()), without.analyze(&game, &unlimited()));
            assert!(a.solved && b.solved, "{moves}");
            assert_eq!(a.columns, b.columns, "{moves}");
            nodes_with += a.nodes;
            nodes_without += b.nodes;
        }
    }
    assert!(
        nodes_with < nodes_without,
        "the book saved no search: {nodes_with} nodes with it, {nodes_without} without"
    );
}

/// The deepest 7x6 book compiled in.
fn book_7x6() -> &'static Book {
    Book::for_grid(Book::compiled(), 7, 6, 4)
        .last()
        .expect("no chunk of a 7x6 book is compiled in")
}

#[test]
fn every_compiled_book_holds_the_enumerated_positions_of_its_grid_in_their_chunks() {
    assert!(
        Book::compiled().iter().any(|b| b.grid() == (7, 6)),
        "no 7x6 book is compiled in"
    );
    for book in Book::compiled() {
        let (cols, rows) = book.grid();
        let shape = Shape::new(Some(i64::from(cols)), Some(i64::from(rows)), None).unwrap();
        let geo = Geometry::<u64, _>::new(shape.dims());
        let expected = positions(&geo, book.ply());
        let chunk_starts: HashMap<u64, usize> = expected
            .chunks(CHUNK_POSITIONS)
            .enumerate()
            .map(|(i, chunk)| (chunk[0].key, i))
            .collect();
        let keys: Vec<u64> = book.entries().map(|(key, _)| key).collect();
        let mut at = 0;
        while at < keys.len() {
            let index = chunk_starts
                .get(&keys[at])
                .unwrap_or_else(|| panic!("{cols}x{rows}: entry {at} does not begin a chunk of the enumeration"));
            let chunk = expected.chunks(CHUNK_POSITIONS).nth(*index).unwrap();
            let held: Vec<u64> = keys[at..(at + chunk.len()).min(keys.len())].to_vec();
            assert!(
                held.iter().copied().eq(chunk.iter().map(|p| p.key)),
                "{cols}x{rows}: chunk {index} holds other positions"
            );
            at += chunk.len();
        }
    }
}

#[test]
fn sampled_entries_of_the_compiled_book_equal_the_solver_without_it() {
    let book = book_7x6();
    let geo = Geometry::<u64, _>::new(Standard);
    let by_key: HashMap<u64, Position> = positions(&geo, book.ply()).into_iter().map(|p| (p.key, p)).collect();
    let entries: Vec<(u64, i8)> = book.entries().collect();
    let samples = 6;
    let without = ConnectFourSolver::with_books(1 << 20, Cow::Owned(Vec::new()));
    for i in 0..samples {
        let (key, value) = entries[i * entries.len() / samples];
        let p = by_key[&key];
        let board = Board {
            geo: &geo,
            current: p.current,
            mask: p.mask,
            moves: book.ply(),
        };
        assert_eq!(canonical_key(&board), key);
        let moves = moves_of(&board);
        let game = ConnectFourState::from_moves(Shape::default(), &moves).unwrap();
        let analysis = without.analyze(&game, &unlimited());
        assert!(analysis.solved, "{moves}");
        assert_eq!(i32::from(value), analysis.score, "book entry {key:#x}, {moves}");
    }
}

#[test]
fn a_position_above_the_book_is_solved_from_it_with_a_tenth_of_the_search() {
    let book = book_7x6();
    let geo = Geometry::<u64, _>::new(Standard);
    // The first position from the middle of the key order whose children
    // the book all holds (the first positions in key order stack the
    // first columns: a few hundred thousand nodes solve them, book or
    // not).
    let candidates = positions(&geo, book.ply() - 1);
    let parent = candidates[candidates.len() / 2..]
        .iter()
        .map(|p| Board {
            geo: &geo,
            current: p.current,
            mask: p.mask,
            moves: book.ply() - 1,
        })
        .find(|board| {
            (0..7).filter(|&c| board.can_play(c) && !board.wins_with(c)).all(|c| {
                let mut child = *board;
                child.play_column(c);
                child.can_win_next() || book.value(&child).is_some()
            })
        })
        .expect("a position whose children are all in the book");
    let moves = moves_of(&parent);
    let game = ConnectFourState::from_moves(Shape::default(), &moves).unwrap();
    let limits = unlimited().with_max_nodes(100_000);
    let with = ConnectFourSolver::new(1 << 16).analyze(&game, &limits);
    let without = ConnectFourSolver::with_books(1 << 20, Cow::Owned(Vec::new())).analyze(&game, &unlimited());
    assert!(with.solved, "{moves}: not solved within 100,000 nodes with the book");
    assert_eq!(with.columns, without.columns, "{moves}");
    assert!(
        with.nodes * 10 < without.nodes,
        "{moves}: {} nodes with the book, {} without",
        with.nodes,
        without.nodes
    );
}

/// A move string that reaches `board` (columns 1-based).
fn moves_of(board: &Board<'_, u64, Standard>) -> String {
    // Replays column heights: any order that alternates the players right
    // reaches the position; search one by backtracking from the top.
    fn undo(board: &Board<'_, u64, Standard>, line: &mut Vec<u32>) -> bool {
        if board.moves == 0 {
            return true;
        }
        let rows = board.geo.rows;
        // The player who made the last move owns the opponent bits.
        let last_mover = board.current ^ board.mask;
        for col in 0..board.geo.cols {
            let column = ((1u64 << rows) - 1) << (col * (rows + 1));
            let stones = board.mask & column;
            if stones == 0 {
                continue;
            }
            let top = 1u64 << (63 - stones.leading_zeros());
            if last_mover & top == 0 {
                continue;
            }
            let before = Board {
                geo: board.geo,
                current: last_mover ^ top,
                mask: board.mask ^ top,
                moves: board.moves - 1,
            };
            // The earlier position must not be won already.
            if before.geo.has_line(before.current ^ before.mask) {
                continue;
            }
            line.push(col);
            if undo(&before, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut line = Vec::new();
    assert!(undo(board, &mut line), "no game reaches the position");
    line.iter().rev().map(|c| char::from(b'1' + *c as u8)).collect()
}
