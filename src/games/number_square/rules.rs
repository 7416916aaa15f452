//! The rules of the game: positions, moves, the end of the game.
use std::fmt::Debug;
use std::hash::Hash;

use rand::seq::SliceRandom;
use rand::Rng;
use thiserror::Error;

use crate::core::game::{self, GameOutcome, Seat, Turn};

pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 12;
/// Tile values must lie within +-MAX_ABS_VALUE.
pub const MAX_ABS_VALUE: i64 = 1_000_000;
/// The most tiles a board can have.
pub const MAX_TILES: usize = MAX_SIZE * MAX_SIZE;

/// A tile's position: row 0 is the top row, col 0 the left column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Tile {
    pub row: usize,
    pub col: usize,
}

impl Tile {
    pub fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }
}

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    AllTaken,
    TopToBottomPath,
    LeftToRightPath,
}

/// A board the client sent that we cannot play on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("board has {rows} rows, expected between {MIN_SIZE} and {MAX_SIZE} (an N x N board)")]
    BadSize { rows: usize },
    #[error("board row {row} has {len} tiles, expected {expected} (the board must be square)")]
    RaggedRow { row: usize, len: usize, expected: usize },
    #[error("board[{row}][{col}] is {value}, expected an integer from -{MAX_ABS_VALUE} to {MAX_ABS_VALUE}")]
    ValueOutOfRange { row: usize, col: usize, value: i64 },
    #[error("the game is already over: {}", describe_end(*.0))]
    GameOver(GameEnd),
}

fn describe_end(end: GameEnd) -> &'static str {
    match end {
        GameEnd::AllTaken => "every tile is taken",
        GameEnd::TopToBottomPath => "the taken tiles join the top row to the bottom row",
        GameEnd::LeftToRightPath => "the taken tiles join the left column to the right column",
    }
}

/// A move that cannot be played on this board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("tile ({row}, {col}) is off the board, expected row and col from 0 to {max}", max = .size - 1)]
    OffBoard { row: usize, col: usize, size: usize },
    #[error("tile ({row}, {col}) is already taken")]
    AlreadyTaken { row: usize, col: usize },
    #[error("tile ({row}, {col}) cannot be taken yet: it must be on the edge or next to a taken tile")]
    NotExposed { row: usize, col: usize },
    #[error("the game is already over: {}", describe_end(*.0))]
    GameOver(GameEnd),
}

/// A validated position: square, sizes and values in range. It may be
/// finished (after [`Board::play`]); boards parsed from input never are.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<Vec<Option<i64>>>", into = "Vec<Vec<Option<i64>>>")]
pub struct Board {
    size: usize,
    /// Row-major; a taken tile holds 0 (its value no longer matters).
    values: Vec<i64>,
    taken: Wide,
}

/// The result of playing one tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub board: Board,
    /// What the mover scored.
    pub points: i64,
}

impl TryFrom<Vec<Vec<Option<i64>>>> for Board {
    type Error = BoardError;

    fn try_from(rows: Vec<Vec<Option<i64>>>) -> Result<Self, Self::Error> {
        Board::from_rows(&rows)
    }
}

impl From<Board> for Vec<Vec<Option<i64>>> {
    fn from(board: Board) -> Self {
        board.rows()
    }
}

