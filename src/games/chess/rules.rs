//! The rules of chess, on `cozy_chess` (MIT) for move generation: FEN read
//! field by field with errors that name the field, moves in UCI notation
//! checked for legality with the failing index named, SAN (`super::san`),
//! check, and the end of the game.
//!
//! cozy-chess writes castling as the king taking its own rook (`e1h1`);
//! kibitz speaks standard UCI (`e1g1`) and converts at this boundary. The
//! draw rules cozy-chess leaves out (insufficient material, threefold
//! repetition, an unbounded fifty-move count) are kept here.
//!
//! Parse, don't validate: [`parse_fen`] and [`ChessState::from_fen_and_moves`]
//! turn a request's strings into a state that cannot be illegal; nothing
//! after them checks again.

use std::fmt;

pub use cozy_chess::Color;
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_line_rays, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, BoardBuilder, BoardBuilderError, CastleRights, File, Move, Piece, Rank, Square,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::san;
use crate::games::game::{Game, GameOutcome, Seat, Turn};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN longer than this is refused before it is parsed (the longest
/// legal one is under 100 characters).
pub const MAX_FEN_LEN: usize = 128;

/// Moves accepted in one request (a long game is a few hundred plies).
pub const MAX_MOVES: usize = 1024;

/// The six fields of a FEN, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The FEN as a whole (empty, too long, too many fields).
    Whole,
    PiecePlacement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
}

impl FenField {
    pub fn as_str(self) -> &'static str {
        match self {
            FenField::Whole => "the FEN",
            FenField::PiecePlacement => "piece placement (field 1)",
            FenField::SideToMove => "side to move (field 2)",
            FenField::Castling => "castling availability (field 3)",
            FenField::EnPassant => "en passant square (field 4)",
            FenField::HalfmoveClock => "halfmove clock (field 5)",
            FenField::FullmoveNumber => "fullmove number (field 6)",
        }
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game of chess ended (the names the match API uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FiftyMoves,
    ThreefoldRepetition,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient_material",
            EndReason::FiftyMoves => "fifty_moves",
            EndReason::ThreefoldRepetition => "threefold_repetition",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is wrong with a chess request. All of it is the client's: 422.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("fen: {field} is invalid: {detail}")]
    BadFen { field: FenField, detail: String },
    #[error("moves[{index}] ({uci:?}) {reason}")]
    IllegalMove { index: usize, uci: String, reason: String },
    #[error("moves: at most {MAX_MOVES} moves, got {0}")]
    TooManyMoves(usize),
    #[error("the game is over ({0})")]
    GameOver(EndReason),
}

fn bad(field: FenField, detail: impl Into<String>) -> RulesError {
    RulesError::BadFen {
        field,
        detail: detail.into(),
    }
}

/// Reads a FEN of standard chess. Fields after the piece placement may be
/// left off (side to move `w`, no castling, no en passant, clocks 0 and 1),
/// as lichess accepts; each present field is checked, and an error names
/// the first wrong one. The position must also be legal (kings, pawns,
/// castling rights that match the rooks, the side not to move not in
/// check).
pub fn parse_fen(fen: &str) -> Result<ChessPosition, RulesError> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err(bad(FenField::Whole, "it is empty"));
    }
    if fen.len() > MAX_FEN_LEN {
        return Err(bad(
            FenField::Whole,
            format!("it is longer than {MAX_FEN_LEN} characters"),
        ));
    }
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() > 6 {
        return Err(bad(
            FenField::Whole,
            format!("it has {} space-separated fields, at most 6 expected", fields.len()),
        ));
    }
    // cozy-chess's FEN errors lump many faults together (a side not to
    // move in check is an "invalid board"), so each field's syntax is
    // checked here, then the position's legality (`Setup::problems`),
    // each fault named by its field; cozy-chess builds the board last.
    check_placement(fields[0])?;
    let turn = match fields.get(1).copied() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(turn) => return Err(bad(FenField::SideToMove, format!("{turn:?}: expected \"w\" or \"b\""))),
    };
    let castling = fields.get(2).copied().unwrap_or("-");
    check_castling(castling)?;
    let ep = fields.get(3).copied().unwrap_or("-");
    check_ep(ep)?;
    let halfmoves = match fields.get(4) {
        None => 0,
        Some(clock) => clock.parse::<u32>().map_err(|_| {
            bad(
                FenField::HalfmoveClock,
                format!("{clock:?}: expected a whole number of half-moves, 0 or more"),
            )
        })?,
    };
    let fullmoves = match fields.get(5) {
        None => 1,
        Some(number) => number.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
            bad(
                FenField::FullmoveNumber,
                format!("{number:?}: expected a whole number, 1 or more"),
            )
        })?,
    };
    let setup = Setup {
        squares: read_placement(fields[0]),
        turn,
        castling: castling.to_string(),
        ep: parse_square(ep.as_bytes()),
    };
    let board = setup.into_board()?;
    Ok(ChessPosition {
        board,
        halfmoves,
        fullmoves,
    })
}

