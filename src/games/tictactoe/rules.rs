//! The rules of the game: positions, moves, the end of the game.
use crate::core::game::{Game, GameOutcome, Turn};

/// The largest number of rows or columns accepted.
pub const MAX_SIDE: usize = 19;
/// Boards with both sides up to this use their longer side as the default k.
pub const SMALL_BOARD_SIDE: usize = 5;
/// The default k on every larger board (gomoku).
pub const LARGE_BOARD_K: usize = 5;

pub use crate::core::player::Player;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Won(Player),
    Draw,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TicTacToeError {
    #[error("k must be a positive integer (got {k})")]
    KNotPositive { k: i64 },
    #[error("board has {rows} rows; expected 1 to 19 row strings")]
    RowCount { rows: usize },
    #[error("board rows have {cols} cells; expected 1 to 19 characters per row")]
    ColumnCount { cols: usize },
    #[error("board[{row}] has {len} cells but board[0] has {expected}; every row must have the same length")]
    RaggedRows { row: usize, len: usize, expected: usize },
    #[error("board[{row}] has {found:?} at column {col}; only 'X', 'O' and '.' are allowed")]
    BadCharacter { row: usize, col: usize, found: char },
    #[error("k = {k} is out of range; expected 1 to {max} (the board's longer side)")]
    KOutOfRange { k: usize, max: usize },
    #[error("the board has {x} X and {o} O; X moves first, so the X count must equal the O count or exceed it by one")]
    BadCounts { x: usize, o: usize },
    #[error("both X and O have {k} in a row; the game ends at the first line, so only one player can have one")]
    BothPlayersHaveLines { k: usize },
    #[error("{player} has {k} in a row, but the game went on after that line was completed (the lines share no last move, or {player} did not move last)")]
    LineAfterGameOver { player: Player, k: usize },
    #[error("{}", game_over_message(*result, *k))]
    GameOver { result: GameResult, k: usize },
    #[error("move {index} is outside the board; expected a cell index from 0 to {last}")]
    MoveOutOfRange { index: usize, last: usize },
    #[error("row {row}, column {col} is off the board; the board has {rows} rows and {cols} columns")]
    OffBoard {
        row: usize,
        col: usize,
        rows: usize,
        cols: usize,
    },
    #[error("cell {index} (row {row}, column {col}) is already taken")]
    CellTaken { index: usize, row: usize, col: usize },
}

fn game_over_message(result: GameResult, k: usize) -> String {
    match result {
        GameResult::Won(player) => {
            format!("the game is already over: {player} has {k} in a row")
        }
        GameResult::Draw => "the game is already over: the board is full (a draw)".to_string(),
    }
}

/// A straight run of `len` cells: `start`, `start + step`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub start: usize,
    pub step: usize,
    pub len: usize,
}

impl Line {
    pub fn cells(self) -> impl Iterator<Item = usize> {
        (0..self.len).map(move |i| self.start + i * self.step)
    }
}

/// Every run of `k` cells in a row on a `rows` x `cols` board: the places
/// where a line can be made. With k = 1 each cell is one run (not four).
pub fn lines(rows: usize, cols: usize, k: usize) -> Vec<Line> {
    // (row step, col step) as signed offsets; the anti-diagonal goes down-left.
    let directions: &[(isize, isize)] = if k == 1 {
        &[(0, 1)]
    } else {
        &[(0, 1), (1, 0), (1, 1), (1, -1)]
    };
    let mut found = Vec::new();
    if k == 0 {
        return found;
    }
    let reach = (k - 1) as isize;
    for row in 0..rows as isize {
        for col in 0..cols as isize {
            for &(dr, dc) in directions {
                let end_row = row + dr * reach;
                let end_col = col + dc * reach;
                let inside = (0..rows as isize).contains(&end_row) && (0..cols as isize).contains(&end_col);
                if inside {
                    // dr >= 0 and dr * cols + dc >= 0 for every direction.
                    let step = (dr * cols as isize + dc) as usize;
                    found.push(Line {
                        start: (row * cols as isize + col) as usize,
                        step,
                        len: k,
                    });
                }
            }
        }
    }
    found
}

/// The cells of a board: its size, k, and who holds each cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    k: usize,
    cells: Vec<Option<Player>>,
}

impl Board {
    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// Who holds each cell, row by row (index = row * cols + col).
    pub fn cells(&self) -> &[Option<Player>] {
        &self.cells
    }

    /// The holder of a cell; None when it is empty or off the board.
    pub fn get(&self, row: usize, col: usize) -> Option<Player> {
        self.index_of(row, col).and_then(|i| self.cells[i])
    }

