//! The rules of the game: positions, moves, the end of the game.
use std::fmt;

use thiserror::Error;

use crate::core::game::{self, GameOutcome, Turn as GameTurn};

/// Cells on a side of the grid.
pub const SIDE: usize = 9;
/// Cells in the grid.
pub const CELLS: usize = SIDE * SIDE;
/// Faces of the die.
pub const DIE_FACES: u8 = 6;

/// Lines of three inside the boxes: 9 boxes x (3 rows + 3 cols + 2 diagonals).
pub(crate) const BOX_LINES: usize = 72;
/// Lines of nine across the grid: 9 rows + 9 cols + 2 diagonals.
pub(crate) const GRID_LINES: usize = 20;
pub(crate) const LINES: usize = BOX_LINES + GRID_LINES;
/// Points for a completed line of three in a box.
pub const BOX_LINE_POINTS: u32 = 1;
/// Bonus points for a completed line of nine across the grid.
pub const GRID_LINE_POINTS: u32 = 3;

/// The most lines through one cell: a box centre on both grid diagonals has
/// 4 box lines and 4 grid lines.
const MAX_LINES_PER_CELL: usize = 8;

pub use crate::core::player::Player;

/// The cell code a mark of `player` is stored as (0 is empty).
fn mark_of(player: Player) -> u8 {
    player.seat() as u8 + 1
}

fn player_of(mark: u8) -> Option<Player> {
    match mark {
        1 => Some(Player::X),
        2 => Some(Player::O),
        _ => None,
    }
}

/// A cell of the grid; row and column are 0-based and always below 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "[usize; 2]", into = "[usize; 2]")]
pub struct Coord {
    row: u8,
    col: u8,
}

/// A stored `[row, col]`, refused off the grid.
impl TryFrom<[usize; 2]> for Coord {
    type Error = String;

    fn try_from([row, col]: [usize; 2]) -> Result<Coord, String> {
        Coord::new(row, col).ok_or_else(|| format!("({row}, {col}) is off the grid"))
    }
}

impl From<Coord> for [usize; 2] {
    fn from(coord: Coord) -> [usize; 2] {
        [coord.row(), coord.col()]
    }
}

impl Coord {
    /// None when the row or column is off the grid.
    pub fn new(row: usize, col: usize) -> Option<Coord> {
        (row < SIDE && col < SIDE).then_some(Coord {
            row: row as u8,
            col: col as u8,
        })
    }

    pub fn row(self) -> usize {
        usize::from(self.row)
    }

    pub fn col(self) -> usize {
        usize::from(self.col)
    }

    /// Row-major index, 0..81.
    pub fn index(self) -> usize {
        self.row() * SIDE + self.col()
    }

    /// The cell at a row-major index; callers pass indices below 81.
    pub(crate) fn from_index(index: usize) -> Coord {
        debug_assert!(index < CELLS);
        Coord {
            row: (index / SIDE) as u8,
            col: (index % SIDE) as u8,
        }
    }
}

/// Both players' points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    pub x: u32,
    pub o: u32,
}