impl Board {
    /// Parses rows of tiles (`None` = taken) into a board that is still in
    /// play.
    pub fn from_rows(rows: &[Vec<Option<i64>>]) -> Result<Self, BoardError> {
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::BadSize { rows: size });
        }
        let mut values = Vec::with_capacity(size * size);
        let mut taken = Wide::empty();
        for (row, tiles) in rows.iter().enumerate() {
            if tiles.len() != size {
                return Err(BoardError::RaggedRow {
                    row,
                    len: tiles.len(),
                    expected: size,
                });
            }
            for (col, tile) in tiles.iter().enumerate() {
                match *tile {
                    None => {
                        taken = taken.or(Wide::single(row * size + col));
                        values.push(0);
                    }
                    Some(value) if (-MAX_ABS_VALUE..=MAX_ABS_VALUE).contains(&value) => values.push(value),
                    Some(value) => return Err(BoardError::ValueOutOfRange { row, col, value }),
                }
            }
        }
        let board = Board { size, values, taken };
        match board.end() {
            Some(end) => Err(BoardError::GameOver(end)),
            None => Ok(board),
        }
    }

    /// A fresh board holding 1..=size^2 in random order (the seed paper's
    /// board, and the default for matches).
    pub fn shuffled<R: Rng + ?Sized>(size: usize, rng: &mut R) -> Result<Self, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::BadSize { rows: size });
        }
        let mut values: Vec<i64> = (1..=(size * size) as i64).collect();
        values.shuffle(rng);
        Ok(Board {
            size,
            values,
            taken: Wide::empty(),
        })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The board as rows, `None` for taken tiles (the inverse of
    /// [`Board::from_rows`]).
    pub fn rows(&self) -> Vec<Vec<Option<i64>>> {
        (0..self.size)
            .map(|row| (0..self.size).map(|col| self.value_at(Tile::new(row, col))).collect())
            .collect()
    }

    /// The value of a tile still on the board; `None` if taken or off board.
    pub fn value_at(&self, tile: Tile) -> Option<i64> {
        let index = self.index_of(tile)?;
        if self.taken.contains(index) {
            None
        } else {
            self.values.get(index).copied()
        }
    }

    pub fn is_taken(&self, tile: Tile) -> bool {
        self.index_of(tile).is_some_and(|index| self.taken.contains(index))
    }

    /// The largest absolute value of an untaken tile (0 once none is left):
    /// the measure of a big lead that the AI's levels and the reviews use.
    pub fn largest_value(&self) -> i64 {
        self.values.iter().map(|v| v.abs()).max().unwrap_or(0)
    }

    pub fn taken_count(&self) -> usize {
        self.taken.count() as usize
    }

    pub fn remaining_count(&self) -> usize {
        self.size * self.size - self.taken_count()
    }

    /// Why the game is over, or `None` while it is in play.
    pub fn end(&self) -> Option<GameEnd> {
        game_end(&Geometry::<Wide>::new(self.size), self.taken)
    }

    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// The tiles the mover may take, in row-major order (empty once the game
    /// is over).
    pub fn legal_moves(&self) -> Vec<Tile> {
        if self.is_over() {
            return Vec::new();
        }
        let geometry = Geometry::<Wide>::new(self.size);
        geometry
            .legal(self.taken)
            .indices()
            .map(|index| self.tile_of(index))
            .collect()
    }

    pub fn is_legal(&self, tile: Tile) -> bool {
        self.check_move(tile).is_ok()
    }

    /// Takes `tile` for the player to move.
    pub fn play(&self, tile: Tile) -> Result<Played, MoveError> {
        let index = self.check_move(tile)?;
        let mut board = self.clone();
        board.taken = board.taken.or(Wide::single(index));
        let points = std::mem::take(&mut board.values[index]);
        Ok(Played { board, points })
    }

    fn check_move(&self, tile: Tile) -> Result<usize, MoveError> {
        let Tile { row, col } = tile;
        let index = self.index_of(tile).ok_or(MoveError::OffBoard {
            row,
            col,
            size: self.size,
        })?;
        if let Some(end) = self.end() {
            return Err(MoveError::GameOver(end));
        }
        if self.taken.contains(index) {
            return Err(MoveError::AlreadyTaken { row, col });
        }
        let geometry = Geometry::<Wide>::new(self.size);
        if !geometry.legal(self.taken).contains(index) {
            return Err(MoveError::NotExposed { row, col });
        }
        Ok(index)
    }

    fn index_of(&self, tile: Tile) -> Option<usize> {
        (tile.row < self.size && tile.col < self.size).then(|| tile.row * self.size + tile.col)
    }

    pub(crate) fn tile_of(&self, index: usize) -> Tile {
        Tile::new(index / self.size, index % self.size)
    }

    /// Row-major tile values, 0 for taken tiles (for the search).
    pub(crate) fn values(&self) -> &[i64] {
        &self.values
    }

    pub(crate) fn taken_bits(&self) -> Wide {
        self.taken
    }
}

/// A game of Number Square through the [`game::Game`] trait: the board,
/// what each seat has scored, and whose seat is to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberSquareState {
    board: Board,
    scores: [i64; 2],
    mover: Seat,
}

