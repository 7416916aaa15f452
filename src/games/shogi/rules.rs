//! The rules of shogi as Fairy-Stockfish 11.1 plays them (`UCI_Variant
//! shogi`, spoken to in USI): positions in SFEN with pieces in hand
//! ([`START_SFEN`]), moves in USI (`7g7f`, `8h2b+`, `P*5e`; see [`Move`]),
//! the legal moves (drops, the promotion zone, optional and forced
//! promotion, no piece placed where it could never move, two unpromoted
//! pawns on a file, the pawn-drop mate, the king not moving into check),
//! and the end of the game:
//!
//! - no legal move: the side to move loses ([`EndReason::Checkmate`] in
//!   check, [`EndReason::Stalemate`] otherwise, which Fairy-Stockfish
//!   scores as a loss too);
//! - sennichite as Fairy-Stockfish 11.1 applies it (`nFoldRule = 4`,
//!   `perpetualCheckIllegal`, `Position::is_optional_game_end`): the
//!   fourth occurrence of a position (board, both hands, side to move)
//!   ends the game; if one side checked with every one of its moves since
//!   the first of the four it loses ([`EndReason::PerpetualCheck`]; if both
//!   did, the side that just moved), otherwise a draw
//!   ([`EndReason::Repetition`]);
//! - impasse by declaration ([`ShogiState::declare_impasse`], the
//!   24-point rule: see [`Declaration`]), [`EndReason::Impasse`].
//!
//! Parse, don't validate: [`Position::from_sfen`] and
//! [`ShogiState::from_sfen_and_moves`] turn strings into states that cannot
//! be illegal, and every error names what is wrong.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::board::{Color, Hand, Kind, Piece, Position, Square};
pub use super::impasse::{Declaration, Verdict, DRAWING_POINTS, PIECES_IN_CAMP, WINNING_POINTS};
use super::movegen;
pub use super::notation::Move;
pub use super::sfen::{SfenError, SfenField, MAX_SFEN_LEN, START_SFEN};
use crate::games::game::{Game, GameOutcome, Turn};

/// A turn in a game: a move, or the side to move declaring impasse (a
/// game's own move type, as matches, reviews and the arena play it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShogiTurn {
    Play(Move),
    DeclareImpasse,
}

/// The word a declaration is written as where a move's USI would be.
const DECLARE_IMPASSE: &str = "impasse";

/// A turn travels as its move's USI (`"7g7f"`) or `"impasse"`.
impl Serialize for ShogiTurn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ShogiTurn::Play(mv) => mv.serialize(serializer),
            ShogiTurn::DeclareImpasse => serializer.serialize_str(DECLARE_IMPASSE),
        }
    }
}

impl<'de> Deserialize<'de> for ShogiTurn {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text == DECLARE_IMPASSE {
            return Ok(ShogiTurn::DeclareImpasse);
        }
        Move::parse(&text)
            .map(ShogiTurn::Play)
            .map_err(serde::de::Error::custom)
    }
}

/// Moves accepted in one request.
pub const MAX_MOVES: usize = 1024;

/// How often a position must occur to end the game (`nFoldRule`).
pub const REPETITIONS: usize = 4;

/// Why a game of shogi ended (the names the API uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// In check with no legal move: the side to move loses.
    Checkmate,
    /// Not in check with no legal move: the side to move loses too.
    Stalemate,
    /// The fourth occurrence of a position: a draw.
    Repetition,
    /// The fourth occurrence while one side checked on every move of the
    /// cycle: that side loses.
    PerpetualCheck,
    /// A declaration under the 24-point rule: its verdict.
    Impasse,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::Impasse => "impasse",
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
    pub winner: Option<Color>,
}

/// What is wrong with a request's position or moves: all of it is the
/// client's (422).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(transparent)]
    BadSfen(#[from] SfenError),
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
        // The start SFEN is a constant this module's tests read.
        Position::from_sfen(START_SFEN).unwrap_or_else(|e| unreachable!("the start SFEN is legal: {e}"))
    }
}