impl Score {
    pub fn of(self, player: Player) -> u32 {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// The player's points minus the opponent's.
    pub fn margin_for(self, player: Player) -> i32 {
        self.of(player) as i32 - self.of(player.opponent()) as i32
    }

    /// The leader, or None for a tie.
    pub fn leader(self) -> Option<Player> {
        match self.x.cmp(&self.o) {
            std::cmp::Ordering::Greater => Some(Player::X),
            std::cmp::Ordering::Less => Some(Player::O),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The static geometry: which cells make each line and which lines pass
/// through each cell. Built at compile time.
pub(crate) struct Geometry {
    /// Cells of each line (box lines use the first 3 entries).
    pub(crate) line_cells: [[u8; SIDE]; LINES],
    /// Lines through each cell, `lines_per_cell[c]` of them.
    pub(crate) cell_lines: [[u8; MAX_LINES_PER_CELL]; CELLS],
    pub(crate) lines_per_cell: [u8; CELLS],
}

/// Marks needed to complete a line.
pub(crate) const fn line_len(line: usize) -> u8 {
    if line < BOX_LINES {
        3
    } else {
        SIDE as u8
    }
}

/// Points a completed line is worth.
pub(crate) const fn line_points(line: usize) -> u32 {
    if line < BOX_LINES {
        BOX_LINE_POINTS
    } else {
        GRID_LINE_POINTS
    }
}

const fn build_geometry() -> Geometry {
    let mut line_cells = [[0u8; SIDE]; LINES];
    // Box lines: box b (row-major over boxes), kinds 0..3 rows, 3..6 columns,
    // 6 the diagonal, 7 the anti-diagonal.
    let mut b = 0;
    while b < 9 {
        let top = (b / 3) * 3;
        let left = (b % 3) * 3;
        let mut i = 0;
        while i < 3 {
            let mut j = 0;
            while j < 3 {
                line_cells[b * 8 + i][j] = ((top + i) * SIDE + left + j) as u8;
                line_cells[b * 8 + 3 + i][j] = ((top + j) * SIDE + left + i) as u8;
                j += 1;
            }
            line_cells[b * 8 + 6][i] = ((top + i) * SIDE + left + i) as u8;
            line_cells[b * 8 + 7][i] = ((top + i) * SIDE + left + 2 - i) as u8;
            i += 1;
        }
        b += 1;
    }
    // Grid lines: rows 72..81, columns 81..90, diagonal 90, anti-diagonal 91.
    let mut i = 0;
    while i < SIDE {
        let mut j = 0;
        while j < SIDE {
            line_cells[BOX_LINES + i][j] = (i * SIDE + j) as u8;
            line_cells[BOX_LINES + SIDE + i][j] = (j * SIDE + i) as u8;
            j += 1;
        }
        line_cells[BOX_LINES + 2 * SIDE][i] = (i * SIDE + i) as u8;
        line_cells[BOX_LINES + 2 * SIDE + 1][i] = (i * SIDE + SIDE - 1 - i) as u8;
        i += 1;
    }

    let mut cell_lines = [[0u8; MAX_LINES_PER_CELL]; CELLS];
    let mut lines_per_cell = [0u8; CELLS];
    let mut line = 0;
    while line < LINES {
        let len = line_len(line) as usize;
        let mut k = 0;
        while k < len {
            let cell = line_cells[line][k] as usize;
            cell_lines[cell][lines_per_cell[cell] as usize] = line as u8;
            lines_per_cell[cell] += 1;
            k += 1;
        }
        line += 1;
    }
    Geometry {
        line_cells,
        cell_lines,
        lines_per_cell,
    }
}

pub(crate) static GEOMETRY: Geometry = build_geometry();

/// The lines through a cell.
pub(crate) fn lines_through(cell: usize) -> &'static [u8] {
    &GEOMETRY.cell_lines[cell][..usize::from(GEOMETRY.lines_per_cell[cell])]
}

/// The cells of a line.
pub(crate) fn cells_of(line: usize) -> &'static [u8] {
    &GEOMETRY.line_cells[line][..usize::from(line_len(line))]
}

/// The grid, with per-line mark counts and both scores kept up to date.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// 0 empty, 1 X, 2 O; row-major.
    cells: [u8; CELLS],
    /// Marks of each player on each line.
    counts: [[u8; LINES]; 2],
    score: [u32; 2],
    empty: u8,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// An empty grid.
    pub fn new() -> Board {
        Board {
            cells: [0; CELLS],
            counts: [[0; LINES]; 2],
            score: [0; 2],
            empty: CELLS as u8,
        }
    }

    pub fn get(&self, at: Coord) -> Option<Player> {
        player_of(self.cells[at.index()])
    }

    pub fn score(&self) -> Score {
        Score {
            x: self.score[0],
            o: self.score[1],
        }
    }

    pub fn empty_count(&self) -> usize {
        usize::from(self.empty)
    }

    pub fn is_full(&self) -> bool {
        self.empty == 0
    }

    /// The empty cells in row-major order.
    pub fn empty_cells(&self) -> impl Iterator<Item = Coord> + '_ {
        (0..CELLS).filter(|&i| self.cells[i] == 0).map(Coord::from_index)
    }

