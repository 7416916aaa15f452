//! The rules of xiangqi as Fairy-Stockfish 11.1 plays them (`UCI_Variant
//! xiangqi`): positions in its FEN ([`START_FEN`]), moves in its coordinate
//! notation with ranks 1-10 (`h3e3`, `b3b10`; see [`Move`]), every move
//! rule (flying general, palace, river, elephant eye, horse leg, cannon
//! screen, soldiers sideways across the river), check, and the end of the
//! game:
//!
//! - no legal move: the side to move loses, by [`EndReason::Checkmate`]
//!   when in check and [`EndReason::Stalemate`] when not;
//! - repetition as Fairy-Stockfish 11.1 applies it (`nFoldRule = 3`,
//!   `perpetualCheckIllegal`, `Position::is_optional_game_end`): when a
//!   position (pieces and side to move) occurs the third time, counting
//!   only positions since the last capture, the game ends. If one side
//!   gave check with every one of its moves since the first of the three,
//!   it loses ([`EndReason::PerpetualCheck`]; if both did, the side that
//!   just moved loses, as Fairy-Stockfish decides); otherwise a draw
//!   ([`EndReason::Repetition`]). Fairy-Stockfish 11.1 has no chasing rule
//!   (it came in a later version), so neither does kibitz.
//! - Fairy-Stockfish's default move rule, which xiangqi keeps: 100 plies
//!   without a capture are a draw ([`EndReason::MoveLimit`]).
//!
//! Parse, don't validate: [`Position::from_fen`] and
//! [`XiangqiState::from_fen_and_moves`] turn strings into states that
//! cannot be illegal, and every error names what is wrong.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::board::{Kind, Piece, Position, Side, Square};
pub use super::fen::{FenError, FenField, MAX_FEN_LEN, START_FEN};
use super::movegen;
pub use super::notation::Move;
use crate::games::game::{Game, GameOutcome, Turn};

/// Moves accepted in one request.
pub const MAX_MOVES: usize = 1024;

/// Plies without a capture after which the game is drawn (Fairy-Stockfish's
/// `nMoveRule = 50` moves).
pub const MOVE_LIMIT_PLIES: u32 = 100;

/// How often a position must occur to end the game (`nFoldRule`).
pub const REPETITIONS: usize = 3;

/// Why a game of xiangqi ended (the names the API uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// In check with no legal move: the side to move loses.
    Checkmate,
    /// Not in check with no legal move: the side to move loses too.
    Stalemate,
    /// A position occurred three times: a draw.
    Repetition,
    /// A position occurred three times while one side checked on every
    /// move of the cycle: that side loses.
    PerpetualCheck,
    /// 100 plies without a capture: a draw.
    MoveLimit,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::MoveLimit => "move_limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a game: why, and who won (None: a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub reason: EndReason,
    pub winner: Option<Side>,
}

/// What is wrong with a request's position or moves: all of it is the
/// client's (422).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    BadFen(#[from] FenError),
    #[error("moves[{index}] ({notation:?}) {reason}")]
    IllegalMove {
        index: usize,
        notation: String,
        reason: String,
    },
    #[error("moves: at most {MAX_MOVES} moves, got {0}")]
    TooManyMoves(usize),
    #[error("the game is over ({0})")]
    GameOver(EndReason),
}

impl Default for Position {
    fn default() -> Self {
        // The start FEN is a constant this module's tests read.
        Position::from_fen(START_FEN).unwrap_or_else(|e| unreachable!("the start FEN is legal: {e}"))
    }
}

impl Position {
    /// Reads a FEN (see [`super::fen`]): an error names the field.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        super::fen::parse_fen(fen)
    }

    /// The position's FEN, six fields.
    pub fn fen(&self) -> String {
        super::fen::to_fen(self)
    }

    /// The legal moves, ordered by origin then destination.
    pub fn legal_moves(&self) -> Vec<Move> {
        movegen::legal_moves(self)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        movegen::general_attacked(self, self.side_to_move)
    }

    /// The legal move a notation names, or why there is none.
    pub fn parse_move(&self, notation: &str) -> Result<Move, String> {
        let mv = Move::parse(notation)?;
        match self.piece_at(mv.from) {
            None => return Err(format!("is not legal: no piece on {}", mv.from)),
            Some(piece) if piece.side != self.side_to_move => {
                return Err(format!(
                    "is not legal: the piece on {} is {}'s and {} is to move",
                    mv.from, piece.side, self.side_to_move
                ))
            }
            Some(_) => {}
        }
        if self.legal_moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(format!("is not legal in {}", self.fen()))
        }
    }

    /// The position after a legal move (one [`Self::legal_moves`] listed).
    pub fn after(&self, mv: Move) -> Position {
        movegen::after(self, mv)
    }
}

/// The number of leaf positions `depth` plies below `position` (perft).
pub fn perft(position: &Position, depth: u32) -> u64 {
    movegen::perft(position, depth)
}

/// A game: the position it started from, the moves played, and every
/// position since (for repetition).
#[derive(Clone, Debug)]
pub struct XiangqiState {
    start: Position,
    moves: Vec<Move>,
    /// The start and the position after each move; the last is current.
    history: Vec<Position>,
    /// Whether the side to move was in check, for each of `history`.
    checks: Vec<bool>,
}

