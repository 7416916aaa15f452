//! Positions in SFEN, as USI writes them:
//! `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
//! Nine rows from rank `a` (gote's side) down, each from file 9 to file 1,
//! sente uppercase, `+` before a promoted piece; the side to move `b`
//! (sente) or `w` (gote); the pieces in hand (`-` for none, else counts and
//! letters, `2P` for two pawns, sente's uppercase, gote's lowercase); the
//! move number. Fields after the board may be left off (sente to move,
//! empty hands, move 1).

use std::fmt;

use super::board::{Board, Color, Hand, Kind, Piece, Position, Square, SIZE, SQUARES};
use super::movegen::in_check;

/// The start position.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// An SFEN longer than this is refused before it is read (a real one is
/// under 120 characters).
pub const MAX_SFEN_LEN: usize = 160;

/// The fields of an SFEN, to name the wrong one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenField {
    Whole,
    Board,
    SideToMove,
    Hands,
    MoveNumber,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Whole => "the SFEN",
            SfenField::Board => "board (field 1)",
            SfenField::SideToMove => "side to move (field 2)",
            SfenField::Hands => "pieces in hand (field 3)",
            SfenField::MoveNumber => "move number (field 4)",
        })
    }
}

/// An SFEN that is not a legal shogi position: which field and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sfen: {field} is invalid: {detail}")]
pub struct SfenError {
    pub field: SfenField,
    pub detail: String,
}

fn bad(field: SfenField, detail: impl Into<String>) -> SfenError {
    SfenError {
        field,
        detail: detail.into(),
    }
}

/// Reads an SFEN and checks that it is a legal position: one king a side,
/// no more pieces of a kind than a set has (board and hands together), no
/// piece where it could never move, no two unpromoted pawns of a side on a
/// file, and the side not to move not in check.
pub fn parse_sfen(sfen: &str) -> Result<Position, SfenError> {
    let sfen = sfen.trim();
    // `sfen` as USI's `position` command writes it may lead.
    let sfen = sfen.strip_prefix("sfen ").map_or(sfen, str::trim_start);
    if sfen.is_empty() {
        return Err(bad(SfenField::Whole, "it is empty"));
    }
    if sfen.len() > MAX_SFEN_LEN {
        return Err(bad(
            SfenField::Whole,
            format!("it is longer than {MAX_SFEN_LEN} characters"),
        ));
    }
    let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
    if fields.len() > 4 {
        return Err(bad(
            SfenField::Whole,
            format!("it has {} space-separated fields, at most 4 expected", fields.len()),
        ));
    }
    let board = read_board(fields[0])?;
    let side_to_move = match fields.get(1).copied() {
        None | Some("b") => Color::Sente,
        Some("w") => Color::Gote,
        Some(other) => {
            return Err(bad(
                SfenField::SideToMove,
                format!("{other:?}: expected \"b\" (sente) or \"w\" (gote)"),
            ))
        }
    };
    let hands = read_hands(fields.get(2).copied().unwrap_or("-"))?;
    let move_number = match fields.get(3) {
        None => 1,
        Some(number) => number.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
            bad(
                SfenField::MoveNumber,
                format!("{number:?}: expected a whole number, 1 or more"),
            )
        })?,
    };
    let kings = check_pieces(&board, &hands)?;
    let position = Position {
        board,
        hands,
        side_to_move,
        kings,
        move_number,
    };
    let waiting = side_to_move.other();
    if in_check(&position, waiting) {
        return Err(bad(
            SfenField::Board,
            format!("{waiting}'s king is in check with {side_to_move} to move"),
        ));
    }
    Ok(position)
}

fn read_board(text: &str) -> Result<Board, SfenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIZE as usize {
        return Err(bad(
            SfenField::Board,
            format!("{} rows separated by '/', expected 9", rows.len()),
        ));
    }
    let mut board: Board = [None; SQUARES];
    for (row, text) in rows.iter().enumerate() {
        let rank = (b'a' + row as u8) as char;
        let mut column: i8 = 0;
        let mut promoted = false;
        for c in text.chars() {
            let too_wide = || {
                bad(
                    SfenField::Board,
                    format!("rank {rank} ({text:?}) is wider than 9 squares"),
                )
            };
            if c == '+' {
                if promoted {
                    return Err(bad(SfenField::Board, format!("rank {rank} ({text:?}) has \"++\"")));
                }
                promoted = true;
                continue;
            }
            if let Some(empty) = c.to_digit(10).filter(|d| *d >= 1 && !promoted) {
                column += empty as i8;
                if column > SIZE {
                    return Err(too_wide());
                }
                continue;
            }
            let base = Kind::from_letter(c).ok_or_else(|| {
                bad(
                    SfenField::Board,
                    format!(
                        "{c:?} in rank {rank} is not a piece (p l n s g b r k, + before a promoted one, or a digit 1-9)"
                    ),
                )
            })?;
            let kind = if promoted {
                base.promoted().ok_or_else(|| {
                    bad(
                        SfenField::Board,
                        format!("\"+{c}\" in rank {rank}: that piece does not promote"),
                    )
                })?
            } else {
                base
            };
            promoted = false;
            let color = if c.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            let square = Square::new(row as i8, column).ok_or_else(too_wide)?;
            board[square.index()] = Some(Piece { color, kind });
            column += 1;
        }
        if promoted {
            return Err(bad(SfenField::Board, format!("rank {rank} ({text:?}) ends with '+'")));
        }
        if column != SIZE {
            return Err(bad(
                SfenField::Board,
                format!("rank {rank} ({text:?}) covers {column} squares, expected 9"),
            ));
        }
    }
    Ok(board)
}

