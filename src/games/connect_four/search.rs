//! The exact search of Connect Four: negamax with alpha-beta over the
//! bitboards, driven by null-window probes, with the ideas of the
//! strongest public solver (ChristopheSteininger/c4, read, not copied):
//!
//! - every child is judged statically before any is searched: a move after
//!   which the opponent has no move that does not lose at once wins as soon
//!   as a win can come, so the position needs no more search;
//! - moves are ordered by the threats they make: a winning cell right
//!   above a playable one (the opponent must not play under it) weighs
//!   most, then one two cells up, then any threat; threats directly above
//!   an opponent's threat are worth nothing (the opponent wins first). The
//!   move the table remembers goes first;
//! - near the root, every child's table entry is looked at before any
//!   child is searched (enhanced transposition cutoffs): one that already
//!   refutes the window saves the whole search, and one already known to
//!   fail low needs none;
//! - the table ([`super::table`]) keeps the best column and the work done;
//! - where the second player's follow-up ("claimeven") leaves the first no
//!   line, the first can do no better than a draw, and no better than the
//!   loss it forces where it completes a line of the second's: a bound at
//!   every node and, before any child is searched, on every child.
//!
//! Scores are the standard solvers' (see `solve`): higher is better for
//! the player to move.

use std::sync::atomic::{AtomicBool, Ordering};

use super::bits::Bits;
use super::board::{Board, Dims};
use super::book::Book;
use super::table::{Bound, Entry, Table, NO_COLUMN};
use crate::solve::limits::SearchLimits;

/// Plies below the root whose best-looking child a helper thread searches
/// last (see `Search::desync_below`).
const DESYNC_PLIES: u32 = 2;

/// Check the clock and the node budget this often.
const CHECK_EVERY: u64 = 1024;

/// Enhanced transposition cutoffs pay only where a subtree is big enough
/// to repay a table probe per child: positions with at least this many
/// empty cells. c4 uses 15 on 7x6; on the benchmark (40 positions of 8-14
/// stones) 10 searched 25% fewer nodes than 15 in about the same time
/// (with the small table's limit at 16), and none at all 25% more.
const ETC_MIN_PLIES: u32 = 10;

/// Score of a win with the stone played when `stones` are on the board.
#[inline(always)]
pub fn win_score(cells: u32, stones: u32) -> i32 {
    (cells as i32 + 1 - stones as i32) / 2
}

/// The key the table stores a position under: the position itself, with
/// the shape in the spare high bits so that grids of different sizes never
/// share an entry; grids that use every bit get a digest salted by the
/// shape.
#[inline(always)]
pub fn key<B: Bits, D: Dims>(board: &Board<'_, B, D>) -> u64 {
    salted(board, board.position_key())
}

/// The key of `board` or of its mirror image, whichever is smaller: the
/// same for both.
#[inline]
pub fn canonical_key<B: Bits, D: Dims>(board: &Board<'_, B, D>) -> u64 {
    canonical(board).0
}

/// [`canonical_key`], and true if it is the mirror image's (its columns
/// then count from the right).
#[inline(always)]
fn canonical<B: Bits, D: Dims>(board: &Board<'_, B, D>) -> (u64, bool) {
    let own = board.position_key();
    let mirrored = board.mirrored_key();
    if mirrored < own {
        (salted(board, mirrored), true)
    } else {
        (salted(board, own), false)
    }
}

/// Positions with at least this many empty cells share one entry with
/// their mirror image (the one of the two with the smaller key stores
/// it): near the root, where the mirror costs little beside the search
/// below, and where a transposed mirror image is most often met.
const MIRROR_MIN_PLIES: u32 = 26;

/// The key the table stores `board` under, with `plies` empty cells; and
/// true if that is its mirror image's key (its columns then count from the
/// right).
#[inline(always)]
fn table_key<B: Bits, D: Dims>(board: &Board<'_, B, D>, plies: u32) -> (u64, bool) {
    if plies < MIRROR_MIN_PLIES {
        return (key(board), false);
    }
    canonical(board)
}

