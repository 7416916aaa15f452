//! Square names and the move type the API speaks: `{"square": "d3"}` or
//! `{"pass": true}`.

use std::fmt;

/// A square as its bit index, `row * 8 + col`; named by its column letter
/// and row number, a1 being the top-left corner. Whether it lies on a
/// given board is the position's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Square(u8);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a square; expected a column letter a-h and a row number 1-8, like \"d3\"")]
pub struct BadSquare(pub String);

impl Square {
    /// `row` and `col` from 0 to 7.
    pub fn at(row: u32, col: u32) -> Option<Square> {
        (row < 8 && col < 8).then(|| Square((row * 8 + col) as u8))
    }

    pub fn from_index(index: u32) -> Option<Square> {
        (index < 64).then_some(Square(index as u8))
    }

    pub fn index(self) -> u32 {
        u32::from(self.0)
    }

    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    pub fn row(self) -> u32 {
        self.index() / 8
    }

    pub fn col(self) -> u32 {
        self.index() % 8
    }

    pub fn parse(name: &str) -> Result<Square, BadSquare> {
        let bad = || BadSquare(name.to_string());
        let mut chars = name.chars();
        let (Some(letter), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let col = (letter.to_ascii_lowercase() as u32).wrapping_sub('a' as u32);
        let row = (digit as u32).wrapping_sub('1' as u32);
        Square::at(row, col).ok_or_else(bad)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + (self.0 % 8));
        write!(f, "{letter}{}", self.0 / 8 + 1)
    }
}

impl TryFrom<String> for Square {
    type Error = BadSquare;
    fn try_from(name: String) -> Result<Square, BadSquare> {
        Square::parse(&name)
    }
}

impl From<Square> for String {
    fn from(square: Square) -> String {
        square.to_string()
    }
}

/// A move: a disc on a square, or a pass when the mover has no square and
/// the opponent has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "MoveRepr", into = "MoveRepr")]
pub enum OthelloMove {
    Play(Square),
    Pass,
}

/// The JSON shape: exactly one of `square` or `pass: true`.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    square: Option<Square>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pass: Option<bool>,
}

impl TryFrom<MoveRepr> for OthelloMove {
    type Error = &'static str;
    fn try_from(repr: MoveRepr) -> Result<OthelloMove, &'static str> {
        match (repr.square, repr.pass) {
            (Some(square), None | Some(false)) => Ok(OthelloMove::Play(square)),
            (None, Some(true)) => Ok(OthelloMove::Pass),
            (Some(_), Some(true)) => Err("a move has either a square or pass: true, not both"),
            (None, _) => Err("a move needs a square (like \"d3\") or pass: true"),
        }
    }
}

impl From<OthelloMove> for MoveRepr {
    fn from(mv: OthelloMove) -> MoveRepr {
        match mv {
            OthelloMove::Play(square) => MoveRepr {
                square: Some(square),
                pass: None,
            },
            OthelloMove::Pass => MoveRepr {
                square: None,
                pass: Some(true),
            },
        }
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OthelloMove::Play(square) => square.fmt(f),
            OthelloMove::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_from_the_top_left_corner() {
        assert_eq!(Square::parse("a1").map(Square::index), Ok(0));
        assert_eq!(Square::parse("h1").map(Square::index), Ok(7));
        assert_eq!(Square::parse("a2").map(Square::index), Ok(8));
        assert_eq!(Square::parse("D3").map(|s| s.to_string()), Ok("d3".to_string()));
        for bad in ["", "i1", "a9", "a0", "a10", "1a"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_read_and_write_the_api_shapes() {
        let play: OthelloMove = serde_json::from_str(r#"{"square":"d3"}"#).unwrap();
        assert_eq!(play, OthelloMove::Play(Square::parse("d3").unwrap()));
        assert_eq!(serde_json::to_string(&play).unwrap(), r#"{"square":"d3"}"#);
        let pass: OthelloMove = serde_json::from_str(r#"{"pass":true}"#).unwrap();
        assert_eq!(pass, OthelloMove::Pass);
        assert_eq!(serde_json::to_string(&pass).unwrap(), r#"{"pass":true}"#);
        assert!(serde_json::from_str::<OthelloMove>(r#"{"pass":false}"#).is_err());
        assert!(serde_json::from_str::<OthelloMove>(r#"{"square":"z9"}"#).is_err());
    }
}