    /// The grid as 9 row strings over `X`, `O` and `.`, as the API shows it.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(SIDE)
            .map(|row| row.iter().map(|&m| player_of(m).map_or('.', Player::symbol)).collect())
            .collect()
    }

    /// Puts a mark on an empty cell.
    pub fn place(&mut self, at: Coord, player: Player) -> Result<(), MoveError> {
        if self.cells[at.index()] != 0 {
            return Err(MoveError::Occupied {
                row: at.row(),
                col: at.col(),
            });
        }
        self.place_index(at.index(), player);
        Ok(())
    }

    /// Takes a mark back off a cell, returning whose it was.
    pub fn unplace(&mut self, at: Coord) -> Result<Player, MoveError> {
        let owner = self.get(at).ok_or(MoveError::NotOccupied {
            row: at.row(),
            col: at.col(),
        })?;
        self.unplace_index(at.index());
        Ok(owner)
    }

    /// The search's fast path: `cell` must be below 81 and empty.
    #[inline]
    pub(crate) fn place_index(&mut self, cell: usize, player: Player) {
        debug_assert!(self.cells[cell] == 0);
        let p = player.seat();
        self.cells[cell] = mark_of(player);
        self.empty -= 1;
        for &line in lines_through(cell) {
            let line = usize::from(line);
            self.counts[p][line] += 1;
            if self.counts[p][line] == line_len(line) {
                self.score[p] += line_points(line);
            }
        }
    }

    /// The search's fast path: `cell` must be below 81 and occupied.
    #[inline]
    pub(crate) fn unplace_index(&mut self, cell: usize) {
        let Some(player) = player_of(self.cells[cell]) else {
            debug_assert!(false, "unplacing an empty cell");
            return;
        };
        let p = player.seat();
        self.cells[cell] = 0;
        self.empty += 1;
        for &line in lines_through(cell) {
            let line = usize::from(line);
            if self.counts[p][line] == line_len(line) {
                self.score[p] -= line_points(line);
            }
            self.counts[p][line] -= 1;
        }
    }

    /// 0 empty, 1 X, 2 O.
    #[inline]
    pub(crate) fn mark_at(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Marks of `player` (by index) on `line`.
    #[inline]
    pub(crate) fn count(&self, player: usize, line: usize) -> u8 {
        self.counts[player][line]
    }

    /// Margin X minus O.
    #[inline]
    pub(crate) fn margin_x(&self) -> i32 {
        self.score[0] as i32 - self.score[1] as i32
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        write!(f, "score X {} O {}", self.score[0], self.score[1])
    }
}

/// What a request asks about, checked: a grid that is not full, the player
/// who places now, and their roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: Board,
    player: Player,
    dice: u8,
}

impl Position {
    /// Parses the API's loose fields. Mark counts are not checked: the dice
    /// make any counts possible.
    pub fn parse<S: AsRef<str>>(board: &[S], player: &str, dice: i64) -> Result<Position, PositionError> {
        let board = parse_board(board)?;
        let player = parse_player(player)?;
        let dice = parse_dice(dice)?;
        Position::new(board, player, dice)
    }