/// A position key (`board`'s own or its mirror image's) as a table key.
#[inline(always)]
fn salted<B: Bits, D: Dims>(board: &Board<'_, B, D>, key: B) -> u64 {
    let grid_bits = board.geo.cols * (board.geo.rows + 1);
    let shape = board.geo.shape_code();
    if grid_bits <= 56 {
        key.fold() | shape << 56
    } else {
        key.fold() ^ shape.wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }
}

/// The next probe of a value known to lie in `min..=max`: the middle, or
/// nearer zero (most positions are close games, and the table carries
/// what each probe learned into the next).
#[inline]
fn halving_probe(min: i32, max: i32) -> i32 {
    let probe = min + (max - min) / 2;
    if probe <= 0 && min / 2 < probe {
        min / 2
    } else if probe >= 0 && max / 2 > probe {
        max / 2
    } else {
        probe
    }
}

/// What can be said of a position whose mover cannot win at once without
/// searching it: its value, or bounds on it.
pub enum Quick {
    Value(i32),
    Open { lower: i32, upper: i32 },
}

/// The mover cannot win at once.
#[inline(always)]
pub fn quick<B: Bits, D: Dims>(board: &Board<'_, B, D>) -> Quick {
    let cells = board.geo.area();
    if board.non_losing_moves() == B::ZERO {
        return Quick::Value(-win_score(cells, board.moves + 1));
    }
    if board.moves + 2 >= cells {
        return Quick::Value(0);
    }
    // The opponent cannot win with its next stone, nor the mover with this
    // one.
    Quick::Open {
        lower: -win_score(cells, board.moves + 3),
        upper: win_score(cells, board.moves + 2),
    }
}

/// A move of the position being searched.
#[derive(Clone, Copy)]
struct Child<B> {
    cell: B,
    col: u32,
    /// Move-ordering weight, higher first.
    weight: i32,
}

pub struct Search<'a> {
    table: &'a Table,
    limits: &'a SearchLimits,
    /// Looked up at their plies instead of searching below them.
    books: &'a [Book],
    /// Bit n set where a book holds positions of n stones: most nodes
    /// then skip the lookup at the cost of one test.
    book_plies: u64,
    /// Set when another thread has found what this search looks for.
    abandon: Option<&'a AtomicBool>,
    /// Near the root (fewer stones than this), the most promising child is
    /// searched last, not first: a second thread searching the same
    /// position so takes other subtrees first and fills the shared table
    /// with results the first can use (reversing the whole order instead,
    /// or sharing the small table, made two threads slower than one).
    desync_below: u32,
    /// Plies below the root that are so reordered (0 for the first thread).
    desync_plies: u32,
    /// The thread's own small table (see [`Table`]).
    lane: usize,
    pub nodes: u64,
    pub stopped: bool,
}

