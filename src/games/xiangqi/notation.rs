//! Moves in Fairy-Stockfish's coordinate notation for xiangqi: the origin
//! then the destination, each a file letter `a`-`i` (red's left to right)
//! and a rank number **1-10** counted from red's back rank (`h3e3`,
//! `b3b10`). Fairy-Stockfish 11.1's `go perft 1` from the start lists
//! `b3b10`, so ranks are 1-based; a 0-based `b2b9` style is not accepted.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::board::Square;

/// A move from one point to another (xiangqi has no promotions or drops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Square {
    /// The square's name, `a1` to `i10`.
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Reads a square name at the start of `text`: a file letter and a rank of
/// one or two digits, 1-10. Returns the square and the rest of the text.
fn parse_square(text: &str) -> Result<(Square, &str), String> {
    let mut chars = text.char_indices();
    let file = match chars.next() {
        Some((_, c @ 'a'..='i')) => c as i8 - 'a' as i8,
        Some((_, c)) => return Err(format!("{c:?} is not a file (a-i)")),
        None => return Err("a square is missing".to_string()),
    };
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let digits = &text[1..digits_end];
    let rank = match digits.parse::<i8>() {
        Ok(rank) if (1..=10).contains(&rank) && !digits.starts_with('0') => rank - 1,
        _ => return Err(format!("{digits:?} is not a rank (1-10)")),
    };
    let square = Square::new(file, rank).ok_or_else(|| format!("{digits:?} is not a rank (1-10)"))?;
    Ok((square, &text[digits_end..]))
}

impl Move {
    /// Reads a move such as `h3e3` or `b3b10`; the error says what is wrong
    /// with the text (not whether the move is legal).
    pub fn parse(text: &str) -> Result<Move, String> {
        if !text.is_ascii() || text.len() > 6 {
            return Err(format!("{text:?} is not a move like h3e3 (file a-i, rank 1-10)"));
        }
        let explain = |why: String| format!("{text:?} is not a move like h3e3: {why}");
        let (from, rest) = parse_square(text).map_err(explain)?;
        let (to, rest) = parse_square(rest).map_err(explain)?;
        if !rest.is_empty() {
            return Err(explain(format!("{rest:?} follows the destination")));
        }
        // A move that goes nowhere is well formed and illegal: the rules
        // refuse it (a 422 naming the move), not the reader (a 400).
        Ok(Move { from, to })
    }

    pub fn notation(self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Moves travel as their notation in JSON (`"h2e2"`).
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