    /// A position from parts already typed; the dice must be 1..=6 and the
    /// grid must have an empty cell.
    pub fn new(board: Board, player: Player, dice: u8) -> Result<Position, PositionError> {
        if !(1..=DIE_FACES).contains(&dice) {
            return Err(PositionError::DiceOutOfRange { found: i64::from(dice) });
        }
        if board.is_full() {
            return Err(PositionError::GridFull);
        }
        Ok(Position { board, player, dice })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn player(&self) -> Player {
        self.player
    }

    pub fn dice(&self) -> u8 {
        self.dice
    }

    /// How many marks this turn places: the roll, or fewer near the end.
    pub fn placements_due(&self) -> usize {
        usize::from(self.dice).min(self.board.empty_count())
    }

    /// Checks a whole turn's placements (exactly `placements_due`, distinct,
    /// on the grid, empty) and returns the board after them.
    pub fn apply(&self, placements: &[(i64, i64)]) -> Result<Board, MoveError> {
        let due = self.placements_due();
        if placements.len() != due {
            return Err(MoveError::WrongCount {
                expected: due,
                found: placements.len(),
            });
        }
        let mut board = self.board;
        for &(row, col) in placements {
            let at = coord_from_loose(row, col)?;
            board.place(at, self.player).map_err(|e| match e {
                // Empty in the request's grid means an earlier placement of
                // this same turn took it.
                MoveError::Occupied { row, col } if self.board.get(at).is_none() => MoveError::Repeated { row, col },
                other => other,
            })?;
        }
        Ok(board)
    }
}

fn coord_from_loose(row: i64, col: i64) -> Result<Coord, MoveError> {
    usize::try_from(row)
        .ok()
        .zip(usize::try_from(col).ok())
        .and_then(|(r, c)| Coord::new(r, c))
        .ok_or(MoveError::OffGrid { row, col })
}

fn parse_board<S: AsRef<str>>(rows: &[S]) -> Result<Board, PositionError> {
    if rows.len() != SIDE {
        return Err(PositionError::WrongRowCount { found: rows.len() });
    }
    let mut board = Board::new();
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        let length = row.chars().count();
        if length != SIDE {
            return Err(PositionError::WrongRowLength { row: r, found: length });
        }
        for (c, ch) in row.chars().enumerate() {
            let mark = match ch {
                'X' => Some(Player::X),
                'O' => Some(Player::O),
                '.' => None,
                other => {
                    return Err(PositionError::BadCharacter {
                        row: r,
                        col: c,
                        found: other,
                    })
                }
            };
            if let (Some(player), Some(at)) = (mark, Coord::new(r, c)) {
                board.place_index(at.index(), player);
            }
        }
    }
    Ok(board)
}

fn parse_player(player: &str) -> Result<Player, PositionError> {
    match player {
        "X" => Ok(Player::X),
        "O" => Ok(Player::O),
        other => Err(PositionError::UnknownPlayer {
            found: other.to_string(),
        }),
    }
}

fn parse_dice(dice: i64) -> Result<u8, PositionError> {
    u8::try_from(dice)
        .ok()
        .filter(|d| (1..=DIE_FACES).contains(d))
        .ok_or(PositionError::DiceOutOfRange { found: dice })
}

/// Why a request's position was rejected (sent as the 422 detail).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("board: expected 9 rows, found {found}")]
    WrongRowCount { found: usize },
    #[error("board: row {row} has {found} characters, expected 9")]
    WrongRowLength { row: usize, found: usize },
    #[error("board: row {row}, column {col} holds {found:?}; expected 'X', 'O' or '.'")]
    BadCharacter { row: usize, col: usize, found: char },
    #[error("player: expected \"X\" or \"O\", found {found:?}")]
    UnknownPlayer { found: String },
    #[error("dice: expected a roll from 1 to 6, found {found}")]
    DiceOutOfRange { found: i64 },
    #[error("board: the grid is full, so the game is over and nothing can be placed")]
    GridFull,
}

/// Why a placement or a turn's placements were rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("placements: expected exactly {expected} placements, found {found}")]
    WrongCount { expected: usize, found: usize },
    #[error("placements: row {row}, column {col} is off the 9 x 9 grid (rows and columns are 0 to 8)")]
    OffGrid { row: i64, col: i64 },
    #[error("placements: row {row}, column {col} is already taken")]
    Occupied { row: usize, col: usize },
    #[error("placements: row {row}, column {col} is given twice")]
    Repeated { row: usize, col: usize },
    #[error("row {row}, column {col} is empty, there is no mark to remove")]
    NotOccupied { row: usize, col: usize },
    #[error("it is not a placement's turn: the die must be rolled first, or the game is over")]
    NotPlacing,
    #[error("it is not time to roll: placements are due, or the game is over")]
    NotRolling,
    #[error("die: expected a roll from 1 to 6, found {found}")]
    BadRoll { found: u8 },
}

/// Whose turn it is and in what phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The player must roll the die.
    Roll(Player),
    /// The player places `left` more marks this turn.
    Place { player: Player, left: u8 },
    /// The grid is full.
    Over,
}

/// A whole game: the board and the turn model (a roll, then that many
/// placements by the same player). X rolls first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NineSquareState {
    board: Board,
    turn: Turn,
    /// The face of the last roll (0 before the first): near the end it may
    /// exceed the marks the turn places.
    rolled: u8,
}

impl Default for NineSquareState {
    fn default() -> Self {
        NineSquareState::new()
    }
}