impl Position {
    /// Reads an SFEN (see [`super::sfen`]): an error names the field.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        super::sfen::parse_sfen(sfen)
    }

    /// The position's SFEN, four fields.
    pub fn sfen(&self) -> String {
        super::sfen::to_sfen(self)
    }

    /// The legal moves: board moves by origin, then drops.
    pub fn legal_moves(&self) -> Vec<Move> {
        movegen::legal_moves(self)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        movegen::in_check(self, self.side_to_move)
    }

    /// The legal move a USI move names, or why there is none.
    pub fn parse_move(&self, notation: &str) -> Result<Move, String> {
        let mv = Move::parse(notation)?;
        let us = self.side_to_move;
        match mv {
            Move::Board { from, .. } => match self.piece_at(from) {
                None => return Err(format!("is not legal: no piece on {from}")),
                Some(piece) if piece.color != us => {
                    return Err(format!(
                        "is not legal: the piece on {from} is {}'s and {us} is to move",
                        piece.color
                    ))
                }
                Some(_) => {}
            },
            Move::Drop { kind, .. } if self.in_hand(us, kind) == 0 => {
                return Err(format!("is not legal: {us} has no {kind:?} in hand"));
            }
            Move::Drop { .. } => {}
        }
        if self.legal_moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(format!("is not legal in {}", self.sfen()))
        }
    }

    /// The position after a legal move (one [`Self::legal_moves`] listed).
    pub fn after(&self, mv: Move) -> Position {
        movegen::after(self, mv)
    }

    /// What a declaration of impasse by the side to move would give (the
    /// 24-point rule).
    pub fn impasse_declaration(&self) -> Declaration {
        super::impasse::declaration(self)
    }
}

/// The number of leaf positions `depth` plies below `position` (perft).
pub fn perft(position: &Position, depth: u32) -> u64 {
    movegen::perft(position, depth)
}

/// A game: the position it started from, the moves played, every position
/// since (for repetition), and a declaration that ended it.
#[derive(Clone, Debug)]
pub struct ShogiState {
    start: Position,
    moves: Vec<Move>,
    /// The start and the position after each move; the last is current.
    history: Vec<Position>,
    /// Whether the side to move was in check, for each of `history`.
    checks: Vec<bool>,
    declared: Option<GameEnd>,
}

impl Default for ShogiState {
    fn default() -> Self {
        ShogiState::new(Position::default())
    }
}

impl ShogiState {
    pub fn new(start: Position) -> Self {
        let check = start.is_check();
        ShogiState {
            start: start.clone(),
            moves: Vec::new(),
            history: vec![start],
            checks: vec![check],
            declared: None,
        }
    }

