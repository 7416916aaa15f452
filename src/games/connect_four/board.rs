//! The position as two bitboards, after the layout of the standard solvers:
//! column by column from the left, each column `rows` cells from the bottom
//! plus one guard bit that is never set, so a line cannot run from one
//! column into the next. `current` holds the stones of the player to move,
//! `mask` every stone; a move is `mask`'s lowest free bit in its column.
//! Everything a search asks (can the mover win at once, which moves do not
//! hand the opponent a win, how many winning cells a move makes) is a few
//! shifts.

use super::bits::Bits;

/// The grid's size and line length. [`Standard`] makes them constants, so
/// that the usual 7x6 game's shifts compile to immediates.
pub trait Dims: Copy + Send + Sync + std::fmt::Debug + 'static {
    fn cols(self) -> u32;
    fn rows(self) -> u32;
    fn k(self) -> u32;
}

/// Any size, read at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnyDims {
    pub cols: u32,
    pub rows: u32,
    pub k: u32,
}

impl Dims for AnyDims {
    #[inline(always)]
    fn cols(self) -> u32 {
        self.cols
    }
    #[inline(always)]
    fn rows(self) -> u32 {
        self.rows
    }
    #[inline(always)]
    fn k(self) -> u32 {
        self.k
    }
}

/// 7 columns, 6 rows, 4 in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standard;

impl Dims for Standard {
    #[inline(always)]
    fn cols(self) -> u32 {
        7
    }
    #[inline(always)]
    fn rows(self) -> u32 {
        6
    }
    #[inline(always)]
    fn k(self) -> u32 {
        4
    }
}

/// The grid's masks, computed once per grid size and shared by every board
/// of that size.
#[derive(Clone, Debug)]
pub struct Geometry<B, D> {
    pub dims: D,
    pub cols: u32,
    pub rows: u32,
    pub k: u32,
    /// The bottom cell of every column.
    bottom: B,
    /// Every cell (no guard bits).
    cells: B,
    /// The cells of the even rows, counting from 1 at the bottom.
    evens: B,
    /// Columns, centre first; among two centres the left one first.
    pub order: Vec<u32>,
}

impl<B: Bits, D: Dims> Geometry<B, D> {
    /// Callers check the sizes (Shape does): `cols * (rows + 1) <= B::WIDTH`.
    pub fn new(dims: D) -> Geometry<B, D> {
        let (cols, rows, k) = (dims.cols(), dims.rows(), dims.k());
        let mut bottom = B::ZERO;
        for c in 0..cols {
            bottom |= B::ONE << (c * (rows + 1));
        }
        let column = (B::ONE << rows) - B::ONE;
        let mut cells = B::ZERO;
        for c in 0..cols {
            cells |= column << (c * (rows + 1));
        }
        let mut evens = B::ZERO;
        for row in (1..rows).step_by(2) {
            evens |= (bottom << row) & cells;
        }
        let mut order: Vec<u32> = (0..cols).collect();
        // Distance from the centre, doubled to stay in integers.
        order.sort_by_key(|&c| ((2 * c) as i32 - (cols as i32 - 1)).abs() * 2 + i32::from(2 * c + 1 > cols));
        Geometry {
            dims,
            cols,
            rows,
            k,
            bottom,
            cells,
            evens,
            order,
        }
    }

    #[inline(always)]
    pub fn area(&self) -> u32 {
        self.dims.cols() * self.dims.rows()
    }

    /// A number from 1 to 252 naming the grid and k (sides 4..9, k 3..9).
    pub fn shape_code(&self) -> u64 {
        u64::from(((self.cols - 4) * 6 + (self.rows - 4)) * 7 + (self.k - 3) + 1)
    }

    /// The cells of the even rows (the second from the bottom, the
    /// fourth...).
    #[inline(always)]
    pub fn evens(&self) -> B {
        self.evens
    }

    /// Every cell of the grid (no guard bits).
    #[inline(always)]
    pub fn cells(&self) -> B {
        self.cells
    }

    /// The cells of row `row`, counting from 0 at the bottom.
    #[inline(always)]
    pub fn row(&self, row: u32) -> B {
        (self.bottom << row) & self.cells
    }

    #[inline(always)]
    pub fn column(&self, col: u32) -> B {
        let rows = self.dims.rows();
        ((B::ONE << rows) - B::ONE) << (col * (rows + 1))
    }