impl Default for XiangqiState {
    fn default() -> Self {
        XiangqiState::new(Position::default())
    }
}

impl XiangqiState {
    pub fn new(start: Position) -> Self {
        let check = start.is_check();
        XiangqiState {
            start: start.clone(),
            moves: Vec::new(),
            history: vec![start],
            checks: vec![check],
        }
    }

    /// A game from a FEN (None: the start) and moves in notation, each
    /// checked; an error names the field or the move's index.
    pub fn from_fen_and_moves(fen: Option<&str>, moves: &[impl AsRef<str>]) -> Result<Self, RulesError> {
        if moves.len() > MAX_MOVES {
            return Err(RulesError::TooManyMoves(moves.len()));
        }
        let start = match fen {
            Some(fen) => Position::from_fen(fen)?,
            None => Position::default(),
        };
        let mut state = XiangqiState::new(start);
        for (index, notation) in moves.iter().enumerate() {
            let notation = notation.as_ref();
            state
                .play_notation(notation)
                .map_err(|reason| RulesError::IllegalMove {
                    index,
                    notation: notation.to_string(),
                    reason,
                })?;
        }
        Ok(state)
    }

    /// Plays a move given in notation; the error says why it cannot be
    /// played (bad notation, not legal, or the game is over).
    pub fn play_notation(&mut self, notation: &str) -> Result<Move, String> {
        if let Some(end) = self.end() {
            return Err(format!("cannot be played: the game is over ({})", end.reason));
        }
        let mv = self.position().parse_move(notation)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays a move if it is legal and the game is not over.
    pub fn try_play(&mut self, mv: Move) -> Result<(), String> {
        self.play_notation(&mv.notation()).map(|_| ())
    }

    fn push(&mut self, mv: Move) {
        let next = self.position().after(mv);
        self.checks.push(next.is_check());
        self.history.push(next);
        self.moves.push(mv);
    }

    pub fn position(&self) -> &Position {
        // `history` always holds the start.
        &self.history[self.history.len() - 1]
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn fen(&self) -> String {
        self.position().fen()
    }

    pub fn start_fen(&self) -> String {
        self.start.fen()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    pub fn is_check(&self) -> bool {
        self.checks.last().copied().unwrap_or(false)
    }

    /// The UCI `position` command's argument for Fairy-Stockfish: the
    /// start FEN and the moves (so the engine sees the repetitions too).
    pub fn uci_position(&self) -> String {
        let mut text = format!("fen {}", self.start_fen());
        if !self.moves.is_empty() {
            text.push_str(" moves");
            for mv in &self.moves {
                text.push(' ');
                text.push_str(&mv.notation());
            }
        }
        text
    }

    /// How the game ended, or None while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        let position = self.position();
        let us = position.side_to_move();
        if position.legal_moves().is_empty() {
            let reason = if self.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(GameEnd {
                reason,
                winner: Some(us.other()),
            });
        }
        if let Some(end) = self.repetition() {
            return Some(end);
        }
        (position.halfmoves() >= MOVE_LIMIT_PLIES).then_some(GameEnd {
            reason: EndReason::MoveLimit,
            winner: None,
        })
    }

    /// Fairy-Stockfish 11.1's n-fold repetition at the root
    /// (`Position::is_optional_game_end`): positions two plies apart are
    /// compared, back to the last capture, and the check flags of both
    /// sides' positions in between decide whether someone checked
    /// perpetually.
    fn repetition(&self) -> Option<GameEnd> {
        let now = self.history.len() - 1;
        let current = &self.history[now];
        let window = (current.halfmoves() as usize).min(now);
        if window < 4 {
            return None;
        }
        let us = current.side_to_move();
        // "Them" (who just moved) checked us in every position we faced;
        // "us" checked them in every position they faced.
        let mut perpetual_them = self.checks[now] && self.checks[now - 2];
        let mut perpetual_us = self.checks[now - 1] && self.checks[now - 3];
        let mut earlier_occurrences = 0;
        for back in (4..=window).step_by(2) {
            let earlier = now - back;
            perpetual_them &= self.checks[earlier];
            if self.history[earlier].same_placement(current) {
                earlier_occurrences += 1;
                if earlier_occurrences + 1 == REPETITIONS {
                    let (reason, winner) = if perpetual_them {
                        (EndReason::PerpetualCheck, Some(us))
                    } else if perpetual_us {
                        (EndReason::PerpetualCheck, Some(us.other()))
                    } else {
                        (EndReason::Repetition, None)
                    };
                    return Some(GameEnd { reason, winner });
                }
            }
            if back < window {
                perpetual_us &= self.checks[earlier - 1];
            }
        }
        None
    }
}

impl Game for XiangqiState {
    type Move = Move;

    fn turn(&self) -> Turn {
        if self.end().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.side_to_move().index())
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.end().is_some() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    fn play(&mut self, mv: Move) {
        // The trait's contract: only moves `legal_moves` offered.
        self.push(mv);
    }

    fn result(&self) -> Option<GameOutcome> {
        self.end().map(|end| match end.winner {
            Some(side) => GameOutcome::Won(side.index()),
            None => GameOutcome::Draw,
        })
    }
}