impl NineSquareState {
    /// An empty grid with X to roll.
    pub fn new() -> NineSquareState {
        NineSquareState {
            board: Board::new(),
            turn: Turn::Roll(Player::X),
            rolled: 0,
        }
    }

    /// A game in the middle of a turn: the position's player has rolled.
    pub fn from_position(position: &Position) -> NineSquareState {
        NineSquareState {
            board: position.board,
            turn: Turn::Place {
                player: position.player,
                left: position.placements_due() as u8,
            },
            rolled: position.dice,
        }
    }

    /// A game between turns: `roller` is about to roll on `board` (over
    /// if the grid is full).
    pub fn before_roll(board: Board, roller: Player) -> NineSquareState {
        NineSquareState {
            board,
            turn: if board.is_full() {
                Turn::Over
            } else {
                Turn::Roll(roller)
            },
            rolled: 0,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn turn(&self) -> Turn {
        self.turn
    }

    pub fn is_over(&self) -> bool {
        self.turn == Turn::Over
    }

    /// The face of the last roll (0 before the first).
    pub fn rolled(&self) -> u8 {
        self.rolled
    }

    /// The current turn as a position the solver or a strategy can answer,
    /// when a placement is due. `dice` is the roll as it was (it may exceed
    /// the marks left to place near the end).
    pub fn position(&self, dice: u8) -> Option<Position> {
        match self.turn {
            Turn::Place { player, .. } => Position::new(self.board, player, dice).ok(),
            _ => None,
        }
    }

    /// The roller's die came up `die`.
    pub fn roll(&mut self, die: u8) -> Result<(), MoveError> {
        let Turn::Roll(player) = self.turn else {
            return Err(MoveError::NotRolling);
        };
        if !(1..=DIE_FACES).contains(&die) {
            return Err(MoveError::BadRoll { found: die });
        }
        let left = die.min(self.board.empty);
        self.turn = Turn::Place { player, left };
        self.rolled = die;
        Ok(())
    }

    /// One placement of the current turn.
    pub fn place(&mut self, at: Coord) -> Result<(), MoveError> {
        let Turn::Place { player, left } = self.turn else {
            return Err(MoveError::NotPlacing);
        };
        self.board.place(at, player)?;
        self.turn = if self.board.is_full() {
            Turn::Over
        } else if left > 1 {
            Turn::Place { player, left: left - 1 }
        } else {
            Turn::Roll(player.opponent())
        };
        Ok(())
    }
}

/// A move through the [`game::Game`] trait: the roller's die (a chance
/// outcome), or one mark of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum NineSquareMove {
    Roll(u8),
    Place(Coord),
}

/// Through the trait a turn is a chance event (the roll) and then that
/// many turns of the same seat, one mark each.
impl game::Game for NineSquareState {
    type Move = NineSquareMove;

    fn turn(&self) -> GameTurn {
        match self.turn {
            Turn::Roll(_) => GameTurn::Chance,
            Turn::Place { player, .. } => GameTurn::Player(player.seat()),
            Turn::Over => GameTurn::Over,
        }
    }

    fn legal_moves(&self) -> Vec<NineSquareMove> {
        match self.turn {
            Turn::Place { .. } => self.board.empty_cells().map(NineSquareMove::Place).collect(),
            Turn::Roll(_) | Turn::Over => Vec::new(),
        }
    }

    fn chance_outcomes(&self) -> Vec<(NineSquareMove, f64)> {
        match self.turn {
            Turn::Roll(_) => (1..=DIE_FACES)
                .map(|face| (NineSquareMove::Roll(face), 1.0 / f64::from(DIE_FACES)))
                .collect(),
            Turn::Place { .. } | Turn::Over => Vec::new(),
        }
    }

    fn play(&mut self, mv: NineSquareMove) {
        // Not a legal move: the trait's callers offer only legal ones (a
        // debug build says so; a release build leaves the game as it was).
        let played = match mv {
            NineSquareMove::Roll(face) => self.roll(face),
            NineSquareMove::Place(at) => self.place(at),
        };
        debug_assert!(played.is_ok(), "an illegal move was played: {mv:?}");
    }

    fn result(&self) -> Option<GameOutcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.board.score().leader() {
            Some(player) => GameOutcome::Won(player.seat()),
            None => GameOutcome::Draw,
        })
    }
}