impl<'a> Search<'a> {
    pub fn new(table: &'a Table, limits: &'a SearchLimits) -> Search<'a> {
        Search {
            table,
            limits,
            books: &[],
            book_plies: 0,
            abandon: None,
            desync_below: 0,
            desync_plies: 0,
            lane: 0,
            nodes: 0,
            stopped: false,
        }
    }

    /// Positions of a book's ply are looked up in it (the books must be
    /// for the grid searched).
    pub fn with_books(mut self, books: &'a [Book]) -> Search<'a> {
        self.books = books;
        self.book_plies = books
            .iter()
            .fold(0, |plies, book| plies | 1u64.checked_shl(book.ply()).unwrap_or(0));
        self
    }

    /// Thread `lane` of several sharing the table: in an odd lane the first
    /// plies search their most promising child last.
    pub fn helping(mut self, lane: usize) -> Search<'a> {
        self.desync_plies = if lane % 2 == 1 { DESYNC_PLIES } else { 0 };
        self.lane = lane;
        self
    }

    /// Searches on (after a search that another thread finished first),
    /// until `abandon` is set or the limits run out.
    pub fn resume(&mut self, abandon: &'a AtomicBool) {
        self.abandon = Some(abandon);
        self.stopped = false;
    }

    /// The exact value of `position` (whose mover cannot win at once), or
    /// None if the limits ran out: null-window probes that halve the
    /// interval of possible values each time (see [`halving_probe`]).
    pub fn solve<B: Bits, D: Dims>(&mut self, position: Board<'_, B, D>) -> Option<i32> {
        self.solve_near(position, None)
    }

    /// [`Search::solve`], given a `guess` of the value: the first probes
    /// ask whether the value is at most the guess, then one step beside it,
    /// so that a right guess takes the two probes any proof needs (the
    /// probes near the value cost the most; the halving would make several
    /// of them).
    pub fn solve_near<B: Bits, D: Dims>(&mut self, position: Board<'_, B, D>, guess: Option<i32>) -> Option<i32> {
        self.solve_above(position, guess, None)
    }

    /// [`Search::solve_near`], given that the value is at least `floor`
    /// where that is known (a book holds the position before it): a
    /// right guess at the floor then takes one probe, not two.
    pub fn solve_above<B: Bits, D: Dims>(
        &mut self,
        position: Board<'_, B, D>,
        guess: Option<i32>,
        floor: Option<i32>,
    ) -> Option<i32> {
        self.desync_below = position.moves + self.desync_plies;
        let (mut min, mut max) = match quick(&position) {
            Quick::Value(v) => return Some(v),
            Quick::Open { lower, upper } => (lower, upper),
        };
        if let Some(floor) = floor {
            min = min.max(floor.min(max));
        }
        let mut aim = guess;
        while min < max {
            let probe = match aim.take() {
                Some(g) if (min..max).contains(&g) => g,
                _ => halving_probe(min, max),
            };
            let found = self.negamax(position, probe, probe + 1);
            if self.stopped {
                return None;
            }
            let guessed = guess == Some(probe);
            if found <= probe {
                max = found;
                if guessed {
                    aim = Some(probe - 1);
                }
            } else {
                min = found;
                if guessed {
                    aim = Some(probe + 1);
                }
            }
        }
        Some(min)
    }

    /// True if the value of `position` (whose mover cannot win at once) is
    /// at most `bound`, or None if the limits ran out: one null-window
    /// search.
    pub fn at_most<B: Bits, D: Dims>(&mut self, position: Board<'_, B, D>, bound: i32) -> Option<bool> {
        self.desync_below = position.moves + self.desync_plies;
        let found = match quick(&position) {
            Quick::Value(v) => v,
            Quick::Open { .. } => self.negamax(position, bound, bound + 1),
        };
        (!self.stopped).then_some(found <= bound)
    }

    /// The value of `position` where one of the search's books holds it.
    #[inline(always)]
    pub fn book_value<B: Bits, D: Dims>(&self, position: &Board<'_, B, D>) -> Option<i32> {
        if self.book_plies.checked_shr(position.moves).unwrap_or(0) & 1 == 0 {
            return None;
        }
        self.look_up(position)
    }

    /// The most the move that led to `position` can score for the player
    /// who made it, where the books say: no move scores more than the
    /// value of the position it is played from, and `position` may have
    /// been reached from each of [`Board::parents`], so the least of their
    /// values the books hold caps it.
    pub fn cap_from_parents<B: Bits, D: Dims>(&self, position: &Board<'_, B, D>) -> Option<i32> {
        position.parents().filter_map(|parent| self.book_value(&parent)).min()
    }

    fn look_up<B: Bits, D: Dims>(&self, position: &Board<'_, B, D>) -> Option<i32> {
        self.books.iter().find_map(|book| book.value(position))
    }

    /// Counts a node; true once the limits or the other thread have
    /// stopped the search (checked every [`CHECK_EVERY`] nodes).
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (self.limits.exhausted(self.nodes) || self.abandon.is_some_and(|a| a.load(Ordering::Relaxed)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The table's entry for `key` narrowing `lower` and `upper`: `Err`
    /// with the value when that settles the position within (`alpha`,
    /// `beta`), else the column it remembers (as stored: unflipped), or
    /// `NO_COLUMN`.
    #[inline(always)]
    fn table_window(
        &self,
        key: u64,
        plies: u32,
        (lower, upper): (&mut i32, &mut i32),
        (alpha, beta): (i32, i32),
    ) -> Result<u32, i32> {
        let mut remembered = u32::from(NO_COLUMN);
        if let Some(entry) = self.table.get(self.lane, key, plies) {
            let value = i32::from(entry.value);
            match entry.bound {
                Bound::Exact => return Err(value),
                Bound::Lower => {
                    *lower = (*lower).max(value);
                    remembered = u32::from(entry.best);
                }
                Bound::Upper => *upper = (*upper).min(value),
            }
            if *lower >= beta {
                return Err(*lower);
            }
            if *upper <= alpha {
                return Err(*upper);
            }
        }
        Ok(remembered)
    }

    /// Fail-soft alpha-beta on a position whose mover cannot win at once:
    /// a result at most `alpha` bounds the value from above, one at least
    /// `beta` from below, and one in between is the value.
    fn negamax<B: Bits, D: Dims>(&mut self, position: Board<'_, B, D>, mut alpha: i32, mut beta: i32) -> i32 {
        if self.tick() {
            return alpha;
        }
        if let Some(value) = self.book_value(&position) {
            return value;
        }
        let geo = position.geo;
        let cells = geo.area();
        let plies = cells - position.moves;
        let threats = geo.winning_cells(position.opponent(), position.mask);
        let moves = position.non_losing_given(threats);
        if moves == B::ZERO {
            return -win_score(cells, position.moves + 1);
        }
        if plies <= 2 {
            return 0;
        }
        let mut lower = -win_score(cells, position.moves + 3);
        let mut upper = win_score(cells, position.moves + 2);
        // Bounds from what each side can still make.
        if upper > alpha {
            if let Some(bound) = mover_upper_bound(&position) {
                upper = upper.min(bound);
            }
        }
        if upper <= alpha {
            return upper;
        }
        if beta <= 0 && lower < 0 && !geo.has_line(position.opponent() | (geo.cells() & !position.mask)) {
            lower = 0;
        }
        if lower >= beta {
            return lower;
        }
        let (key, mirrored) = table_key(&position, plies);
        // A column as the entry names it, and back.
        let flip = |col: u32| {
            if mirrored && col < geo.cols {
                geo.cols - 1 - col
            } else {
                col
            }
        };
        self.table.prefetch(key, plies);

        let (mut children, n) = match judge_children(&position, moves, threats, beta, upper, &mut lower) {
            Ok(judged) => judged,
            Err(cutoff) => return cutoff,
        };

        // No move leaves the opponent without a reply that holds: the
        // mover's next stone cannot win either.
        upper = upper.min(win_score(cells, position.moves + 4));
        if upper <= alpha {
            return upper;
        }
        let remembered = match self.table_window(key, plies, (&mut lower, &mut upper), (alpha, beta)) {
            Ok(best) => flip(best),
            Err(settled) => return settled,
        };
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let floor = alpha;

        // The best value found so far (a bound where a child failed low),
        // and the column that gave it.
        let mut best = BestSoFar::default();
        let mut searched = [true; 9];
        if plies >= ETC_MIN_PLIES {
            let children = &children[..n];
            let probe =
                self.transposition_cutoff(&position, children, plies, &mut alpha, beta, &mut best, &mut searched);
            if let Some((value, col)) = probe {
                self.store(key, plies, value, Bound::Lower, flip(col), 0);
                return value;
            }
        }
        let desync = position.moves < self.desync_below;
        let (order, m) = search_order(&mut children[..n], &searched, remembered, desync);

        let before = self.nodes;
        for &i in &order[..m] {
            if best.value >= beta {
                break;
            }
            let child = children[i];
            let mut board = position;
            board.play_cell(child.cell);
            let value = -self.negamax(board, -beta, -alpha);
            if self.stopped {
                return alpha;
            }
            best.offer(value, child.col);
            if value > alpha {
                alpha = value;
            }
        }
        let (value, bound) = proved(best.value, lower, upper, floor, beta);
        let work = 64 - (self.nodes - before).leading_zeros();
        self.store(key, plies, value, bound, flip(best.col), work);
        value
    }

    /// Enhanced transposition cutoff: each child's table entry, before any
    /// child is searched. A child proved to refute the window is the
    /// answer, `Some((value, column))`; one proved to fail low, or proved
    /// exact, needs no search (`searched` says so) and offers its value to
    /// `best` (an exact one raises `alpha`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn transposition_cutoff<B: Bits, D: Dims>(
        &self,
        position: &Board<'_, B, D>,
        children: &[Child<B>],
        plies: u32,
        alpha: &mut i32,
        beta: i32,
        best: &mut BestSoFar,
        searched: &mut [bool; 9],
    ) -> Option<(i32, u32)> {
        for (i, child) in children.iter().enumerate() {
            let mut board = *position;
            board.play_cell(child.cell);
            let Some(entry) = self.table.get(self.lane, table_key(&board, plies - 1).0, plies - 1) else {
                continue;
            };
            // The move is worth minus the child's value.
            let value = -i32::from(entry.value);
            let (at_least, at_most) = match entry.bound {
                Bound::Exact => (true, true),
                Bound::Upper => (true, false),
                Bound::Lower => (false, true),
            };
            if at_least && value >= beta {
                return Some((value, child.col));
            }
            if at_most && value <= *alpha {
                // Fails low whatever a search would find.
                searched[i] = false;
                best.offer(value, child.col);
            } else if at_least && at_most {
                searched[i] = false;
                best.offer(value, child.col);
                *alpha = value;
            }
        }
        None
    }

    #[inline(always)]
    fn store(&self, key: u64, plies: u32, value: i32, bound: Bound, col: u32, work: u32) {
        if let Ok(value) = i8::try_from(value) {
            self.table.put(
                self.lane,
                key,
                plies,
                Entry {
                    value,
                    bound,
                    best: col.min(u32::from(NO_COLUMN)) as u8,
                    work: work.min(63) as u8,
                },
            );
        }
    }
}