fn read_hands(text: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [[0u8; 7]; 2];
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(digit) = c.to_digit(10) {
            let so_far = count.unwrap_or(0) * 10 + digit;
            if so_far == 0 || so_far > 18 {
                return Err(bad(SfenField::Hands, format!("{text:?}: a count must be 1 to 18")));
            }
            count = Some(so_far);
            continue;
        }
        let index = Kind::from_letter(c).and_then(Kind::hand_index).ok_or_else(|| {
            bad(
                SfenField::Hands,
                format!("{c:?} is not a piece a hand holds (P L N S G B R, lowercase for gote, or \"-\")"),
            )
        })?;
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let held = &mut hands[color.index()][index];
        *held = held.saturating_add(count.take().unwrap_or(1) as u8);
    }
    if count.is_some() {
        return Err(bad(SfenField::Hands, format!("{text:?} ends with a count")));
    }
    Ok(hands)
}

/// Checks the pieces of both sides; returns the two kings' squares.
fn check_pieces(board: &Board, hands: &[Hand; 2]) -> Result<[Square; 2], SfenError> {
    let mut totals = [0u32; 7];
    for hand in hands {
        for (total, held) in totals.iter_mut().zip(hand) {
            *total += u32::from(*held);
        }
    }
    let mut kings = [None, None];
    let mut pawn_files = [[false; SIZE as usize]; 2];
    for square in Square::all() {
        let Some(piece) = board[square.index()] else { continue };
        let color = piece.color;
        if piece.kind == Kind::King {
            if kings[color.index()].replace(square).is_some() {
                return Err(bad(SfenField::Board, format!("{color} has two kings")));
            }
            continue;
        }
        if let Some(i) = piece.kind.hand_index() {
            totals[i] += 1;
        }
        if color.rows_to_go(square) < piece.kind.min_rows_to_go() {
            return Err(bad(
                SfenField::Board,
                format!("{color}'s {:?} on {square} could never move", piece.kind),
            ));
        }
        if piece.kind == Kind::Pawn {
            let seen = &mut pawn_files[color.index()][square.column() as usize];
            if *seen {
                return Err(bad(
                    SfenField::Board,
                    format!("{color} has two unpromoted pawns on file {}", square.file()),
                ));
            }
            *seen = true;
        }
    }
    for (kind, total) in Kind::IN_HAND.iter().zip(totals) {
        if total > u32::from(kind.total()) {
            return Err(bad(
                SfenField::Whole,
                format!(
                    "{total} {kind:?} pieces on the board and in hand, a set has {}",
                    kind.total()
                ),
            ));
        }
    }
    match kings {
        [Some(sente), Some(gote)] => Ok([sente, gote]),
        [None, _] => Err(bad(SfenField::Board, "sente has no king (K)")),
        [_, None] => Err(bad(SfenField::Board, "gote has no king (k)")),
    }
}

/// The position's SFEN, four fields, hands in the usual order (rook,
/// bishop, gold, silver, knight, lance, pawn; sente's first).
pub fn to_sfen(position: &Position) -> String {
    let mut sfen = String::with_capacity(100);
    for row in 0..SIZE {
        let mut empty = 0;
        for column in 0..SIZE {
            match Square::new(row, column).and_then(|s| position.piece_at(s)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        sfen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if piece.kind.is_promoted() {
                        sfen.push('+');
                    }
                    let letter = piece.kind.letter();
                    sfen.push(match piece.color {
                        Color::Sente => letter,
                        Color::Gote => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
        if row < SIZE - 1 {
            sfen.push('/');
        }
    }
    sfen.push_str(match position.side_to_move {
        Color::Sente => " b ",
        Color::Gote => " w ",
    });
    let mut hands = String::new();
    for color in [Color::Sente, Color::Gote] {
        for kind in Kind::IN_HAND.iter().rev() {
            let count = position.in_hand(color, *kind);
            if count > 1 {
                hands.push_str(&count.to_string());
            }
            if count > 0 {
                let letter = kind.letter();
                hands.push(match color {
                    Color::Sente => letter,
                    Color::Gote => letter.to_ascii_lowercase(),
                });
            }
        }
    }
    sfen.push_str(if hands.is_empty() { "-" } else { &hands });
    sfen.push_str(&format!(" {}", position.move_number));
    sfen
}
