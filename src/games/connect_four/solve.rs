//! Connect Four solved exactly, column by column, in the standard solvers'
//! scores: 0 for a draw; a win with the mover's n-th stone scores
//! `(cols * rows + 1) / 2 + 1 - n` for the first player and
//! `(cols * rows) / 2 + 1 - n` for the second (one formula:
//! `(cells + 1 - stones before the winning one) / 2`); a loss is the negative
//! of the opponent's win.
//!
//! The search is [`super::search`]'s; this file asks it for each column:
//! a column that wins or loses at once is never searched, and a symmetric
//! position has only half its columns searched (below the root, positions
//! near it share their table entry with their mirror image).
//!
//! [`ConnectFourSolver::analyze`] gives every column its exact score while
//! the limits last, centre columns first; a column the limits did not
//! reach keeps a shallow search's estimate and says `solved: false`.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::bits::Bits;
use super::board::{Board, Dims, Geometry, Standard};
use super::book::Book;
use super::search::{win_score, Search};
use super::table::Table;
use super::ConnectFourState;
use crate::core::evaluation::Evaluation;
use crate::core::game::Seat;
use crate::core::outcome::Outcome;
use crate::solve::cores;
use crate::solve::limits::SearchLimits;
use crate::solve::solvers::{GameSolver, MemoSizes};
use crate::solve::Progress;

/// Nodes the estimate of the columns may spend before the exact search:
/// a few milliseconds.
const ESTIMATE_NODES: u64 = 60_000;

/// A helper thread costs tens of microseconds to start: not worth it for a
/// search allowed fewer nodes than this (the cheap first attempt of a
/// request), nor for a position with fewer empty cells than this (solved
/// in a few milliseconds).
const HELPER_MIN_NODES: u64 = 1_000_000;
const HELPER_MIN_EMPTY: u32 = 20;

/// One column's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnValue {
    /// 0-based.
    pub column: u32,
    /// None for a full column.
    pub score: Option<i32>,
    pub solved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub player: Seat,
    /// 0-based column of the chosen move.
    pub best: u32,
    pub score: i32,
    /// Every playable column's score is exact, or the chosen move wins at
    /// once (nothing can beat that).
    pub solved: bool,
    /// Plies to the end of the game when solved, else the estimate's depth.
    pub depth: u32,
    pub nodes: u64,
    /// Every column, left to right.
    pub columns: Vec<ColumnValue>,
    /// 0-based columns from the chosen move on, as far as proved.
    pub principal_variation: Vec<u32>,
    /// Empty cells before the move: scores convert to outcomes with it.
    pub cells: u32,
    pub stones: u32,
}

impl Analysis {
    /// Win, draw or loss, and plies to the end counting the move, of a
    /// score for the player to move.
    pub fn verdict(&self, score: i32) -> (Outcome, u32) {
        verdict(self.cells, self.stones, score)
    }

    /// A score for the player to move on the one evaluation scale: its
    /// verdict when `proved`, else an estimate.
    pub fn evaluation(&self, score: i32, proved: bool) -> Evaluation {
        if proved {
            let (outcome, plies) = self.verdict(score);
            Evaluation::proved(outcome, Some(plies))
        } else {
            Evaluation::estimate(f64::from(score), SCORE_PER_UNIT)
        }
    }

    /// Every column exact and the principal variation played out to the
    /// end of the game: nothing a longer search would add.
    pub fn is_complete(&self) -> bool {
        self.solved && self.principal_variation.len() as u32 == self.verdict(self.score).1
    }
}

/// An unproved score this high (a win with two stones to spare, as the
/// search estimates it) is worth about three quarters of a game: the scale
/// on which an estimate becomes a win chance.
pub const SCORE_PER_UNIT: f64 = 2.0;

/// Outcome and plies to the end (counting the move) of a score seen by the
/// mover with `stones` on a grid of `cells`.
pub fn verdict(cells: u32, stones: u32, score: i32) -> (Outcome, u32) {
    let (cells, stones) = (cells as i32, stones as i32);
    match score {
        0 => (Outcome::Draw, (cells - stones) as u32),
        s if s > 0 => (Outcome::Win, (2 * ((cells + 1 - stones) / 2 - s) + 1) as u32),
        s => (Outcome::Loss, (2 * ((cells - stones) / 2 + s) + 2) as u32),
    }
}

pub struct ConnectFourSolver {
    table: Table,
    /// Ordered by grid (see [`Book::for_grid`]).
    books: Cow<'static, [Book]>,
    /// Threads one analysis may add while cores are idle.
    helpers: usize,
}