impl NumberSquareState {
    /// `board` with `mover` to move, the seats having scored `scores`.
    pub fn new(board: Board, scores: [i64; 2], mover: Seat) -> Self {
        Self {
            board,
            scores,
            mover: mover.min(1),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What `seat` has scored so far.
    pub fn score(&self, seat: Seat) -> i64 {
        self.scores.get(seat).copied().unwrap_or(0)
    }
}

impl game::Game for NumberSquareState {
    type Move = Tile;

    fn turn(&self) -> Turn {
        if self.board.is_over() {
            Turn::Over
        } else {
            Turn::Player(self.mover)
        }
    }

    fn legal_moves(&self) -> Vec<Tile> {
        self.board.legal_moves()
    }

    fn play(&mut self, tile: Tile) {
        // Not a legal move: the trait's callers offer only legal ones (a
        // debug build says so; a release build leaves the game as it was).
        match self.board.play(tile) {
            Ok(played) => {
                self.board = played.board;
                self.scores[self.mover] += played.points;
                self.mover = 1 - self.mover;
            }
            Err(e) => debug_assert!(false, "an illegal move was played: {tile:?}: {e}"),
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        self.board.end()?;
        Some(match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => GameOutcome::Won(0),
            std::cmp::Ordering::Less => GameOutcome::Won(1),
            std::cmp::Ordering::Equal => GameOutcome::Draw,
        })
    }
}

/// Why the game is over for this taken set, if it is.
pub(crate) fn game_end<B: TileBits>(geometry: &Geometry<B>, taken: B) -> Option<GameEnd> {
    if taken == geometry.full {
        return Some(GameEnd::AllTaken);
    }
    let from_top = geometry.flood(taken.and(geometry.top), taken);
    if !from_top.and(geometry.bottom).is_empty() {
        return Some(GameEnd::TopToBottomPath);
    }
    let from_left = geometry.flood(taken.and(geometry.left), taken);
    if !from_left.and(geometry.right).is_empty() {
        return Some(GameEnd::LeftToRightPath);
    }
    None
}

/// A set of tiles, bit `row * size + col`. Implemented for `u64`, `u128` and
/// [`Wide`] so that the search runs on the narrowest type that fits.
pub(crate) trait TileBits: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// How many tiles the type can hold.
    const CAPACITY: usize;
    fn empty() -> Self;
    /// The set holding only `index` (empty if `index >= CAPACITY`).
    fn single(index: usize) -> Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    /// Moves every tile `n` places up in index (1 <= n < 64).
    fn shift_up(self, n: u32) -> Self;
    /// Moves every tile `n` places down in index (1 <= n < 64).
    fn shift_down(self, n: u32) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    fn to_wide(self) -> Wide;
    /// The low `CAPACITY` tiles of a wide set.
    fn from_wide(wide: Wide) -> Self;

    fn contains(self, index: usize) -> bool {
        !self.and(Self::single(index)).is_empty()
    }

    fn indices(self) -> Indices<Self> {
        Indices(self)
    }
}

/// Iterates a set's indices, lowest first.
pub(crate) struct Indices<B>(B);

impl<B: TileBits> Iterator for Indices<B> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(index)
    }
}

macro_rules! impl_tile_bits_for_int {
    ($int:ty) => {
        impl TileBits for $int {
            const CAPACITY: usize = <$int>::BITS as usize;
            fn empty() -> Self {
                0
            }
            fn single(index: usize) -> Self {
                if index < Self::CAPACITY {
                    1 << index
                } else {
                    0
                }
            }
            fn or(self, other: Self) -> Self {
                self | other
            }
            fn and(self, other: Self) -> Self {
                self & other
            }
            fn and_not(self, other: Self) -> Self {
                self & !other
            }
            fn shift_up(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            fn shift_down(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            fn is_empty(self) -> bool {
                self == 0
            }
            fn count(self) -> u32 {
                self.count_ones()
            }
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            fn to_wide(self) -> Wide {
                let value = self as u128;
                Wide([value as u64, (value >> 64) as u64, 0])
            }
            fn from_wide(wide: Wide) -> Self {
                let value = (wide.0[0] as u128) | ((wide.0[1] as u128) << 64);
                value as $int
            }
        }
    };
}

impl_tile_bits_for_int!(u64);
impl_tile_bits_for_int!(u128);

/// 192 tiles in three words, lowest word first (enough for 12 x 12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Wide(pub [u64; 3]);

impl TileBits for Wide {
    const CAPACITY: usize = 192;
    fn empty() -> Self {
        Wide([0; 3])
    }
    fn single(index: usize) -> Self {
        let mut words = [0; 3];
        if let Some(word) = words.get_mut(index / 64) {
            *word = 1 << (index % 64);
        }
        Wide(words)
    }
    fn or(self, other: Self) -> Self {
        let [a, b, c] = self.0;
        let [x, y, z] = other.0;
        Wide([a | x, b | y, c | z])
    }
    fn and(self, other: Self) -> Self {
        let [a, b, c] = self.0;
        let [x, y, z] = other.0;
        Wide([a & x, b & y, c & z])
    }
    fn and_not(self, other: Self) -> Self {
        let [a, b, c] = self.0;
        let [x, y, z] = other.0;
        Wide([a & !x, b & !y, c & !z])
    }
    fn shift_up(self, n: u32) -> Self {
        if n == 0 || n >= 64 {
            return if n == 0 { self } else { Wide::empty() };
        }
        let [a, b, c] = self.0;
        Wide([a << n, (b << n) | (a >> (64 - n)), (c << n) | (b >> (64 - n))])
    }
    fn shift_down(self, n: u32) -> Self {
        if n == 0 || n >= 64 {
            return if n == 0 { self } else { Wide::empty() };
        }
        let [a, b, c] = self.0;
        Wide([(a >> n) | (b << (64 - n)), (b >> n) | (c << (64 - n)), c >> n])
    }
    fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }
    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }
    fn lowest(self) -> usize {
        let [a, b, c] = self.0;
        if a != 0 {
            a.trailing_zeros() as usize
        } else if b != 0 {
            64 + b.trailing_zeros() as usize
        } else {
            128 + c.trailing_zeros() as usize
        }
    }
    fn without_lowest(self) -> Self {
        let [a, b, c] = self.0;
        if a != 0 {
            Wide([a & (a - 1), b, c])
        } else if b != 0 {
            Wide([a, b & (b - 1), c])
        } else {
            Wide([a, b, c & c.wrapping_sub(1)])
        }
    }
    fn to_wide(self) -> Wide {
        self
    }
    fn from_wide(wide: Wide) -> Self {
        wide
    }
}

