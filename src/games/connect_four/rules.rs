//! The rules of the game: positions, moves, the end of the game.
use std::sync::Arc;

use super::board::{AnyDims, Board, Dims, Geometry};

use crate::core::game::{Game, GameOutcome, Seat, Turn};

pub const MIN_SIDE: u32 = 4;
pub const MAX_SIDE: u32 = 9;
pub const MIN_K: u32 = 3;
pub const DEFAULT_COLS: u32 = 7;
pub const DEFAULT_ROWS: u32 = 6;
pub const DEFAULT_K: u32 = 4;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectFourError {
    #[error("cols = {0} is out of range; expected {MIN_SIDE} to {MAX_SIDE}")]
    Cols(i64),
    #[error("rows = {0} is out of range; expected {MIN_SIDE} to {MAX_SIDE}")]
    Rows(i64),
    #[error("k = {k} is out of range; expected {MIN_K} to {max} (the grid's longer side)")]
    K { k: i64, max: u32 },
    #[error("moves[{index}] is {found:?}; expected a column digit from 1 to {cols}")]
    BadDigit { index: usize, found: char, cols: u32 },
    #[error("moves[{index}] plays column {column}, which is already full ({rows} stones)")]
    FullColumn { index: usize, column: u32, rows: u32 },
    #[error("moves[{index}] plays column {column}, but the game was already won by {winner} with the previous stone")]
    MoveAfterWin { index: usize, column: u32, winner: char },
    #[error("board has {0} rows; expected {MIN_SIDE} to {MAX_SIDE} row strings")]
    RowCount(usize),
    #[error("board[0] has {0} cells; expected {MIN_SIDE} to {MAX_SIDE} columns")]
    ColumnCount(usize),
    #[error("both X and O have {0} in a row; the game ends at the first line")]
    BothWon(u32),
    #[error("board[{row}] has {found} cells; expected {cols}, like board[0]")]
    RowLength { row: usize, found: usize, cols: u32 },
    #[error("board[{row}] has {found:?} at column {col}; only 'X', 'O' and '.' are allowed")]
    BadCharacter { row: usize, col: usize, found: char },
    #[error("board[{row}] has a stone at column {col} above an empty cell; stones drop to the lowest free cell")]
    Floating { row: usize, col: usize },
    #[error("the board has {x} X and {o} O; X moves first, so the X count must equal the O count or exceed it by one")]
    Counts { x: u32, o: u32 },
    #[error("{0} has {1} in a row: the game is already won")]
    AlreadyWon(char, u32),
    #[error("the grid is full: the game is over (a draw)")]
    Full,
    #[error("column {column} cannot be played: {why}")]
    IllegalMove { column: i64, why: &'static str },
}

/// The grid's size and the line length, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    pub cols: u32,
    pub rows: u32,
    pub k: u32,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            cols: DEFAULT_COLS,
            rows: DEFAULT_ROWS,
            k: DEFAULT_K,
        }
    }
}

impl Shape {
    /// Reads optional sizes, each defaulted and range-checked.
    pub fn new(cols: Option<i64>, rows: Option<i64>, k: Option<i64>) -> Result<Shape, ConnectFourError> {
        let side = |v: Option<i64>, default: u32, err: fn(i64) -> ConnectFourError| match v {
            None => Ok(default),
            Some(v) if (MIN_SIDE as i64..=MAX_SIDE as i64).contains(&v) => Ok(v as u32),
            Some(v) => Err(err(v)),
        };
        let cols = side(cols, DEFAULT_COLS, ConnectFourError::Cols)?;
        let rows = side(rows, DEFAULT_ROWS, ConnectFourError::Rows)?;
        let max = cols.max(rows);
        let k = match k {
            None => DEFAULT_K,
            Some(k) if (MIN_K as i64..=max as i64).contains(&k) => k as u32,
            Some(k) => return Err(ConnectFourError::K { k, max }),
        };
        Ok(Shape { cols, rows, k })
    }

    pub fn area(&self) -> u32 {
        self.cols * self.rows
    }

    /// True when a board of this shape fits a `u64` (7x6 and most others).
    pub fn fits_u64(&self) -> bool {
        self.cols * (self.rows + 1) <= 64
    }