    pub fn index_of(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.rows && col < self.cols).then_some(row * self.cols + col)
    }

    /// (row, col) of a cell index.
    pub fn row_col(&self, index: usize) -> (usize, usize) {
        (index / self.cols, index % self.cols)
    }

    pub fn count(&self, player: Player) -> usize {
        self.cells.iter().filter(|c| **c == Some(player)).count()
    }

    pub fn empty_cells(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    /// The board as row strings over `X`, `O` and `.`.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.cols)
            .map(|row| row.iter().map(|c| c.map_or('.', Player::symbol)).collect())
            .collect()
    }

    /// True when `player` has k in a row through `index`.
    fn line_through(&self, index: usize, player: Player) -> bool {
        let (row, col) = self.row_col(index);
        let held = |r: isize, c: isize| r >= 0 && c >= 0 && self.get(r as usize, c as usize) == Some(player);
        [(0isize, 1isize), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: isize| {
                (1..)
                    .take_while(|&i| held(row as isize + sign * dr * i, col as isize + sign * dc * i))
                    .count()
            };
            1 + run(1) + run(-1) >= self.k
        })
    }
}

/// A game in progress: reachable from the empty board by legal play, not
/// over, so the player to move has at least one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    to_move: Player,
}

/// A game that has ended, and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FinishedGame {
    board: Board,
    result: GameResult,
}

impl FinishedGame {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn result(&self) -> GameResult {
        self.result
    }
}

/// What a move leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterMove {
    Continues(Position),
    Over(FinishedGame),
}

/// The default k for a board of this size (see the module notes).
pub fn default_k(rows: usize, cols: usize) -> usize {
    if rows <= SMALL_BOARD_SIDE && cols <= SMALL_BOARD_SIDE {
        rows.max(cols)
    } else {
        LARGE_BOARD_K
    }
}

fn check_size(rows: usize, cols: usize) -> Result<(), TicTacToeError> {
    if !(1..=MAX_SIDE).contains(&rows) {
        return Err(TicTacToeError::RowCount { rows });
    }
    if !(1..=MAX_SIDE).contains(&cols) {
        return Err(TicTacToeError::ColumnCount { cols });
    }
    Ok(())
}

fn resolve_k(rows: usize, cols: usize, k: Option<usize>) -> Result<usize, TicTacToeError> {
    let max = rows.max(cols);
    let k = k.unwrap_or_else(|| default_k(rows, cols));
    if (1..=max).contains(&k) {
        Ok(k)
    } else {
        Err(TicTacToeError::KOutOfRange { k, max })
    }
}

fn parse_cells<S: AsRef<str>>(rows: &[S]) -> Result<(usize, Vec<Option<Player>>), TicTacToeError> {
    if rows.is_empty() || rows.len() > MAX_SIDE {
        return Err(TicTacToeError::RowCount { rows: rows.len() });
    }
    let cols = rows[0].as_ref().chars().count();
    check_size(rows.len(), cols)?;
    let mut cells = Vec::with_capacity(rows.len() * cols);
    for (row, text) in rows.iter().enumerate() {
        let len = text.as_ref().chars().count();
        if len != cols {
            return Err(TicTacToeError::RaggedRows {
                row,
                len,
                expected: cols,
            });
        }
        for (col, found) in text.as_ref().chars().enumerate() {
            let cell = match found {
                'X' => Some(Player::X),
                'O' => Some(Player::O),
                '.' => None,
                _ => return Err(TicTacToeError::BadCharacter { row, col, found }),
            };
            cells.push(cell);
        }
    }
    Ok((cols, cells))
}

/// The complete lines each player holds.
fn complete_lines(board: &Board) -> [Vec<Line>; 2] {
    let mut held = [Vec::new(), Vec::new()];
    for line in lines(board.rows, board.cols, board.k) {
        let mut owners = line.cells().map(|i| board.cells[i]);
        let first = owners.next().flatten();
        if let Some(player) = first {
            if owners.all(|o| o == Some(player)) {
                held[player.seat()].push(line);
            }
        }
    }
    held
}

/// True when one cell lies on every line, so a single last move could have
/// completed them all at once.
fn share_a_cell(board: &Board, held: &[Line]) -> bool {
    let mut on_lines = vec![0usize; board.cells.len()];
    for line in held {
        for cell in line.cells() {
            on_lines[cell] += 1;
        }
    }
    on_lines.contains(&held.len())
}

impl Position {
    /// Parse row strings over `X`, `O`, `.` and an optional k into a game in
    /// progress. Rejects boards that cannot arise in play and boards whose
    /// game is over.
    pub fn parse<S: AsRef<str>>(rows: &[S], k: Option<usize>) -> Result<Position, TicTacToeError> {
        let (cols, cells) = parse_cells(rows)?;
        let k = resolve_k(rows.len(), cols, k)?;
        let board = Board {
            rows: rows.len(),
            cols,
            k,
            cells,
        };
        let (x, o) = (board.count(Player::X), board.count(Player::O));
        let last_mover = if x == o + 1 {
            Player::X
        } else if x == o {
            Player::O
        } else {
            return Err(TicTacToeError::BadCounts { x, o });
        };
        let [x_lines, o_lines] = complete_lines(&board);
        let (winner, held) = match (x_lines.is_empty(), o_lines.is_empty()) {
            (false, false) => return Err(TicTacToeError::BothPlayersHaveLines { k }),
            (false, true) => (Player::X, x_lines),
            (true, false) => (Player::O, o_lines),
            (true, true) if board.empty_cells() == 0 => {
                let result = GameResult::Draw;
                return Err(TicTacToeError::GameOver { result, k });
            }
            (true, true) => {
                let to_move = last_mover.opponent();
                return Ok(Position { board, to_move });
            }
        };
        // One move completes every line at once, and it was the last move.
        if winner != last_mover || !share_a_cell(&board, &held) {
            return Err(TicTacToeError::LineAfterGameOver { player: winner, k });
        }
        let result = GameResult::Won(winner);
        Err(TicTacToeError::GameOver { result, k })
    }