fn check_placement(placement: &str) -> Result<(), RulesError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(bad(
            FenField::PiecePlacement,
            format!("{} ranks separated by '/', expected 8", ranks.len()),
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let mut squares = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => squares += c.to_digit(10).unwrap_or(0),
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => squares += 1,
                _ => {
                    return Err(bad(
                        FenField::PiecePlacement,
                        format!(
                            "{c:?} in rank {} is not a piece (pnbrqk, PNBRQK) or a count of empty squares (1-8)",
                            8 - i
                        ),
                    ))
                }
            }
        }
        if squares != 8 {
            return Err(bad(
                FenField::PiecePlacement,
                format!("rank {} ({rank:?}) covers {squares} squares, expected 8", 8 - i),
            ));
        }
    }
    Ok(())
}

fn check_castling(castling: &str) -> Result<(), RulesError> {
    if castling == "-" {
        return Ok(());
    }
    let mut seen = Vec::new();
    for c in castling.chars() {
        if !matches!(c, 'K' | 'Q' | 'k' | 'q') || seen.contains(&c) {
            return Err(bad(
                FenField::Castling,
                format!("{castling:?}: expected \"-\" or some of \"KQkq\", each once"),
            ));
        }
        seen.push(c);
    }
    Ok(())
}

fn check_ep(ep: &str) -> Result<(), RulesError> {
    let b = ep.as_bytes();
    let ok = ep == "-" || (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b[1] == b'3' || b[1] == b'6'));
    if ok {
        Ok(())
    } else {
        Err(bad(
            FenField::EnPassant,
            format!("{ep:?}: expected \"-\" or a square on rank 3 or 6"),
        ))
    }
}

/// The squares of a placement already checked by [`check_placement`]
/// (index 0 is a1, 63 is h8, as cozy-chess numbers them).
fn read_placement(placement: &str) -> [Option<(Piece, Color)>; Square::NUM] {
    let mut squares = [None; Square::NUM];
    for (i, rank) in placement.split('/').take(Rank::NUM).enumerate() {
        let rank_index = Rank::NUM - 1 - i;
        let mut file = 0usize;
        for c in rank.chars() {
            if let Some(empty) = c.to_digit(10) {
                file += empty as usize;
            } else if let Ok(piece) = Piece::try_from(c.to_ascii_lowercase()) {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if let Some(slot) = squares.get_mut(rank_index * File::NUM + file) {
                    *slot = Some((piece, color));
                }
                file += 1;
            }
        }
    }
    squares
}

/// A square in UCI/FEN text (`e4`): lower-case file, then rank.
fn parse_square(text: &[u8]) -> Option<Square> {
    let [file, rank] = text else { return None };
    let file = File::try_index(usize::from(file.checked_sub(b'a')?))?;
    let rank = Rank::try_index(usize::from(rank.checked_sub(b'1')?))?;
    Some(Square::new(file, rank))
}

/// Why a FEN whose fields are each well formed is still not a position
/// of chess. These are the faults lichess's rules refuse, grouped into FEN
/// fields the same way, so the same FENs are refused with the same field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Problem {
    EmptyBoard,
    MissingKing,
    TooManyKings,
    PawnsOnBackRank,
    CastlingRights,
    EnPassant,
    OppositeCheck,
    ImpossibleCheck,
    TooMuchMaterial,
}