    #[inline(always)]
    fn top(&self, col: u32) -> B {
        let rows = self.dims.rows();
        B::ONE << (rows - 1 + col * (rows + 1))
    }

    /// The empty cells that would complete a line of `k` for `stones`.
    #[inline(always)]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let h = self.dims.rows();
        let lines = if self.dims.k() == 4 {
            // Unrolled for the usual game: the standard solvers' formula.
            let mut r = (stones << 1) & (stones << 2) & (stones << 3);
            for step in [h + 1, h, h + 2] {
                let pair = (stones << step) & (stones << (2 * step));
                r |= pair & (stones << (3 * step));
                r |= pair & (stones >> step);
                let pair = (stones >> step) & (stones >> (2 * step));
                r |= pair & (stones << step);
                r |= pair & (stones >> (3 * step));
            }
            r
        } else {
            self.winning_cells_any_k(stones)
        };
        lines & (self.cells ^ mask)
    }

    /// For a cell to complete a line, the other k-1 cells of some window of
    /// k through it must all be the player's.
    fn winning_cells_any_k(&self, stones: B) -> B {
        let k = self.k as i32;
        let mut r = B::ZERO;
        // Vertical lines only run downwards from the empty cell.
        let mut down = !B::ZERO;
        for i in 1..k {
            down &= stones << i as u32;
        }
        r |= down;
        for step in [self.rows + 1, self.rows, self.rows + 2] {
            for gap in 0..k {
                let mut window = !B::ZERO;
                for i in 0..k {
                    let offset = (i - gap) * step as i32;
                    if offset > 0 {
                        window &= stones >> offset as u32;
                    } else if offset < 0 {
                        window &= stones << (-offset) as u32;
                    }
                }
                r |= window;
            }
        }
        r
    }

    /// True if `stones` hold a line of k.
    #[inline(always)]
    pub fn has_line(&self, stones: B) -> bool {
        if self.dims.k() == 4 {
            let h = self.dims.rows();
            // Unrolled for the usual game: pairs, then pairs of pairs.
            return [1, h + 1, h, h + 2].into_iter().any(|step| {
                let pairs = stones & (stones >> step);
                pairs & (pairs >> (2 * step)) != B::ZERO
            });
        }
        self.has_line_any_k(stones)
    }

    fn has_line_any_k(&self, stones: B) -> bool {
        [1, self.rows + 1, self.rows, self.rows + 2].into_iter().any(|step| {
            let mut run = stones;
            for i in 1..self.k {
                run &= stones >> (i * step);
            }
            run != B::ZERO
        })
    }
}

/// A position on a [`Geometry`]: cheap to copy, so searches copy rather
/// than undo.
#[derive(Clone, Copy, Debug)]
pub struct Board<'g, B, D> {
    pub geo: &'g Geometry<B, D>,
    /// The stones of the player to move.
    pub current: B,
    pub mask: B,
    /// Stones on the board.
    pub moves: u32,
}

