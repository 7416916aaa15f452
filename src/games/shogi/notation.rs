//! Moves in USI, as Fairy-Stockfish prints them in its USI mode: a square
//! is its file number 1-9 (9 on sente's left) and its rank letter `a`-`i`
//! (`a` on gote's side); a move is origin and destination (`7g7f`), `+`
//! when it promotes (`8h2b+`), and a drop is the piece's uppercase letter,
//! `*` and the square (`P*5e`), for either side.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::board::{Kind, Square, SIZE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece moves on the board, promoting or not.
    Board { from: Square, to: Square, promote: bool },
    /// A piece from the hand is put on an empty square.
    Drop { kind: Kind, to: Square },
}

impl Square {
    /// The square's USI name, `9a` to `1i`.
    pub fn name(self) -> String {
        format!("{}{}", self.file(), (b'a' + self.row() as u8) as char)
    }

    /// Reads a USI square name.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [file @ b'1'..=b'9', rank @ b'a'..=b'i'] => Square::new((rank - b'a') as i8, SIZE - (file - b'0') as i8),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Move {
    /// Reads a move in USI; the error says what is wrong with the text (not
    /// whether the move is legal).
    pub fn parse(text: &str) -> Result<Move, String> {
        let explain = |why: &str| format!("{text:?} is not a USI move like 7g7f, 8h2b+ or P*5e: {why}");
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(explain("expected 4 or 5 characters"));
        }
        if let Some((piece, square)) = text.split_once('*') {
            let kind = match piece.chars().collect::<Vec<_>>()[..] {
                [c] if c.is_ascii_uppercase() => Kind::from_letter(c).filter(|k| k.hand_index().is_some()),
                _ => None,
            }
            .ok_or_else(|| explain("a drop starts with P, L, N, S, G, B or R"))?;
            let to = Square::parse(square).ok_or_else(|| explain("the drop's square is not 1a-9i"))?;
            return Ok(Move::Drop { kind, to });
        }
        let (squares, promote) = match text.strip_suffix('+') {
            Some(squares) => (squares, true),
            None => (text, false),
        };
        if squares.len() != 4 {
            return Err(explain("expected two squares"));
        }
        let from = Square::parse(&squares[..2]).ok_or_else(|| explain("the origin is not a square 1a-9i"))?;
        let to = Square::parse(&squares[2..]).ok_or_else(|| explain("the destination is not a square 1a-9i"))?;
        // A move that goes nowhere is well formed and illegal: the rules
        // refuse it (a 422 naming the move), not the reader (a 400).
        Ok(Move::Board { from, to, promote })
    }

    pub fn notation(self) -> String {
        self.to_string()
    }

    pub fn to(self) -> Square {
        match self {
            Move::Board { to, .. } | Move::Drop { to, .. } => to,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Board { from, to, promote } => write!(f, "{from}{to}{}", if *promote { "+" } else { "" }),
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.letter()),
        }
    }
}

/// Moves travel as their USI in JSON (`"7g7f"`).
impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.notation())
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Move::parse(&text).map_err(serde::de::Error::custom)
    }
}