/// The best value a node has found so far and the column that gave it.
struct BestSoFar {
    value: i32,
    col: u32,
}

impl Default for BestSoFar {
    fn default() -> Self {
        BestSoFar {
            value: i32::MIN,
            col: u32::from(NO_COLUMN),
        }
    }
}

impl BestSoFar {
    #[inline(always)]
    fn offer(&mut self, value: i32, col: u32) {
        if value > self.value {
            self.value = value;
            self.col = col;
        }
    }
}

/// Every child of `position` (its `moves`, the opponent's `threats`)
/// judged before any is searched: in the centre-first order, with its
/// move-ordering weight. A child whose opponent loses at once is the
/// earliest win there can be (`Err(upper)`); what the opponent can make
/// of a child bounds the move from below, raising `lower`, and is the
/// answer when it reaches `beta` (`Err`).
#[inline(always)]
fn judge_children<B: Bits, D: Dims>(
    position: &Board<'_, B, D>,
    moves: B,
    threats: B,
    beta: i32,
    upper: i32,
    lower: &mut i32,
) -> Result<([Child<B>; 9], usize), i32> {
    let geo = position.geo;
    let mut children = [Child {
        cell: B::ZERO,
        col: 0,
        weight: 0,
    }; 9];
    let mut n = 0;
    for i in 0..geo.order.len() {
        let col = geo.order[i];
        let cell = moves & geo.column(col);
        if cell == B::ZERO {
            continue;
        }
        let mut child = *position;
        child.play_cell(cell);
        // The mover's winning cells after the move: the child's
        // opponent's.
        let ours = geo.winning_cells(position.current | cell, child.mask);
        if child.non_losing_given(ours) == B::ZERO {
            return Err(upper);
        }
        // A draw at least if the opponent cannot win, more if our
        // follow-up wins (worth looking for where the window asks more
        // than a draw only when we are the second player, whose follow-up
        // that is).
        if beta <= 0 || child.moves.is_multiple_of(2) {
            if let Some(bound) = mover_upper_bound(&child) {
                let floor = -bound;
                if floor >= beta {
                    return Err(floor);
                }
                *lower = (*lower).max(floor);
            }
        }
        children[n] = Child {
            cell,
            col,
            weight: weigh(&child, ours, threats),
        };
        n += 1;
    }
    Ok((children, n))
}