impl GameSolver for ConnectFourSolver {
    fn build(sizes: &MemoSizes) -> Self {
        ConnectFourSolver::new(sizes.table_entries).with_helpers(sizes.search_helpers)
    }
}

impl ConnectFourSolver {
    /// `table_entries`: positions the shared table holds (16 bytes each).
    /// Searches with the compiled opening books.
    pub fn new(table_entries: usize) -> ConnectFourSolver {
        ConnectFourSolver::with_books(table_entries, Cow::Borrowed(Book::compiled()))
    }

    /// A solver that looks positions up in `books` (each on its own grid;
    /// ordered by grid).
    pub fn with_books(table_entries: usize, books: Cow<'static, [Book]>) -> ConnectFourSolver {
        ConnectFourSolver {
            table: Table::new(table_entries),
            books,
            helpers: 0,
        }
    }

    /// Lets one analysis add up to `helpers` threads while cores are idle
    /// (none by default: a single thread's analysis is repeatable node for
    /// node).
    pub fn with_helpers(mut self, helpers: usize) -> ConnectFourSolver {
        self.helpers = helpers;
        self
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Every column's score within `limits`, and the best move. The game
    /// must not be over.
    pub fn analyze(&self, game: &ConnectFourState, limits: &SearchLimits) -> Analysis {
        self.analyze_reporting(game, limits, None)
    }

    /// [`ConnectFourSolver::analyze`], reporting the analysis once the
    /// estimates are in and again after each column proved, while the
    /// answer is not yet solved (the principal variation of a report is
    /// just its best move).
    pub fn analyze_reporting(
        &self,
        game: &ConnectFourState,
        limits: &SearchLimits,
        progress: Progress<'_, Analysis>,
    ) -> Analysis {
        let shape = game.shape();
        if shape.is_standard() {
            let geo = Geometry::<u64, _>::new(Standard);
            self.analyze_board(game.to_board(&geo), limits, progress)
        } else if shape.fits_u64() {
            let geo = Geometry::<u64, _>::new(shape.dims());
            self.analyze_board(game.to_board(&geo), limits, progress)
        } else {
            let geo = Geometry::<u128, _>::new(shape.dims());
            self.analyze_board(game.to_board(&geo), limits, progress)
        }
    }

    /// [`ConnectFourSolver::analyze`] on 128-bit boards whatever the size:
    /// lets the tests hold the wide boards to the narrow ones.
    #[doc(hidden)]
    pub fn analyze_wide(&self, game: &ConnectFourState, limits: &SearchLimits) -> Analysis {
        let geo = Geometry::<u128, _>::new(game.shape().dims());
        self.analyze_board(game.to_board(&geo), limits, None)
    }

    fn analyze_board<'g, B: Bits, D: Dims>(
        &self,
        board: Board<'g, B, D>,
        limits: &SearchLimits,
        mut progress: Progress<'_, Analysis>,
    ) -> Analysis {
        let (mut columns, mut depth, mut nodes) = first_columns(board, limits);
        // Reports: the columns so far, while the answer is not yet solved.
        let mut report = |columns: &[ColumnValue], nodes: u64| {
            if let Some(report) = progress.as_deref_mut() {
                let (best, score, solved) = choose(board, columns);
                if !solved {
                    report(&analysis_of(
                        board,
                        columns,
                        (best, score, solved),
                        depth,
                        nodes,
                        vec![best],
                    ));
                }
            }
        };
        report(&columns, nodes);
        // A symmetric position's mirror columns score alike: solve one of each.
        let symmetric = board.position_key() == board.mirrored_key();
        let todo = columns_to_solve(board, &columns, symmetric);
        let (found, spent) = self.solve_columns(board, &todo, limits, &mut |found: &[Option<i32>], spent: u64| {
            let mut so_far = columns.clone();
            merge_proved(&mut so_far, &todo, found);
            report(&so_far, nodes + spent);
        });
        merge_proved(&mut columns, &todo, &found);
        nodes += spent;
        if symmetric {
            copy_mirrors(board, &mut columns);
        }
        let mut search = self.search(board.geo, limits);
        let chosen @ (best, score, solved) = choose(board, &columns);
        let principal_variation = if solved {
            principal_variation(&mut search, board, best, score)
        } else {
            vec![best]
        };
        nodes += search.nodes;
        if solved {
            depth = board.geo.area() - board.moves;
        }
        analysis_of(board, &columns, chosen, depth, nodes, principal_variation)
    }
}

