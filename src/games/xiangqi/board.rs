//! Sides, pieces, squares and a position of xiangqi on a 9x10 mailbox.
//!
//! Squares are numbered `rank * 9 + file` with file 0 = `a` on red's left
//! and rank 0 = red's back rank (the last row of a FEN), so red moves up
//! the ranks and black down.

use std::fmt;

pub const FILES: i8 = 9;
pub const RANKS: i8 = 10;
pub const SQUARES: usize = 90;

/// The two sides. Red (uppercase in FEN, `w`) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Red,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for red, 1 for black (the seat in `Game`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The rank step of this side's soldiers: red moves up, black down.
    pub fn forward(self) -> i8 {
        match self {
            Side::Red => 1,
            Side::Black => -1,
        }
    }

    /// Whether a rank is on this side's half of the board (its side of the
    /// river), where its elephants stay and its soldiers move only forward.
    pub fn owns_rank(self, rank: i8) -> bool {
        match self {
            Side::Red => rank <= 4,
            Side::Black => rank >= 5,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    General,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Soldier,
}

impl Kind {
    /// The FEN letter Fairy-Stockfish writes (red's, uppercase).
    pub fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The kind a FEN letter names, either case; `E` and `H` are read as
    /// the elephant and horse too, as Fairy-Stockfish does.
    pub fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// How many of this kind each side starts with (and may have).
    pub fn max_count(self) -> usize {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub fn fen_char(self) -> char {
        let letter = self.kind.letter();
        match self.side {
            Side::Red => letter,
            Side::Black => letter.to_ascii_lowercase(),
        }
    }
}

/// A point of the board (pieces stand on intersections).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(file: i8, rank: i8) -> Option<Square> {
        ((0..FILES).contains(&file) && (0..RANKS).contains(&rank)).then(|| Square((rank * FILES + file) as u8))
    }

    pub fn file(self) -> i8 {
        self.0 as i8 % FILES
    }

    pub fn rank(self) -> i8 {
        self.0 as i8 / FILES
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `(df, dr)` away, if it is on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::new(self.file() + df, self.rank() + dr)
    }

    /// Whether the square is in `side`'s palace (files d-f, its three
    /// back ranks), where its general and advisors stay.
    pub fn in_palace(self, side: Side) -> bool {
        let ranks = match side {
            Side::Red => 0..=2,
            Side::Black => 7..=9,
        };
        (3..=5).contains(&self.file()) && ranks.contains(&self.rank())
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

/// The pieces on the board, indexed by [`Square::index`].
pub type Board = [Option<Piece>; SQUARES];

/// A position: the board, the side to move and the two counters of the
/// FEN. Kept legal by construction (`fen::parse_fen` and the legal moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: Board,
    pub(super) side_to_move: Side,
    /// Each side's general, kept to find check quickly.
    pub(super) generals: [Square; 2],
    /// Plies since the last capture (Fairy-Stockfish's `rule50`: in
    /// xiangqi only captures reset it, soldiers' moves do not).
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
}

impl Position {
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    pub fn general(&self, side: Side) -> Square {
        self.generals[side.index()]
    }

    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// What makes two positions the same for repetition: the pieces and
    /// the side to move.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.side_to_move == other.side_to_move && self.board == other.board
    }
}