/// The order in which the children still to search are searched: highest
/// weight first, the `remembered` column (the table's best move) before
/// all; a stable insertion sort keeps centre order among equals. With
/// `desync`, the first is searched last (helper threads spread out).
#[inline(always)]
fn search_order<B: Copy>(
    children: &mut [Child<B>],
    searched: &[bool; 9],
    remembered: u32,
    desync: bool,
) -> ([usize; 9], usize) {
    for child in children.iter_mut() {
        if remembered == child.col {
            child.weight = i32::MAX;
        }
    }
    let mut order = [0usize; 9];
    let mut m = 0;
    for i in (0..children.len()).filter(|&i| searched[i]) {
        let weight = children[i].weight;
        let mut j = m;
        while j > 0 && children[order[j - 1]].weight < weight {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = i;
        m += 1;
    }
    if desync && m > 1 {
        order[..m].rotate_left(1);
    }
    (order, m)
}

/// What a node's search proved, to store: `lower` and `upper` are proved.
/// A cutoff proves a lower bound; a value above the window's `floor` that
/// did not cut off is exact (the first child to reach it was searched with
/// a lower alpha); else every move failed low and `best` bounds them all.
#[inline(always)]
fn proved(best: i32, lower: i32, upper: i32, floor: i32, beta: i32) -> (i32, Bound) {
    if best >= upper {
        (upper, Bound::Exact)
    } else if best >= beta {
        (best, Bound::Lower)
    } else if best <= lower {
        (lower, Bound::Exact)
    } else if best > floor {
        (best, Bound::Exact)
    } else {
        (best, Bound::Upper)
    }
}

/// The most the mover can score, where that is less than the board's own
/// limit: a draw if it cannot make a line whatever happens, nor, on a grid
/// of even height with an even number of stones, against the opponent's
/// follow-up ("claimeven"); less where that follow-up wins (see
/// [`follow_up_upper_bound`]). The follow-up: the opponent answers a stone
/// on an odd row (counting from 1) with the cell above it, and a stone on
/// an even row (possible only in a column of odd height, of which there is
/// an even number) with the lowest cell of another such column. The
/// opponent so takes every empty even cell not playable now, and the
/// mover's stones stay within the rest.
#[inline(always)]
fn mover_upper_bound<B: Bits, D: Dims>(board: &Board<'_, B, D>) -> Option<i32> {
    let geo = board.geo;
    let empty = geo.cells() & !board.mask;
    if geo.dims.rows() % 2 == 1 || board.moves % 2 == 1 {
        return (!geo.has_line(board.current | empty)).then_some(0);
    }
    let open_evens = geo.evens() & empty & !board.playable();
    if geo.has_line(geo.cells() & !(board.opponent() | open_evens)) {
        return None;
    }
    Some(follow_up_upper_bound(board, open_evens))
}

/// The mover's score when the opponent, answering every stone by the
/// follow-up, takes `open_evens` and the mover can make no line: a draw
/// unless those cells complete a line of the opponent's, a loss if they
/// do. That loss comes no later than the filling of the line's highest
/// empty cell, and the cells above that one stay empty until then; the
/// line whose highest empty cell is lowest gives the earliest loss.
#[inline(always)]
fn follow_up_upper_bound<B: Bits, D: Dims>(board: &Board<'_, B, D>, open_evens: B) -> i32 {
    let geo = board.geo;
    let theirs = board.opponent();
    if !geo.has_line(theirs | open_evens) {
        return 0;
    }
    let (cells, rows) = (geo.area(), geo.dims.rows());
    let mut reachable = B::ZERO;
    for row in 1..rows {
        reachable |= geo.row(row);
        if geo.has_line(theirs | (open_evens & reachable)) {
            // The opponent's winning stone is at most this one, of `cells`
            // minus the cells above `row` in its column.
            return -win_score(cells, cells - (rows - row));
        }
    }
    -win_score(cells, cells - 1)
}

/// How promising a move is, judged on the position after it (`child`):
/// `ours` are the mover's winning cells then, `theirs` the opponent's
/// before the move. A threat directly above one of the opponent's is
/// useless (the opponent's comes first); one right above a playable cell
/// forbids the opponent that column's next cell, one two cells up soon
/// will; every threat constrains the rest of the game a little.
#[inline(always)]
fn weigh<B: Bits, D: Dims>(child: &Board<'_, B, D>, ours: B, theirs: B) -> i32 {
    let useful = ours & !((theirs & !child.mask) << 1);
    let above = (child.playable() << 1) & child.geo.cells();
    let next = useful & above;
    let after = useful & ((above << 1) & child.geo.cells());
    (12 * next.ones() + 5 * after.ones() + 3 * useful.ones()) as i32
}