/// Every column's first value: the quick estimate, and the wins and losses
/// at once exact (they cost nothing, and a win at once is the best move
/// whatever the other columns hold). With the estimate's depth and nodes.
fn first_columns<B: Bits, D: Dims>(board: Board<'_, B, D>, limits: &SearchLimits) -> (Vec<ColumnValue>, u32, u64) {
    let geo = board.geo;
    let estimate_limits = limits.clone().with_max_nodes(limits.max_nodes().min(ESTIMATE_NODES));
    let (estimates, depth, nodes) = estimate(board, &estimate_limits);
    let columns = (0..geo.cols)
        .map(
            |column| match board.can_play(column).then(|| immediate(board, column)).flatten() {
                Some(exact) => ColumnValue {
                    column,
                    score: Some(exact),
                    solved: true,
                },
                None => ColumnValue {
                    column,
                    score: estimates[column as usize],
                    solved: false,
                },
            },
        )
        .collect();
    (columns, depth, nodes)
}

/// The playable columns still to prove, centre first; of a symmetric
/// position's mirror pair only the left one.
fn columns_to_solve<B: Bits, D: Dims>(board: Board<'_, B, D>, columns: &[ColumnValue], symmetric: bool) -> Vec<u32> {
    let geo = board.geo;
    geo.order
        .iter()
        .copied()
        .filter(|&col| board.can_play(col) && !columns[col as usize].solved && !(symmetric && geo.cols - 1 - col < col))
        .collect()
}

/// The scores `found` for `todo`'s columns, where proved, into `columns`.
fn merge_proved(columns: &mut [ColumnValue], todo: &[u32], found: &[Option<i32>]) {
    for (&col, score) in todo.iter().zip(found) {
        if let Some(exact) = *score {
            columns[col as usize] = ColumnValue {
                column: col,
                score: Some(exact),
                solved: true,
            };
        }
    }
}

/// A symmetric position's right-hand columns from their mirrors.
fn copy_mirrors<B: Bits, D: Dims>(board: Board<'_, B, D>, columns: &mut [ColumnValue]) {
    let cols = board.geo.cols;
    for col in 0..cols {
        let mirror = cols - 1 - col;
        if mirror < col && board.can_play(col) {
            columns[col as usize] = ColumnValue {
                column: col,
                ..columns[mirror as usize].clone()
            };
        }
    }
}

/// The analysis of `board` with these columns and the chosen move.
fn analysis_of<B: Bits, D: Dims>(
    board: Board<'_, B, D>,
    columns: &[ColumnValue],
    (best, score, solved): (u32, i32, bool),
    depth: u32,
    nodes: u64,
    principal_variation: Vec<u32>,
) -> Analysis {
    Analysis {
        player: (board.moves % 2) as Seat,
        best,
        score,
        solved,
        depth,
        nodes,
        columns: columns.to_vec(),
        principal_variation,
        cells: board.geo.area(),
        stones: board.moves,
    }
}

impl ConnectFourSolver {
    /// A search with this solver's table and its books of the grid.
    fn search<'s, B: Bits, D: Dims>(&'s self, geo: &Geometry<B, D>, limits: &'s SearchLimits) -> Search<'s> {
        Search::new(&self.table, limits).with_books(Book::for_grid(&self.books, geo.cols, geo.rows, geo.k))
    }

    /// The exact scores of `todo`'s columns (centre first), as far as the
    /// limits go, and the nodes spent. `proved` is called on this thread
    /// with the scores so far after each column this thread proves.
    ///
    /// While a core is idle (see [`cores`]), helper threads share the work
    /// and the table: each takes the next column no thread has taken yet,
    /// the helpers from the edges in; once every column is taken, a thread
    /// joins the search of one still open (a helper first searching other
    /// subtrees, see [`Search::helping`]), and whichever thread proves it
    /// first stops the other. On the 40 benchmark positions, two threads
    /// took 0.60 of one thread's time.
    fn solve_columns<B: Bits, D: Dims>(
        &self,
        board: Board<'_, B, D>,
        todo: &[u32],
        limits: &SearchLimits,
        proved: &mut dyn FnMut(&[Option<i32>], u64),
    ) -> (Vec<Option<i32>>, u64) {
        let worth_helping = !todo.is_empty() && board.geo.area() - board.moves >= HELPER_MIN_EMPTY;
        let helpers: Vec<cores::Busy> = if worth_helping && limits.max_nodes() >= HELPER_MIN_NODES {
            std::iter::from_fn(cores::spare).take(self.helpers).collect()
        } else {
            Vec::new()
        };
        let work = ColumnWork {
            claimed: todo.iter().map(|_| AtomicBool::new(false)).collect(),
            done: todo.iter().map(|_| AtomicBool::new(false)).collect(),
            found: Mutex::new(vec![None; todo.len()]),
        };
        let nodes = std::thread::scope(|scope| {
            let others: Vec<_> = (1..=helpers.len())
                .map(|thread| {
                    let work = &work;
                    scope.spawn(move || self.work_on_columns(board, todo, limits, work, thread, &mut |_, _| ()))
                })
                .collect();
            let own = self.work_on_columns(board, todo, limits, &work, 0, proved);
            // A helper that panicked proved nothing: its columns stay open.
            own + others.into_iter().map(|h| h.join().unwrap_or(0)).sum::<u64>()
        });
        let found = work.found.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
        (found, nodes)
    }