impl Problem {
    fn as_str(self) -> &'static str {
        match self {
            Problem::EmptyBoard => "the board is empty",
            Problem::MissingKing => "a side has no king",
            Problem::TooManyKings => "a side has more than one king",
            Problem::PawnsOnBackRank => "a pawn stands on the first or last rank",
            Problem::CastlingRights => "a castling right without its king and rook on their starting squares",
            Problem::EnPassant => "no pawn can just have moved two squares past the en passant square",
            Problem::OppositeCheck => "the side not to move is in check",
            Problem::ImpossibleCheck => "the side to move is in a check no move could have given",
            Problem::TooMuchMaterial => "more pieces than the pawns could have promoted to",
        }
    }
}

/// A position as a FEN's fields give it, before it is known to be legal.
struct Setup {
    squares: [Option<(Piece, Color)>; Square::NUM],
    turn: Color,
    /// `-` or some of `KQkq` (already checked).
    castling: String,
    ep: Option<Square>,
}

impl Setup {
    fn at(&self, square: Square) -> Option<(Piece, Color)> {
        self.squares.get(square as usize).copied().flatten()
    }

    fn pieces(&self, piece: Piece, color: Color) -> BitBoard {
        self.squares_where(|p| p == Some((piece, color)))
    }

    fn colors(&self, color: Color) -> BitBoard {
        self.squares_where(|p| p.is_some_and(|(_, c)| c == color))
    }

    fn squares_where(&self, keep: impl Fn(Option<(Piece, Color)>) -> bool) -> BitBoard {
        Square::ALL
            .iter()
            .filter(|sq| keep(self.at(**sq)))
            .fold(BitBoard::EMPTY, |bb, sq| bb | sq.bitboard())
    }

    fn occupied(&self) -> BitBoard {
        self.colors(Color::White) | self.colors(Color::Black)
    }

    /// The king of a side, if it has exactly one.
    fn king(&self, color: Color) -> Option<Square> {
        let kings = self.pieces(Piece::King, color);
        if kings.len() == 1 {
            kings.next_square()
        } else {
            None
        }
    }

    /// The pieces of `by` that attack `square`, with `occupied` as the
    /// blockers (a piece off it neither attacks nor blocks).
    fn attackers(&self, square: Square, by: Color, occupied: BitBoard) -> BitBoard {
        let of = |piece| self.pieces(piece, by) & occupied;
        let straight = of(Piece::Rook) | of(Piece::Queen);
        let diagonal = of(Piece::Bishop) | of(Piece::Queen);
        (get_knight_moves(square) & of(Piece::Knight))
            | (get_king_moves(square) & of(Piece::King))
            | (get_pawn_attacks(square, !by) & of(Piece::Pawn))
            | (get_rook_moves(square, occupied) & straight)
            | (get_bishop_moves(square, occupied) & diagonal)
    }

    /// The castling rights, standard chess only: each needs its king on
    /// the e-file and its rook in the corner of that side's first rank.
    fn castle_rights(&self) -> Option<[CastleRights; Color::NUM]> {
        let mut rights = [CastleRights::EMPTY; Color::NUM];
        for c in self.castling.chars().filter(|c| *c != '-') {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = Rank::First.relative_to(color);
            let rook_file = if c.eq_ignore_ascii_case(&'k') { File::H } else { File::A };
            if self.king(color) != Some(Square::new(File::E, back_rank))
                || self.at(Square::new(rook_file, back_rank)) != Some((Piece::Rook, color))
            {
                return None;
            }
            let right = rights.get_mut(color as usize)?;
            if rook_file == File::H {
                right.short = Some(rook_file);
            } else {
                right.long = Some(rook_file);
            }
        }
        Some(rights)
    }