    /// A game from an SFEN (None: the start) and USI moves, each checked;
    /// an error names the field or the move's index.
    pub fn from_sfen_and_moves(sfen: Option<&str>, moves: &[impl AsRef<str>]) -> Result<Self, RulesError> {
        if moves.len() > MAX_MOVES {
            return Err(RulesError::TooManyMoves(moves.len()));
        }
        let start = match sfen {
            Some(sfen) => Position::from_sfen(sfen)?,
            None => Position::default(),
        };
        let mut state = ShogiState::new(start);
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

    /// Plays a USI move; the error says why it cannot be played (bad
    /// notation, not legal, or the game is over).
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

    /// The side to move declares impasse (24-point rule): the game ends
    /// with the declaration's verdict, which is returned with its count.
    /// Refused when the game is already over.
    pub fn declare_impasse(&mut self) -> Result<Declaration, RulesError> {
        if let Some(end) = self.end() {
            return Err(RulesError::GameOver(end.reason));
        }
        let declaration = self.position().impasse_declaration();
        let declarer = declaration.declarer;
        let winner = match declaration.verdict {
            Verdict::Win => Some(declarer),
            Verdict::Draw => None,
            Verdict::Loss => Some(declarer.other()),
        };
        self.declared = Some(GameEnd {
            reason: EndReason::Impasse,
            winner,
        });
        Ok(declaration)
    }

    pub fn position(&self) -> &Position {
        // `history` always holds the start.
        &self.history[self.history.len() - 1]
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn sfen(&self) -> String {
        self.position().sfen()
    }

    pub fn start_sfen(&self) -> String {
        self.start.sfen()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    pub fn is_check(&self) -> bool {
        self.checks.last().copied().unwrap_or(false)
    }

    /// The USI `position` command's argument for Fairy-Stockfish: the start
    /// SFEN and the moves (so the engine sees the repetitions too).
    pub fn usi_position(&self) -> String {
        let mut text = format!("sfen {}", self.start_sfen());
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
        if self.declared.is_some() {
            return self.declared;
        }
        if self.position().legal_moves().is_empty() {
            let reason = if self.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(GameEnd {
                reason,
                winner: Some(self.side_to_move().other()),
            });
        }
        self.repetition()
    }

    /// Fairy-Stockfish 11.1's n-fold repetition at the root
    /// (`Position::is_optional_game_end`): positions two plies apart are
    /// compared back to the start (captured pieces go to the hand, so no
    /// move is irreversible), and the check flags of both sides' positions
    /// in between decide whether someone checked perpetually.
    fn repetition(&self) -> Option<GameEnd> {
        let now = self.history.len() - 1;
        if now < 4 {
            return None;
        }
        let current = &self.history[now];
        let us = current.side_to_move();
        // "Them" (who just moved) checked us in every position we faced;
        // "us" checked them in every position they faced.
        let mut perpetual_them = self.checks[now] && self.checks[now - 2];
        let mut perpetual_us = self.checks[now - 1] && self.checks[now - 3];
        let mut earlier_occurrences = 0;
        for back in (4..=now).step_by(2) {
            let earlier = now - back;
            perpetual_them &= self.checks[earlier];
            if self.history[earlier].same_position(current) {
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
            if back < now {
                perpetual_us &= self.checks[earlier - 1];
            }
        }
        None
    }
}

impl ShogiState {
    /// The declaration of impasse the side to move may make: the game goes
    /// on and the declaration would win or draw. The 24-point rule lets a
    /// side declare at any time and lose; a declaration that can only lose
    /// is not offered, so that no click or random player throws a game away.
    pub fn impasse_offer(&self) -> Option<Declaration> {
        if self.end().is_some() {
            return None;
        }
        self.declaration_not_losing()
    }

    /// [`Self::impasse_offer`] once the game is known to go on.
    fn declaration_not_losing(&self) -> Option<Declaration> {
        let declaration = self.position().impasse_declaration();
        (declaration.verdict != Verdict::Loss).then_some(declaration)
    }
}

/// A game's turns: its moves, and the declaration of impasse where it
/// would not lose ([`ShogiState::impasse_offer`]).
impl Game for ShogiState {
    type Move = ShogiTurn;

    fn turn(&self) -> Turn {
        if self.end().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.side_to_move().index())
        }
    }

    fn legal_moves(&self) -> Vec<ShogiTurn> {
        // `end()` spelled out, so that the moves are generated once.
        if self.declared.is_some() {
            return Vec::new();
        }
        let moves = self.position().legal_moves();
        if moves.is_empty() || self.repetition().is_some() {
            return Vec::new();
        }
        let mut turns: Vec<ShogiTurn> = moves.into_iter().map(ShogiTurn::Play).collect();
        if self.declaration_not_losing().is_some() {
            turns.push(ShogiTurn::DeclareImpasse);
        }
        turns
    }

    fn play(&mut self, turn: ShogiTurn) {
        // The trait's contract: only turns `legal_moves` offered.
        match turn {
            ShogiTurn::Play(mv) => self.push(mv),
            ShogiTurn::DeclareImpasse => {
                // Refused only when the game is over, which `legal_moves`
                // rules out.
                let _ = self.declare_impasse();
            }
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        self.end().map(|end| match end.winner {
            Some(color) => GameOutcome::Won(color.index()),
            None => GameOutcome::Draw,
        })
    }
}