    /// One thread's share of [`ConnectFourSolver::solve_columns`]; thread 0
    /// is the caller's.
    fn work_on_columns<B: Bits, D: Dims>(
        &self,
        board: Board<'_, B, D>,
        todo: &[u32],
        limits: &SearchLimits,
        work: &ColumnWork,
        thread: usize,
        proved: &mut dyn FnMut(&[Option<i32>], u64),
    ) -> u64 {
        let edges_first = thread % 2 == 1;
        let preference: Vec<usize> = if edges_first {
            (0..todo.len()).rev().collect()
        } else {
            (0..todo.len()).collect()
        };
        // One search for all of this thread's columns: the limits' node
        // budget counts every column's nodes, as with one thread.
        let mut search = self.search(board.geo, limits).helping(thread);
        // Columns of one position often score alike: one without a ceiling
        // (see `column_ceiling`) is first probed at the score of the one
        // this thread proved last.
        let mut last_score = None;
        loop {
            let fresh = preference
                .iter()
                .copied()
                .find(|&i| !work.done[i].load(Ordering::Acquire) && !work.claimed[i].swap(true, Ordering::AcqRel));
            let Some(i) = fresh.or_else(|| {
                preference
                    .iter()
                    .copied()
                    .find(|&i| !work.done[i].load(Ordering::Acquire))
            }) else {
                return search.nodes;
            };
            search.resume(&work.done[i]);
            // A column often scores its ceiling: the best move of one of
            // the positions it is reached from.
            let ceiling = column_ceiling(&search, board, todo[i]);
            match exact_move(&mut search, board, todo[i], ceiling.or(last_score), ceiling) {
                Some(score) => {
                    last_score = Some(score);
                    let snapshot = {
                        let Ok(mut found) = work.found.lock() else {
                            return search.nodes;
                        };
                        found[i] = Some(score);
                        found.clone()
                    };
                    work.done[i].store(true, Ordering::Release);
                    proved(&snapshot, search.nodes);
                }
                // Another thread proved it first.
                None if work.done[i].load(Ordering::Acquire) => {}
                None => return search.nodes,
            }
        }
    }
}

/// The columns of one analysis, shared by the threads that solve them.
struct ColumnWork {
    /// A thread has begun the column.
    claimed: Vec<AtomicBool>,
    /// The column is proved: a thread still searching it stops.
    done: Vec<AtomicBool>,
    found: Mutex<Vec<Option<i32>>>,
}

/// The best column (highest score; among equals the column nearest the
/// centre), its score, and whether the analysis is solved: every playable
/// column exact. (A win at once proves the best move, not the other
/// columns: a frontend that shows every column's score must not show an
/// estimate as exact, so the search goes on to them.)
fn choose<B: Bits, D: Dims>(board: Board<'_, B, D>, columns: &[ColumnValue]) -> (u32, i32, bool) {
    let solved = columns.iter().filter(|c| c.score.is_some()).all(|c| c.solved);
    let best = board
        .geo
        .order
        .iter()
        .filter_map(|&col| columns[col as usize].score.map(|s| (s, col)))
        .fold(None, |best: Option<(i32, u32)>, (s, col)| match best {
            Some((top, _)) if top >= s => best,
            _ => Some((s, col)),
        })
        .map_or(0, |(_, col)| col);
    let score = columns[best as usize].score.unwrap_or(0);
    (best, score, solved)
}

/// The exact score of playing `col` (which has room), or None if the
/// limits ran out; `guess` is probed first (see [`Search::solve_near`]).
/// A move that scores its `ceiling` (see [`column_ceiling`]) needs one
/// probe, not two.
fn exact_move<'g, B: Bits, D: Dims>(
    search: &mut Search<'_>,
    board: Board<'g, B, D>,
    col: u32,
    guess: Option<i32>,
    ceiling: Option<i32>,
) -> Option<i32> {
    immediate(board, col).or_else(|| {
        let mut child = board;
        child.play_column(col);
        search
            .solve_above(child, guess.map(|g| -g), ceiling.map(|c| -c))
            .map(|v| -v)
    })
}