/// The fixed masks of one board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry<B> {
    pub size: usize,
    pub full: B,
    pub top: B,
    pub bottom: B,
    pub left: B,
    pub right: B,
    pub border: B,
}

impl<B: TileBits> Geometry<B> {
    /// Masks for a `size` x `size` board; `size * size` must not exceed
    /// `B::CAPACITY` (tiles beyond it are silently dropped).
    pub fn new(size: usize) -> Self {
        let tiles = (0..size * size).map(|index| (index / size, index % size));
        let mask = |keep: &dyn Fn(usize, usize) -> bool| {
            tiles
                .clone()
                .filter(|&(row, col)| keep(row, col))
                .fold(B::empty(), |set, (row, col)| set.or(B::single(row * size + col)))
        };
        let last = size.saturating_sub(1);
        let top = mask(&|row, _| row == 0);
        let bottom = mask(&|row, _| row == last);
        let left = mask(&|_, col| col == 0);
        let right = mask(&|_, col| col == last);
        Self {
            size,
            full: mask(&|_, _| true),
            top,
            bottom,
            left,
            right,
            border: top.or(bottom).or(left).or(right),
        }
    }

    /// The tiles 4-adjacent to some tile of `set` (masks stop a shift by one
    /// wrapping from one row's end into the next row).
    pub fn neighbours(&self, set: B) -> B {
        let width = self.size as u32;
        let eastward = set.and_not(self.right).shift_up(1);
        let westward = set.and_not(self.left).shift_down(1);
        let southward = set.shift_up(width);
        let northward = set.shift_down(width);
        eastward.or(westward).or(southward).or(northward).and(self.full)
    }

    /// The untaken tiles on the edge or next to a taken tile.
    pub fn legal(&self, taken: B) -> B {
        self.full.and_not(taken).and(self.border.or(self.neighbours(taken)))
    }

    /// Every tile of `within` 4-connected (inside `within`) to `seeds`.
    pub fn flood(&self, seeds: B, within: B) -> B {
        let mut reached = seeds.and(within);
        loop {
            let grown = reached.or(self.neighbours(reached)).and(within);
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// True if taking `index` (already in `taken`) ends the game. The game was
    /// in play before, so only the new tile's component can cross.
    pub fn move_ends_game(&self, taken: B, index: usize) -> bool {
        if taken == self.full {
            return true;
        }
        let crosses = |set: B| {
            (!set.and(self.top).is_empty() && !set.and(self.bottom).is_empty())
                || (!set.and(self.left).is_empty() && !set.and(self.right).is_empty())
        };
        let mut reached = B::single(index);
        loop {
            if crosses(reached) {
                return true;
            }
            let grown = reached.or(self.neighbours(reached)).and(taken);
            if grown == reached {
                return false;
            }
            reached = grown;
        }
    }
}
