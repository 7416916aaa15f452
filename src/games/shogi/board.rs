//! Colours, pieces, squares, hands and a position of shogi on a 9x9
//! mailbox.
//!
//! Squares are numbered `row * 9 + column` in SFEN's reading order: row 0
//! is rank `a` (gote's back rank, at the top), column 0 is file 9 (the
//! left as sente sees it). Sente moves up the board (rows decreasing).

use std::fmt;

pub const SIZE: i8 = 9;
pub const SQUARES: usize = 81;

/// The two players. Sente (black, `b` in SFEN, uppercase) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Sente,
    Gote,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// 0 for sente, 1 for gote (the seat in `Game`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The row step of "forward" for this colour.
    pub fn forward(self) -> i8 {
        match self {
            Color::Sente => -1,
            Color::Gote => 1,
        }
    }

    /// How many rows a square is from this colour's far edge: 0 on the
    /// last rank (where a pawn or lance could not move again), 0-2 in its
    /// promotion zone (the opponent's camp).
    pub fn rows_to_go(self, square: Square) -> i8 {
        match self {
            Color::Sente => square.row(),
            Color::Gote => SIZE - 1 - square.row(),
        }
    }

    pub fn in_zone(self, square: Square) -> bool {
        self.rows_to_go(square) <= 2
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kinds of pieces, the seven that can be in hand first (in this order,
/// which indexes a [`Hand`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    PromotedLance,
    PromotedKnight,
    PromotedSilver,
    Horse,
    Dragon,
}

impl Kind {
    /// The kinds a hand holds, in [`Hand`]'s order.
    pub const IN_HAND: [Kind; 7] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
    ];

    /// The SFEN letter (sente's, uppercase) of the unpromoted kind; a
    /// promoted kind is written `+` and its base letter.
    pub fn letter(self) -> char {
        match self.unpromoted() {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Gold => 'G',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            _ => 'K',
        }
    }

    pub fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// The promoted kind, for the six that promote.
    pub fn promoted(self) -> Option<Kind> {
        Some(match self {
            Kind::Pawn => Kind::Tokin,
            Kind::Lance => Kind::PromotedLance,
            Kind::Knight => Kind::PromotedKnight,
            Kind::Silver => Kind::PromotedSilver,
            Kind::Bishop => Kind::Horse,
            Kind::Rook => Kind::Dragon,
            _ => return None,
        })
    }

    /// The kind a captured piece becomes in hand.
    pub fn unpromoted(self) -> Kind {
        match self {
            Kind::Tokin => Kind::Pawn,
            Kind::PromotedLance => Kind::Lance,
            Kind::PromotedKnight => Kind::Knight,
            Kind::PromotedSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            other => other,
        }
    }

    pub fn is_promoted(self) -> bool {
        self.unpromoted() != self
    }

    /// The index in a [`Hand`] of the kind this piece is captured as
    /// (None for the king).
    pub fn hand_index(self) -> Option<usize> {
        Kind::IN_HAND.iter().position(|k| *k == self.unpromoted())
    }

    /// How many rows from the far edge a piece of this kind needs to have
    /// a move: a pawn or lance cannot stand on the last rank, a knight on
    /// the last two.
    pub fn min_rows_to_go(self) -> i8 {
        match self {
            Kind::Pawn | Kind::Lance => 1,
            Kind::Knight => 2,
            _ => 0,
        }
    }

    /// How many of this (unpromoted) kind a set has.
    pub fn total(self) -> u8 {
        match self.unpromoted() {
            Kind::Pawn => 18,
            Kind::Bishop | Kind::Rook => 2,
            Kind::King => 2,
            _ => 4,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// A square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(row: i8, column: i8) -> Option<Square> {
        ((0..SIZE).contains(&row) && (0..SIZE).contains(&column)).then(|| Square((row * SIZE + column) as u8))
    }

    pub fn row(self) -> i8 {
        self.0 as i8 / SIZE
    }

    pub fn column(self) -> i8 {
        self.0 as i8 % SIZE
    }

    /// The file number 1-9 of USI (9 on sente's left).
    pub fn file(self) -> i8 {
        SIZE - self.column()
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn offset(self, rows: i8, columns: i8) -> Option<Square> {
        Square::new(self.row() + rows, self.column() + columns)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

/// The pieces each colour holds, counted by [`Kind::IN_HAND`].
pub type Hand = [u8; 7];

pub type Board = [Option<Piece>; SQUARES];

/// A position: the board, both hands, the side to move and the move
/// number of the SFEN. Kept legal by construction (`sfen::parse_sfen` and
/// the legal moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: Board,
    pub(super) hands: [Hand; 2],
    pub(super) side_to_move: Color,
    pub(super) kings: [Square; 2],
    /// SFEN's last field: the number of the next move, counted in plies
    /// from 1 as USI programs write it.
    pub(super) move_number: u32,
}

impl Position {
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// How many pieces of a kind `color` holds (0 for kinds never in hand).
    pub fn in_hand(&self, color: Color, kind: Kind) -> u8 {
        match kind.hand_index() {
            Some(i) if !kind.is_promoted() => self.hands[color.index()][i],
            _ => 0,
        }
    }

    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// What makes two positions the same for repetition (sennichite): the
    /// pieces, both hands and the side to move.
    pub fn same_position(&self, other: &Position) -> bool {
        self.side_to_move == other.side_to_move && self.hands == other.hands && self.board == other.board
    }
}