impl<'g, B: Bits, D: Dims> Board<'g, B, D> {
    pub fn empty(geo: &'g Geometry<B, D>) -> Board<'g, B, D> {
        Board {
            geo,
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
        }
    }

    #[inline(always)]
    pub fn can_play(&self, col: u32) -> bool {
        self.mask & self.geo.top(col) == B::ZERO
    }

    /// The cell a stone dropped in `col` lands on (the column has room).
    #[inline(always)]
    pub fn drop_cell(&self, col: u32) -> B {
        (self.mask + (B::ONE << (col * (self.geo.dims.rows() + 1)))) & self.geo.column(col)
    }

    /// Plays the cell `cell` (one of [`Board::playable`]'s bits).
    #[inline(always)]
    pub fn play_cell(&mut self, cell: B) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    pub fn play_column(&mut self, col: u32) {
        let cell = self.drop_cell(col);
        self.play_cell(cell);
    }

    /// The lowest free cell of every column that has one.
    #[inline(always)]
    pub fn playable(&self) -> B {
        (self.mask + self.geo.bottom) & self.geo.cells
    }

    pub fn opponent(&self) -> B {
        self.current ^ self.mask
    }

    pub fn is_full(&self) -> bool {
        self.moves == self.geo.area()
    }

    /// True if playing `col` completes a line for the player to move.
    pub fn wins_with(&self, col: u32) -> bool {
        self.geo.winning_cells(self.current, self.mask) & self.drop_cell(col) != B::ZERO
    }

    #[inline(always)]
    pub fn can_win_next(&self) -> bool {
        self.geo.winning_cells(self.current, self.mask) & self.playable() != B::ZERO
    }

    /// The moves that do not let the opponent win at once: a forced block
    /// if the opponent threatens one cell, none if it threatens two, and
    /// never the cell under an opponent's winning cell. Assumes the mover
    /// cannot win at once.
    #[inline(always)]
    pub fn non_losing_moves(&self) -> B {
        self.non_losing_given(self.geo.winning_cells(self.opponent(), self.mask))
    }

    /// [`Board::non_losing_moves`] when the opponent's winning cells
    /// (`threats`) are known already.
    #[inline(always)]
    pub fn non_losing_given(&self, threats: B) -> B {
        let mut possible = self.playable();
        let forced = possible & threats;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// How many winning cells the mover has after playing `cell`: the
    /// standard move-ordering heuristic.
    #[inline(always)]
    pub fn move_score(&self, cell: B) -> u32 {
        self.geo.winning_cells(self.current | cell, self.mask | cell).ones()
    }

    /// The column of a cell bit.
    pub fn column_of(&self, cell: B) -> u32 {
        cell.lowest() / (self.geo.rows + 1)
    }

    /// A key unique to this position on this grid (with the guard bits, the
    /// sum of the two boards encodes both).
    #[inline(always)]
    pub fn position_key(&self) -> B {
        self.current + self.mask
    }

    /// The key of the mirror image (columns reversed).
    #[inline(always)]
    pub fn mirrored_key(&self) -> B {
        let key = self.position_key();
        let height = self.geo.rows + 1;
        let column = (B::ONE << height) - B::ONE;
        let last = self.geo.cols - 1;
        let mut mirrored = B::ZERO;
        for c in 0..self.geo.cols {
            mirrored |= ((key >> (c * height)) & column) << ((last - c) * height);
        }
        mirrored
    }

    /// The position before the last player's stone on top of `col` was
    /// played, if that stone is theirs (the stones on top of the columns
    /// that are theirs are the moves the position may have been reached
    /// by).
    pub fn take_back(&self, col: u32) -> Option<Board<'g, B, D>> {
        let height = (self.mask & self.geo.column(col)).ones();
        let top = B::ONE << (col * (self.geo.rows + 1) + height.checked_sub(1)?);
        let theirs = self.opponent();
        (theirs & top != B::ZERO).then(|| Board {
            geo: self.geo,
            current: theirs ^ top,
            mask: self.mask ^ top,
            moves: self.moves - 1,
        })
    }

    /// Every position this one may have been reached from: one of the last
    /// player's top stones taken back.
    pub fn parents(&self) -> impl Iterator<Item = Board<'g, B, D>> {
        let board = *self;
        (0..board.geo.cols).filter_map(move |col| board.take_back(col))
    }

    /// The stones in `col`, bottom first: true for the player to move.
    pub fn column_stones(&self, col: u32) -> Vec<bool> {
        let base = col * (self.geo.rows + 1);
        (0..self.geo.rows)
            .map(|r| B::ONE << (base + r))
            .take_while(|&cell| self.mask & cell != B::ZERO)
            .map(|cell| self.current & cell != B::ZERO)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taking_back_a_top_stone_of_the_last_player_undoes_that_move_and_no_other() {
        let geo = Geometry::<u64, _>::new(Standard);
        // Games of every length, each column tried from each position.
        for moves in ["", "4", "44", "4455", "3444", "12345671234567", "444444", "71"] {
            let mut board = Board::empty(&geo);
            for c in moves.bytes() {
                board.play_column(u32::from(c - b'1'));
            }
            for col in 0..geo.cols {
                if board.can_play(col) {
                    let mut child = board;
                    child.play_column(col);
                    let back = child.take_back(col).unwrap();
                    assert_eq!(
                        (back.current, back.mask, back.moves),
                        (board.current, board.mask, board.moves)
                    );
                }
                // A top stone is the last player's exactly when taking it
                // back and playing it again gives the position back.
                let stones = board.column_stones(col);
                match board.take_back(col) {
                    Some(mut back) => {
                        assert_eq!(stones.last(), Some(&false), "{moves}, column {col}");
                        back.play_column(col);
                        assert_eq!(
                            (back.current, back.mask, back.moves),
                            (board.current, board.mask, board.moves)
                        );
                    }
                    None => assert_ne!(stones.last(), Some(&false), "{moves}, column {col}"),
                }
            }
        }
    }
}