    /// The en passant square, if it is one: on the side to move's sixth
    /// rank, empty, with the pawn that just moved two squares past it and
    /// nothing on the square that pawn came from.
    fn valid_ep(&self) -> Result<Option<EpSquares>, ()> {
        let Some(square) = self.ep else { return Ok(None) };
        let them = !self.turn;
        if square.rank() != Rank::Sixth.relative_to(self.turn) {
            return Err(());
        }
        let ep = EpSquares {
            pushed_from: Square::new(square.file(), Rank::Seventh.relative_to(self.turn)),
            pushed_to: Square::new(square.file(), Rank::Fifth.relative_to(self.turn)),
        };
        let ok = self.at(ep.pushed_to) == Some((Piece::Pawn, them))
            && self.at(square).is_none()
            && self.at(ep.pushed_from).is_none();
        if ok {
            Ok(Some(ep))
        } else {
            Err(())
        }
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let occupied = self.occupied();
        if occupied.is_empty() {
            problems.push(Problem::EmptyBoard);
        }
        let pawns = self.pieces(Piece::Pawn, Color::White) | self.pieces(Piece::Pawn, Color::Black);
        if !(pawns & (Rank::First.bitboard() | Rank::Eighth.bitboard())).is_empty() {
            problems.push(Problem::PawnsOnBackRank);
        }
        for color in Color::ALL {
            match self.pieces(Piece::King, color).len() {
                0 => problems.push(Problem::MissingKing),
                1 => {}
                _ => problems.push(Problem::TooManyKings),
            }
            if !self.standard_material(color) {
                problems.push(Problem::TooMuchMaterial);
            }
        }
        if self.castle_rights().is_none() {
            problems.push(Problem::CastlingRights);
        }
        let ep = self.valid_ep().unwrap_or_else(|()| {
            problems.push(Problem::EnPassant);
            None
        });
        if let Some(their_king) = self.king(!self.turn) {
            if !self.attackers(their_king, self.turn, occupied).is_empty() {
                problems.push(Problem::OppositeCheck);
            }
        }
        if let Some(our_king) = self.king(self.turn) {
            if self.impossible_check(our_king, occupied, ep) {
                problems.push(Problem::ImpossibleCheck);
            }
        }
        // Each fault once (both sides may lack a king), in a fixed order.
        problems.sort_unstable();
        problems.dedup();
        problems
    }

    /// A check the last move could not have given: more than two checkers,
    /// two on one line through the king, two knights or pawns at once, or,
    /// after a double pawn push, a check that neither the pawn nor a line
    /// it uncovered gives.
    fn impossible_check(&self, our_king: Square, occupied: BitBoard, ep: Option<EpSquares>) -> bool {
        let checkers = self.attackers(our_king, !self.turn, occupied);
        let (Some(a), Some(b)) = (checkers.iter().next(), checkers.iter().last()) else {
            return false;
        };
        let impossible = match ep {
            Some(ep) => {
                let before_push = (occupied - ep.pushed_to.bitboard()) | ep.pushed_from.bitboard();
                a != b || (a != ep.pushed_to && !self.attackers(our_king, !self.turn, before_push).is_empty())
            }
            None => a != b && (checkers.len() > 2 || get_line_rays(a, our_king).has(b)),
        };
        let them = !self.turn;
        let steppers =
            self.pieces(Piece::Knight, them) | self.pieces(Piece::Pawn, them) | self.pieces(Piece::King, them);
        impossible || (checkers & steppers).len() > 1
    }

    /// At most eight pawns and promoted pieces together (a piece beyond
    /// the starting set, counting bishops per square colour, is promoted).
    fn standard_material(&self, color: Color) -> bool {
        let count = |bb: BitBoard| bb.len() as usize;
        let bishops = self.pieces(Piece::Bishop, color);
        let promoted = count(self.pieces(Piece::Queen, color)).saturating_sub(1)
            + count(self.pieces(Piece::Rook, color)).saturating_sub(2)
            + count(self.pieces(Piece::Knight, color)).saturating_sub(2)
            + count(bishops & BitBoard::LIGHT_SQUARES).saturating_sub(1)
            + count(bishops & BitBoard::DARK_SQUARES).saturating_sub(1);
        count(self.pieces(Piece::Pawn, color)) + promoted <= 8
    }