    pub fn dims(&self) -> AnyDims {
        AnyDims {
            cols: self.cols,
            rows: self.rows,
            k: self.k,
        }
    }

    /// True for the usual 7x6 game with 4 in a line.
    pub fn is_standard(&self) -> bool {
        *self == Shape::default()
    }
}

/// A position that a real game reaches, with its grid. Cheap to clone (the
/// geometry is shared). While the game goes on `result` is None.
#[derive(Clone, Debug)]
pub struct ConnectFourState {
    geo: Arc<Geometry<u128, AnyDims>>,
    shape: Shape,
    current: u128,
    mask: u128,
    moves: u32,
    result: Option<GameOutcome>,
}

impl PartialEq for ConnectFourState {
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape && self.current == other.current && self.mask == other.mask
    }
}

impl ConnectFourState {
    pub fn new(shape: Shape) -> ConnectFourState {
        ConnectFourState {
            geo: Arc::new(Geometry::new(shape.dims())),
            shape,
            current: 0,
            mask: 0,
            moves: 0,
            result: None,
        }
    }

    fn board(&self) -> Board<'_, u128, AnyDims> {
        Board {
            geo: &self.geo,
            current: self.current,
            mask: self.mask,
            moves: self.moves,
        }
    }

    /// A game so far as 1-based column digits; it may have ended (see
    /// [`ConnectFour::ensure_not_over`]), but no digit may follow the end.
    pub fn from_moves(shape: Shape, moves: &str) -> Result<ConnectFourState, ConnectFourError> {
        let mut game = ConnectFourState::new(shape);
        for (index, found) in moves.chars().enumerate() {
            let column =
                found
                    .to_digit(10)
                    .filter(|d| (1..=shape.cols).contains(d))
                    .ok_or(ConnectFourError::BadDigit {
                        index,
                        found,
                        cols: shape.cols,
                    })?;
            if let Some(GameOutcome::Won(seat)) = game.result {
                return Err(ConnectFourError::MoveAfterWin {
                    index,
                    column,
                    winner: symbol(seat),
                });
            }
            if !game.board().can_play(column - 1) {
                return Err(ConnectFourError::FullColumn {
                    index,
                    column,
                    rows: shape.rows,
                });
            }
            game.play(column - 1);
        }
        Ok(game)
    }

    /// A board as row strings over X, O and '.', top row first; its size
    /// is the board's own (`k` from `shape`). The game may be over.
    pub fn from_rows(rows: &[String], k: Option<i64>) -> Result<ConnectFourState, ConnectFourError> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let shape = Shape::new(Some(width as i64), Some(height as i64), k).map_err(|e| match e {
            ConnectFourError::Rows(_) => ConnectFourError::RowCount(height),
            ConnectFourError::Cols(_) => ConnectFourError::ColumnCount(width),
            other => other,
        })?;
        let mut x = 0u128;
        let mut o = 0u128;
        for (row, text) in rows.iter().enumerate() {
            let found = text.chars().count();
            if found != width {
                return Err(ConnectFourError::RowLength {
                    row,
                    found,
                    cols: shape.cols,
                });
            }
            // Row 0 is the top: the bottom row is bit 0 of each column.
            let level = (height - 1 - row) as u32;
            for (col, ch) in text.chars().enumerate() {
                let cell = 1u128 << (col as u32 * (shape.rows + 1) + level);
                match ch {
                    'X' => x |= cell,
                    'O' => o |= cell,
                    '.' => {}
                    found => return Err(ConnectFourError::BadCharacter { row, col, found }),
                }
            }
        }
        let mask = x | o;
        // Every stone needs a stone (or the floor) under it.
        let floating = mask & !((mask << 1) | bottom_cells(&shape));
        if floating != 0 {
            let bit = floating.trailing_zeros();
            let (col, level) = (bit / (shape.rows + 1), bit % (shape.rows + 1));
            return Err(ConnectFourError::Floating {
                row: height - 1 - level as usize,
                col: col as usize,
            });
        }
        let (xs, os) = (x.count_ones(), o.count_ones());
        if xs != os && xs != os + 1 {
            return Err(ConnectFourError::Counts { x: xs, o: os });
        }
        let mut game = ConnectFourState::new(shape);
        let x_to_move = xs == os;
        game.current = if x_to_move { x } else { o };
        game.mask = mask;
        game.moves = xs + os;
        let (geo, k) = (&game.geo, shape.k);
        game.result = match (geo.has_line(x), geo.has_line(o)) {
            (true, true) => return Err(ConnectFourError::BothWon(k)),
            (true, false) => Some(GameOutcome::Won(0)),
            (false, true) => Some(GameOutcome::Won(1)),
            (false, false) => game.board().is_full().then_some(GameOutcome::Draw),
        };
        Ok(game)
    }

    /// The game-over errors, for the endpoints that need a move to make.
    pub fn ensure_not_over(&self) -> Result<(), ConnectFourError> {
        match self.result {
            Some(GameOutcome::Won(seat)) => Err(ConnectFourError::AlreadyWon(symbol(seat), self.shape.k)),
            Some(GameOutcome::Draw) => Err(ConnectFourError::Full),
            None => Ok(()),
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn stones(&self) -> u32 {
        self.moves
    }

    /// The seat to move (0 = X) even when the game is over.
    pub fn seat_to_move(&self) -> Seat {
        (self.moves % 2) as Seat
    }

    /// 0-based columns that have room (empty when the game is over).
    pub fn open_columns(&self) -> Vec<u32> {
        if self.result.is_some() {
            return Vec::new();
        }
        let board = self.board();
        (0..self.shape.cols).filter(|&c| board.can_play(c)).collect()
    }

    /// Checks a 1-based column from a request, as a move of the player to
    /// move.
    pub fn check_column(&self, column: i64) -> Result<u32, ConnectFourError> {
        if self.result.is_some() {
            return Err(ConnectFourError::IllegalMove {
                column,
                why: "the game is over",
            });
        }
        if !(1..=i64::from(self.shape.cols)).contains(&column) {
            return Err(ConnectFourError::IllegalMove {
                column,
                why: "there is no such column",
            });
        }
        let col = column as u32 - 1;
        if !self.board().can_play(col) {
            return Err(ConnectFourError::IllegalMove {
                column,
                why: "the column is full",
            });
        }
        Ok(col)
    }

    /// The grid as row strings, top row first.
    pub fn rows(&self) -> Vec<String> {
        let board = self.board();
        let to_move = symbol(self.seat_to_move());
        let other = symbol(1 - self.seat_to_move());
        let columns: Vec<Vec<bool>> = (0..self.shape.cols).map(|c| board.column_stones(c)).collect();
        (0..self.shape.rows)
            .rev()
            .map(|level| {
                columns
                    .iter()
                    .map(|stones| match stones.get(level as usize) {
                        Some(true) => to_move,
                        Some(false) => other,
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The position as the search's board in word `B` (which the caller
    /// chose to fit the shape) on `geo`.
    pub fn to_board<'g, B: super::bits::Bits, D: Dims>(&self, geo: &'g Geometry<B, D>) -> Board<'g, B, D> {
        Board {
            geo,
            current: B::narrow(self.current),
            mask: B::narrow(self.mask),
            moves: self.moves,
        }
    }
}

fn bottom_cells(shape: &Shape) -> u128 {
    (0..shape.cols).fold(0, |acc, c| acc | 1u128 << (c * (shape.rows + 1)))
}

pub fn symbol(seat: Seat) -> char {
    if seat == 0 {
        'X'
    } else {
        'O'
    }
}

impl Game for ConnectFourState {
    /// A 0-based column.
    type Move = u32;

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.seat_to_move())
        }
    }

    fn legal_moves(&self) -> Vec<u32> {
        self.open_columns()
    }

    fn play(&mut self, col: u32) {
        let mover = self.seat_to_move();
        let (won, current, mask, moves) = {
            let mut board = self.board();
            let won = board.wins_with(col);
            board.play_column(col);
            (won, board.current, board.mask, board.moves)
        };
        (self.current, self.mask, self.moves) = (current, mask, moves);
        self.result = if won {
            Some(GameOutcome::Won(mover))
        } else {
            self.board().is_full().then_some(GameOutcome::Draw)
        };
    }

    fn result(&self) -> Option<GameOutcome> {
        self.result
    }
}
