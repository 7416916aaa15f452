//! Positions in the FEN Fairy-Stockfish and xiangqi.com use:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//! Ten ranks from black's back rank down to red's, red uppercase; the side
//! to move `w` (red) or `b` (black); two unused fields (`-`, as in chess
//! castling and en passant); the plies since the last capture and the move
//! number. Fields after the placement may be left off.

use std::fmt;

use super::board::{Board, Kind, Piece, Position, Side, Square, FILES, RANKS, SQUARES};
use super::movegen::general_attacked;

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A FEN longer than this is refused before it is read (a real one is
/// under 100 characters).
pub const MAX_FEN_LEN: usize = 128;

/// The fields of a FEN, to name the wrong one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    Whole,
    PiecePlacement,
    SideToMove,
    /// Fields 3 and 4, always `-` in xiangqi.
    Unused,
    HalfmoveClock,
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Whole => "the FEN",
            FenField::PiecePlacement => "piece placement (field 1)",
            FenField::SideToMove => "side to move (field 2)",
            FenField::Unused => "fields 3 and 4 (always \"-\")",
            FenField::HalfmoveClock => "halfmove clock (field 5)",
            FenField::FullmoveNumber => "fullmove number (field 6)",
        })
    }
}

/// A FEN that is not a legal xiangqi position: which field and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("fen: {field} is invalid: {detail}")]
pub struct FenError {
    pub field: FenField,
    pub detail: String,
}

fn bad(field: FenField, detail: impl Into<String>) -> FenError {
    FenError {
        field,
        detail: detail.into(),
    }
}

/// Reads a FEN and checks that it is a legal position: one general a side
/// in its palace, at most the pieces a side starts with, advisors,
/// elephants and soldiers only on points they can reach, and the side not
/// to move not in check (nor the generals facing on an open file).
pub fn parse_fen(fen: &str) -> Result<Position, FenError> {
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
    let board = read_placement(fields[0])?;
    let side_to_move = match fields.get(1).copied() {
        None | Some("w") | Some("r") => Side::Red,
        Some("b") => Side::Black,
        Some(other) => {
            return Err(bad(
                FenField::SideToMove,
                format!("{other:?}: expected \"w\" (red) or \"b\" (black)"),
            ))
        }
    };
    for unused in fields.iter().skip(2).take(2) {
        if *unused != "-" {
            return Err(bad(FenField::Unused, format!("{unused:?}: expected \"-\"")));
        }
    }
    let halfmoves = match fields.get(4) {
        None => 0,
        Some(clock) => clock.parse::<u32>().map_err(|_| {
            bad(
                FenField::HalfmoveClock,
                format!("{clock:?}: expected a whole number of plies, 0 or more"),
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
    let generals = check_pieces(&board)?;
    let position = Position {
        board,
        side_to_move,
        generals,
        halfmoves,
        fullmoves,
    };
    let waiting = side_to_move.other();
    if general_attacked(&position, waiting) {
        return Err(bad(
            FenField::PiecePlacement,
            format!("{waiting}'s general is in check (or faces the other general) with {side_to_move} to move"),
        ));
    }
    Ok(position)
}

fn read_placement(placement: &str) -> Result<Board, FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != RANKS as usize {
        return Err(bad(
            FenField::PiecePlacement,
            format!("{} ranks separated by '/', expected 10", rows.len()),
        ));
    }
    let mut board: Board = [None; SQUARES];
    for (row, text) in rows.iter().enumerate() {
        let rank = RANKS - 1 - row as i8;
        let mut file: i8 = 0;
        // Digits may run together ("10" is not a count, but "45" would be
        // read as 4 then 5, so the width check catches it).
        for c in text.chars() {
            let width_error = || {
                bad(
                    FenField::PiecePlacement,
                    format!("rank {} ({text:?}) is wider than 9 points", rank + 1),
                )
            };
            if let Some(empty) = c.to_digit(10).filter(|d| *d >= 1) {
                file += empty as i8;
                if file > FILES {
                    return Err(width_error());
                }
                continue;
            }
            let kind = Kind::from_letter(c).ok_or_else(|| {
                bad(
                    FenField::PiecePlacement,
                    format!(
                        "{c:?} in rank {} is not a piece (k a b n r c p, or a digit 1-9)",
                        rank + 1
                    ),
                )
            })?;
            let side = if c.is_ascii_uppercase() { Side::Red } else { Side::Black };
            let square = Square::new(file, rank).ok_or_else(width_error)?;
            board[square.index()] = Some(Piece { side, kind });
            file += 1;
        }
        if file != FILES {
            return Err(bad(
                FenField::PiecePlacement,
                format!("rank {} ({text:?}) covers {file} points, expected 9", rank + 1),
            ));
        }
    }
    Ok(board)
}

/// Checks the pieces each side has and where they stand; returns the two
/// generals' squares.
fn check_pieces(board: &Board) -> Result<[Square; 2], FenError> {
    let mut counts = [[0usize; 7]; 2];
    let mut generals = [None, None];
    for square in Square::all() {
        let Some(piece) = board[square.index()] else { continue };
        counts[piece.side.index()][piece.kind as usize] += 1;
        if !reachable(piece, square) {
            return Err(bad(
                FenField::PiecePlacement,
                format!(
                    "{} {:?} on {square}, a point it can never reach",
                    piece.side, piece.kind
                ),
            ));
        }
        if piece.kind == Kind::General {
            generals[piece.side.index()] = Some(square);
        }
    }
    for side in [Side::Red, Side::Black] {
        for (kind, count) in Kind::ALL.iter().zip(counts[side.index()]) {
            if count > kind.max_count() {
                return Err(bad(
                    FenField::PiecePlacement,
                    format!("{side} has {count} {kind:?} pieces, at most {}", kind.max_count()),
                ));
            }
        }
    }
    match generals {
        [Some(red), Some(black)] => Ok([red, black]),
        [None, _] => Err(bad(FenField::PiecePlacement, "red has no general (K)")),
        [_, None] => Err(bad(FenField::PiecePlacement, "black has no general (k)")),
    }
}

/// Whether a piece can ever stand on a square: generals and advisors in
/// their palace (advisors on its diagonals), elephants on their seven
/// points, soldiers not behind their start nor beside it before crossing.
fn reachable(piece: Piece, square: Square) -> bool {
    let side = piece.side;
    // Ranks counted from the piece's own back rank.
    let own_rank = match side {
        Side::Red => square.rank(),
        Side::Black => RANKS - 1 - square.rank(),
    };
    let file = square.file();
    match piece.kind {
        Kind::General => square.in_palace(side),
        Kind::Advisor => square.in_palace(side) && (file + own_rank) % 2 == 1,
        Kind::Elephant => {
            matches!((file, own_rank), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
        }
        Kind::Soldier => own_rank >= 5 || (own_rank >= 3 && file % 2 == 0),
        Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    }
}

/// The position's FEN, all six fields.
pub fn to_fen(position: &Position) -> String {
    let mut fen = String::with_capacity(96);
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            match Square::new(file, rank).and_then(|s| position.piece_at(s)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(piece.fen_char());
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = match position.side_to_move {
        Side::Red => 'w',
        Side::Black => 'b',
    };
    fen.push_str(&format!(" {side} - - {} {}", position.halfmoves, position.fullmoves));
    fen
}