    /// `k` as a client may send it (any integer), as [`Position::parse`]
    /// and [`Position::new_game`] take it; whether it fits the board is
    /// theirs to say.
    pub fn win_length(k: Option<i64>) -> Result<Option<usize>, TicTacToeError> {
        k.map(|k| usize::try_from(k).map_err(|_| TicTacToeError::KNotPositive { k }))
            .transpose()
    }

    /// The empty board of this size, X to move.
    pub fn new_game(rows: usize, cols: usize, k: Option<usize>) -> Result<Position, TicTacToeError> {
        check_size(rows, cols)?;
        let k = resolve_k(rows, cols, k)?;
        Ok(Position {
            board: Board {
                rows,
                cols,
                k,
                cells: vec![None; rows * cols],
            },
            to_move: Player::X,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rows(&self) -> usize {
        self.board.rows
    }

    pub fn cols(&self) -> usize {
        self.board.cols
    }

    pub fn k(&self) -> usize {
        self.board.k
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    pub fn to_rows(&self) -> Vec<String> {
        self.board.to_rows()
    }

    /// The empty cells, lowest index first (index = row * cols + col).
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..self.board.cells.len())
            .filter(|&i| self.board.cells[i].is_none())
            .collect()
    }

    pub fn is_legal(&self, index: usize) -> bool {
        self.board.cells.get(index).is_some_and(|c| c.is_none())
    }

    /// The player to move takes cell `index`.
    pub fn play(&self, index: usize) -> Result<AfterMove, TicTacToeError> {
        match self.board.cells.get(index) {
            None => {
                return Err(TicTacToeError::MoveOutOfRange {
                    index,
                    last: self.board.cells.len() - 1,
                })
            }
            Some(Some(_)) => {
                let (row, col) = self.board.row_col(index);
                return Err(TicTacToeError::CellTaken { index, row, col });
            }
            Some(None) => {}
        }
        let mut board = self.board.clone();
        board.cells[index] = Some(self.to_move);
        if board.line_through(index, self.to_move) {
            let result = GameResult::Won(self.to_move);
            return Ok(AfterMove::Over(FinishedGame { board, result }));
        }
        if board.empty_cells() == 0 {
            let result = GameResult::Draw;
            return Ok(AfterMove::Over(FinishedGame { board, result }));
        }
        Ok(AfterMove::Continues(Position {
            board,
            to_move: self.to_move.opponent(),
        }))
    }

    /// The player to move takes (row, col).
    pub fn play_at(&self, row: usize, col: usize) -> Result<AfterMove, TicTacToeError> {
        match self.board.index_of(row, col) {
            Some(index) => self.play(index),
            None => Err(TicTacToeError::OffBoard {
                row,
                col,
                rows: self.board.rows,
                cols: self.board.cols,
            }),
        }
    }
}

/// A game at any point, over or not: tic-tac-toe as the [`Game`] trait
/// sees it (the match engine and the arena drive it through that).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    board: Board,
    to_move: Player,
    result: Option<GameResult>,
}

impl From<Position> for TicTacToeState {
    fn from(position: Position) -> TicTacToeState {
        TicTacToeState {
            board: position.board,
            to_move: position.to_move,
            result: None,
        }
    }
}

impl TicTacToeState {
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position to search, while the game goes on.
    pub fn position(&self) -> Option<Position> {
        self.result.is_none().then(|| Position {
            board: self.board.clone(),
            to_move: self.to_move,
        })
    }
}

impl Game for TicTacToeState {
    /// A cell index, row * cols + col.
    type Move = usize;

    fn turn(&self) -> Turn {
        if self.result.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.to_move.seat())
        }
    }

    fn legal_moves(&self) -> Vec<usize> {
        self.position().map(|p| p.legal_moves()).unwrap_or_default()
    }

    fn play(&mut self, index: usize) {
        let Some(position) = self.position() else { return };
        match position.play(index) {
            Ok(AfterMove::Continues(next)) => *self = TicTacToeState::from(next),
            Ok(AfterMove::Over(end)) => {
                self.board = end.board;
                self.result = Some(end.result);
            }
            // Not a legal move: the trait's callers offer only legal ones (a
            // debug build says so; a release build leaves the game as it was).
            Err(e) => debug_assert!(false, "an illegal move was played: {index}: {e}"),
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        self.result.map(|r| match r {
            GameResult::Won(p) => GameOutcome::Won(p.seat()),
            GameResult::Draw => GameOutcome::Draw,
        })
    }
}