    fn into_board(self) -> Result<Board, RulesError> {
        let problems = self.problems();
        if !problems.is_empty() {
            let field = if problems.contains(&Problem::CastlingRights) {
                FenField::Castling
            } else if problems.contains(&Problem::EnPassant) {
                FenField::EnPassant
            } else if problems == [Problem::OppositeCheck] {
                FenField::SideToMove
            } else {
                FenField::PiecePlacement
            };
            let detail = if field == FenField::SideToMove {
                Problem::OppositeCheck.as_str().to_string()
            } else {
                let reasons: Vec<&str> = problems.iter().map(|p| p.as_str()).collect();
                format!("impossible position: {}", reasons.join(", "))
            };
            return Err(bad(field, detail));
        }
        let mut builder = BoardBuilder::empty();
        builder.board = self.squares;
        builder.side_to_move = self.turn;
        builder.castle_rights = self.castle_rights().ok_or_else(|| bad(FenField::Castling, "invalid"))?;
        builder.en_passant = self.ep;
        // The clocks are kept by ChessPosition, unbounded as FEN allows.
        builder.halfmove_clock = 0;
        builder.fullmove_number = 1;
        // The checks above cover what cozy-chess refuses; should it still
        // refuse something, its error says which part.
        builder.build().map_err(|e| {
            let field = match e {
                BoardBuilderError::InvalidBoard => FenField::PiecePlacement,
                BoardBuilderError::InvalidCastlingRights => FenField::Castling,
                BoardBuilderError::InvalidEnPassant => FenField::EnPassant,
                BoardBuilderError::InvalidHalfMoveClock => FenField::HalfmoveClock,
                BoardBuilderError::InvalidFullmoveNumber => FenField::FullmoveNumber,
            };
            bad(field, format!("impossible position: {e}"))
        })
    }
}

/// The squares of a double pawn push that an en passant square implies.
#[derive(Clone, Copy)]
struct EpSquares {
    pushed_from: Square,
    pushed_to: Square,
}

/// A move as plain data: the UCI text's squares and promotion, `Copy`, and
/// in JSON `{"uci": "e2e4"}` (the match move format). Castling is the
/// king's two-square move (`e1g1`), as standard UCI writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChessMove {
    from: Square,
    to: Square,
    promotion: Option<Piece>,
}

impl ChessMove {
    /// Reads UCI notation (`e2e4`, `e7e8q`); None when it is not that.
    /// The promotion letter may be either case; any piece letter is read
    /// (a promotion to a king or pawn is then simply not legal).
    pub fn parse(uci: &str) -> Option<ChessMove> {
        let bytes = uci.as_bytes();
        let (squares, promotion) = match bytes.len() {
            4 => (bytes, None),
            5 => {
                let letter = char::from(*bytes.get(4)?).to_ascii_lowercase();
                (bytes.get(..4)?, Some(Piece::try_from(letter).ok()?))
            }
            _ => return None,
        };
        Some(ChessMove {
            from: parse_square(squares.get(..2)?)?,
            to: parse_square(squares.get(2..4)?)?,
            promotion,
        })
    }

    /// A legal move of `board` in cozy-chess's encoding, in standard UCI.
    fn from_cozy(board: &Board, m: Move) -> ChessMove {
        let to = if san::is_castle(board, m) {
            let file = if m.to.file() > m.from.file() { File::G } else { File::C };
            Square::new(file, m.from.rank())
        } else {
            m.to
        };
        ChessMove {
            from: m.from,
            to,
            promotion: m.promotion,
        }
    }

    fn raw(self) -> Move {
        Move {
            from: self.from,
            to: self.to,
            promotion: self.promotion,
        }
    }

    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(piece) = self.promotion {
            write!(f, "{}", char::from(piece))?;
        }
        Ok(())
    }
}

/// A move as the API writes it; a field beside `uci` is refused, as every
/// game's move type refuses one.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UciJson {
    uci: String,
}

impl Serialize for ChessMove {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        UciJson { uci: self.uci() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ChessMove {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let json = UciJson::deserialize(deserializer)?;
        ChessMove::parse(&json.uci).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "uci: {:?} is not a move in UCI notation (e.g. e2e4, e7e8q)",
                json.uci
            ))
        })
    }
}

/// A move with both notations, as the API shows moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanMove {
    pub uci: String,
    pub san: String,
}

/// A legal position: cozy-chess's board and the two clocks, kept here
/// because cozy-chess caps the halfmove clock at 100 and the fullmove
/// number at a u16 while a FEN may carry larger counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessPosition {
    board: Board,
    halfmoves: u32,
    fullmoves: u32,
}