/// The most playing `col` (which has room) can score, where a book says
/// (see [`Search::cap_from_parents`]; the analysed position is one of
/// the parents).
fn column_ceiling<B: Bits, D: Dims>(search: &Search<'_>, board: Board<'_, B, D>, col: u32) -> Option<i32> {
    let mut child = board;
    child.play_column(col);
    search.cap_from_parents(&child)
}

/// The score of playing `col` when it wins at once or lets the opponent
/// win at once.
fn immediate<B: Bits, D: Dims>(board: Board<'_, B, D>, col: u32) -> Option<i32> {
    let cells = board.geo.area();
    if board.wins_with(col) {
        return Some(win_score(cells, board.moves));
    }
    let mut child = board;
    child.play_column(col);
    child.can_win_next().then(|| -win_score(cells, child.moves))
}

/// From the chosen move on, the move that keeps the value at each step
/// (centre first among equals), until the game ends or the limits run out.
fn principal_variation<'g, B: Bits, D: Dims>(
    search: &mut Search<'_>,
    board: Board<'g, B, D>,
    first: u32,
    value: i32,
) -> Vec<u32> {
    let mut line = vec![first];
    let mut position = board;
    let mut won = position.wins_with(first);
    position.play_column(first);
    let mut value = -value;
    while !won && !position.is_full() {
        let next = position
            .geo
            .order
            .iter()
            .copied()
            .find(|&col| position.can_play(col) && keeps_value(search, position, col, value).unwrap_or(false));
        let Some(col) = next else { break };
        won = position.wins_with(col);
        position.play_column(col);
        line.push(col);
        value = -value;
    }
    line
}

/// True if playing `col` is worth `value` (the position's exact value) to
/// the mover, or None if the limits ran out.
fn keeps_value<'g, B: Bits, D: Dims>(
    search: &mut Search<'_>,
    board: Board<'g, B, D>,
    col: u32,
    value: i32,
) -> Option<bool> {
    if let Some(score) = immediate(board, col) {
        return Some(score == value);
    }
    let mut child = board;
    child.play_column(col);
    // The move keeps the value when the child is worth at most -value.
    search.at_most(child, -value)
}

/// Each column's value by a shallow iterative-deepening search with no
/// table: exact where a result is forced within the horizon, else 0. With
/// the depth reached and the nodes spent.
fn estimate<B: Bits, D: Dims>(board: Board<'_, B, D>, limits: &SearchLimits) -> (Vec<Option<i32>>, u32, u64) {
    let geo = board.geo;
    let cells = geo.area();
    let mut values: Vec<Option<i32>> = (0..geo.cols)
        .map(|c| {
            board.can_play(c).then(|| {
                if board.wins_with(c) {
                    win_score(cells, board.moves)
                } else {
                    0
                }
            })
        })
        .collect();
    let mut nodes = 0u64;
    let mut depth_done = 1;
    for depth in 2..=(cells - board.moves) {
        let mut fresh = values.clone();
        for col in 0..geo.cols {
            if !board.can_play(col) || board.wins_with(col) {
                continue;
            }
            let mut child = board;
            child.play_column(col);
            let Some(v) = shallow(child, depth - 1, -i32::MAX, i32::MAX, &mut nodes, limits) else {
                return (values, depth_done, nodes);
            };
            fresh[col as usize] = Some(-v);
        }
        values = fresh;
        depth_done = depth;
    }
    (values, depth_done, nodes)
}

/// Plain alpha-beta to `depth` plies, 0 at the horizon. None once the
/// limits run out.
fn shallow<B: Bits, D: Dims>(
    board: Board<'_, B, D>,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
    limits: &SearchLimits,
) -> Option<i32> {
    *nodes += 1;
    if nodes.is_multiple_of(256) && limits.exhausted(*nodes) {
        return None;
    }
    let cells = board.geo.area();
    if board.can_win_next() {
        return Some(win_score(cells, board.moves));
    }
    if board.moves + 1 >= cells {
        return Some(0);
    }
    let moves = board.non_losing_moves();
    if moves == B::ZERO {
        return Some(-win_score(cells, board.moves + 1));
    }
    if depth <= 1 {
        return Some(0);
    }
    for &col in &board.geo.order {
        let cell = moves & board.geo.column(col);
        if cell == B::ZERO {
            continue;
        }
        let mut child = board;
        child.play_cell(cell);
        let v = -shallow(child, depth - 1, -beta, -alpha, nodes, limits)?;
        if v >= beta {
            return Some(v);
        }
        alpha = alpha.max(v);
    }
    Some(alpha)
}