impl Default for ChessPosition {
    fn default() -> Self {
        ChessPosition {
            board: Board::default(),
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl ChessPosition {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    pub fn is_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// The legal moves in cozy-chess's encoding (castling as king takes
    /// rook).
    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
        moves
    }

    /// The legal move a UCI move names: standard castling (`e1g1`) and
    /// king-takes-rook (`e1h1`) both name castling, as lichess reads them.
    fn find(&self, mv: ChessMove) -> Option<Move> {
        self.legal_moves()
            .into_iter()
            .find(|m| *m == mv.raw() || ChessMove::from_cozy(&self.board, *m) == mv)
    }

    /// Plays a move that [`Self::find`] returned.
    fn play(&mut self, m: Move) {
        let zeroing = self.board.piece_on(m.from) == Some(Piece::Pawn)
            || (self.board.piece_on(m.to).is_some() && !san::is_castle(&self.board, m));
        if self.turn() == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.halfmoves = if zeroing { 0 } else { self.halfmoves.saturating_add(1) };
        self.board.play_unchecked(m);
    }

    /// Neither side can ever mate, by any series of moves: the rule as
    /// lichess applies it (a lone knight or same-coloured bishops, unless
    /// the other side has material the weaker side could be mated into).
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL.iter().all(|color| self.has_insufficient_material(*color))
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        let board = &self.board;
        let ours = board.colors(color);
        if !(ours & (board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))).is_empty() {
            return false;
        }
        if !(ours & board.pieces(Piece::Knight)).is_empty() {
            // A lone knight, and the other side has nothing it could block
            // its own king with (queens cannot be mated into a corner this
            // way).
            let blockers = board.colors(!color) - board.pieces(Piece::King) - board.pieces(Piece::Queen);
            return ours.len() <= 2 && blockers.is_empty();
        }
        if !(ours & board.pieces(Piece::Bishop)).is_empty() {
            // Bishops all on one square colour, and no knight or pawn on
            // the board to block a king with.
            let bishops = board.pieces(Piece::Bishop);
            let one_colour =
                (bishops & BitBoard::DARK_SQUARES).is_empty() || (bishops & BitBoard::LIGHT_SQUARES).is_empty();
            return one_colour && board.pieces(Piece::Knight).is_empty() && board.pieces(Piece::Pawn).is_empty();
        }
        true
    }

    /// The en passant square when a capture there is legal: FEN and
    /// repetition only count it then, as lichess writes FEN.
    fn legal_ep_square(&self) -> Option<Square> {
        let file = self.board.en_passant()?;
        let turn = self.turn();
        let square = Square::new(file, Rank::Sixth.relative_to(turn));
        let capturers = get_pawn_attacks(square, !turn) & self.board.colored_pieces(turn, Piece::Pawn);
        capturers
            .iter()
            .any(|from| {
                self.board.is_legal(Move {
                    from,
                    to: square,
                    promotion: None,
                })
            })
            .then_some(square)
    }

    /// The position in FEN.
    pub fn fen(&self) -> String {
        let board = &self.board;
        let mut fen = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                let square = Square::new(file, *rank);
                match (board.piece_on(square), board.color_on(square)) {
                    (Some(piece), Some(color)) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let letter = char::from(piece);
                        fen.push(if color == Color::White {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                fen.push('/');
            }
        }
        fen.push_str(if self.turn() == Color::White { " w " } else { " b " });
        let mut castling = String::new();
        for (color, short, long) in [(Color::White, 'K', 'Q'), (Color::Black, 'k', 'q')] {
            let rights = board.castle_rights(color);
            if rights.short.is_some() {
                castling.push(short);
            }
            if rights.long.is_some() {
                castling.push(long);
            }
        }
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        fen.push(' ');
        match self.legal_ep_square() {
            Some(square) => fen.push_str(&square.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        fen
    }
}

/// A game of chess: the start position, the moves from it, and what
/// repetition and the fifty-move rule need.
#[derive(Clone, Debug)]
pub struct ChessState {
    start: ChessPosition,
    pos: ChessPosition,
    moves: Vec<ChessMove>,
    /// The boards since the last capture or pawn move (the current one
    /// last): only those can repeat. Compared with cozy-chess's
    /// `same_position` (pieces, side to move, castling rights, and en
    /// passant only when a capture is legal), so no hash can collide.
    keys: Vec<Board>,
}

impl Default for ChessState {
    fn default() -> Self {
        ChessState::new(ChessPosition::default())
    }
}

impl ChessState {
    pub fn new(start: ChessPosition) -> Self {
        ChessState {
            keys: vec![start.board.clone()],
            pos: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The position a request describes: `fen` (default the start
    /// position), then `moves` in UCI. An error names the FEN field or the
    /// index of the first move that is not legal.
    pub fn from_fen_and_moves(fen: Option<&str>, moves: &[impl AsRef<str>]) -> Result<Self, RulesError> {
        if moves.len() > MAX_MOVES {
            return Err(RulesError::TooManyMoves(moves.len()));
        }
        let start = match fen {
            Some(fen) => parse_fen(fen)?,
            None => ChessPosition::default(),
        };
        let mut state = ChessState::new(start);
        for (index, uci) in moves.iter().enumerate() {
            state.play_uci(uci.as_ref()).map_err(|reason| RulesError::IllegalMove {
                index,
                uci: uci.as_ref().chars().take(16).collect(),
                reason,
            })?;
        }
        Ok(state)
    }

    /// Plays a move in UCI text; the error says why it cannot be played.
    pub fn play_uci(&mut self, uci: &str) -> Result<SanMove, String> {
        let mv = ChessMove::parse(uci)
            .ok_or_else(|| "is not a move in UCI notation (e.g. e2e4, or e7e8q for a promotion)".to_string())?;
        self.try_play(mv)
    }

    /// Plays a move if it is legal here; returns it with its SAN. The move
    /// is recorded in standard UCI (castling given as `e1h1` becomes
    /// `e1g1`), the form the engine is sent.
    pub fn try_play(&mut self, mv: ChessMove) -> Result<SanMove, String> {
        if let Some(reason) = self.end() {
            return Err(format!("cannot be played: the game is over ({reason})"));
        }
        let m = self.to_legal(mv)?;
        let played = ChessMove::from_cozy(&self.pos.board, m);
        let san = san::san(&self.pos.board, m).ok_or_else(|| self.not_legal())?;
        self.pos.play(m);
        self.moves.push(played);
        if self.pos.halfmoves == 0 {
            self.keys.clear();
        }
        self.keys.push(self.pos.board.clone());
        Ok(SanMove { uci: played.uci(), san })
    }

    fn to_legal(&self, mv: ChessMove) -> Result<Move, String> {
        self.pos.find(mv).ok_or_else(|| {
            let promotes_unnamed = mv.promotion.is_none()
                && self.pos.board.piece_on(mv.from) == Some(Piece::Pawn)
                && matches!(mv.to.rank(), Rank::First | Rank::Eighth);
            if promotes_unnamed {
                "is not legal: a pawn reaching the last rank needs a promotion letter (e.g. e7e8q)".to_string()
            } else {
                self.not_legal()
            }
        })
    }

    fn not_legal(&self) -> String {
        format!("is not legal with {} to move", color_name(self.pos.turn()))
    }

    /// The SAN of a legal move (with `+` or `#`), without playing it.
    pub fn san(&self, mv: ChessMove) -> Option<String> {
        san::san(&self.pos.board, self.pos.find(mv)?)
    }

    /// The longest legal prefix of a line of UCI moves, with its SAN:
    /// engine output is not trusted to be legal.
    pub fn line(&self, uci: &[String]) -> (Vec<String>, Vec<String>) {
        let mut pos = self.pos.clone();
        let mut moves = Vec::new();
        let mut sans = Vec::new();
        for text in uci {
            let Some(m) = ChessMove::parse(text).and_then(|mv| pos.find(mv)) else {
                break;
            };
            let Some(san) = san::san(&pos.board, m) else {
                break;
            };
            moves.push(ChessMove::from_cozy(&pos.board, m).uci());
            sans.push(san);
            pos.play(m);
        }
        (moves, sans)
    }

    pub fn position(&self) -> &ChessPosition {
        &self.pos
    }

    /// The current position in FEN (en passant only when a capture is
    /// legal, as lichess writes it).
    pub fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The start position in FEN.
    pub fn start_fen(&self) -> String {
        self.start.fen()
    }

    /// The moves played from the start position.
    pub fn moves(&self) -> &[ChessMove] {
        &self.moves
    }

    /// The UCI `position` arguments: the start and the moves, so the engine
    /// sees the history (repetitions) and not only the last position.
    pub fn uci_position(&self) -> String {
        let mut s = format!("fen {}", self.start_fen());
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for mv in &self.moves {
                s.push(' ');
                s.push_str(&mv.uci());
            }
        }
        s
    }

    pub fn side_to_move(&self) -> Color {
        self.pos.turn()
    }

    /// `"white"` or `"black"`.
    pub fn player(&self) -> &'static str {
        color_name(self.pos.turn())
    }

    pub fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    pub fn legal_move_count(&self) -> usize {
        self.pos.legal_moves().len()
    }

    /// The seat of a colour: seat 0 is the side that moved first from the
    /// start position (White from the usual start, Black from a FEN with
    /// Black to move).
    pub fn seat_of(&self, color: Color) -> Seat {
        usize::from(color != self.start.turn())
    }

    /// How the game ended, if it has. Checkmate first (mate on the move
    /// that reaches the fifty-move limit still wins); the fifty-move rule
    /// and threefold repetition end the game at once, as lichess applies
    /// them, rather than waiting for a claim.
    pub fn end(&self) -> Option<EndReason> {
        if !san::has_legal_move(&self.pos.board) {
            if self.pos.is_check() {
                Some(EndReason::Checkmate)
            } else {
                Some(EndReason::Stalemate)
            }
        } else if self.pos.is_insufficient_material() {
            Some(EndReason::InsufficientMaterial)
        } else if self.repetitions() >= 3 {
            Some(EndReason::ThreefoldRepetition)
        } else if self.pos.halfmoves >= 100 {
            Some(EndReason::FiftyMoves)
        } else {
            None
        }
    }

    /// How many times the current position has occurred (same pieces, side
    /// to move, castling rights and en passant captures).
    pub fn repetitions(&self) -> usize {
        let Some(current) = self.keys.last() else {
            return 0;
        };
        self.keys.iter().filter(|board| board.same_position(current)).count()
    }
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Game for ChessState {
    type Move = ChessMove;

    fn turn(&self) -> Turn {
        if self.end().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.seat_of(self.pos.turn()))
        }
    }

    fn legal_moves(&self) -> Vec<ChessMove> {
        if self.end().is_some() {
            return Vec::new();
        }
        let board = &self.pos.board;
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| ChessMove::from_cozy(board, m))
            .collect()
    }

    fn play(&mut self, mv: ChessMove) {
        // The trait's contract: only offered moves. A bad one is a bug in
        // the caller, loud in tests, a no-op (logged) in a server.
        if let Err(reason) = self.try_play(mv) {
            debug_assert!(false, "{mv} {reason}");
            tracing::error!(%mv, %reason, "an illegal chess move reached Game::play");
        }
    }

    fn result(&self) -> Option<GameOutcome> {
        match self.end()? {
            EndReason::Checkmate => Some(GameOutcome::Won(self.seat_of(!self.pos.turn()))),
            _ => Some(GameOutcome::Draw),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_serialise_as_uci_objects() {
        let mv = ChessMove::parse("e7e8q");
        assert!(mv.is_some());
        let json = serde_json::to_string(&mv).unwrap_or_default();
        assert_eq!(json, r#"{"uci":"e7e8q"}"#);
        let back: Result<ChessMove, _> = serde_json::from_str(r#"{"uci":"e2e4"}"#);
        assert_eq!(back.ok(), ChessMove::parse("e2e4"));
        assert!(serde_json::from_str::<ChessMove>(r#"{"uci":"e2"}"#).is_err());
    }

    #[test]
    fn the_engine_is_given_the_start_and_the_moves() {
        let state = ChessState::from_fen_and_moves(None, &["e2e4", "c7c5"]);
        assert_eq!(
            state.map(|s| s.uci_position()).ok().as_deref(),
            Some("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 c7c5")
        );
    }
}
