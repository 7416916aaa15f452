//! Impasse (jishogi) by declaration under the Japan Shogi Association's
//! 24-point rule for amateur games (24点法, the rule many amateur
//! tournaments and servers use).
//!
//! The side to move may declare instead of moving. The declaration is
//! valid when (1) its king stands in the opponent's camp (its promotion
//! zone, the far three ranks), (2) at least ten of its other pieces stand
//! there too, and (3) its king is not in check. Its points are those of
//! its pieces in that camp (the king not counted) and in its hand: a rook
//! or bishop, promoted or not, 5, every other piece 1. A valid declaration
//! with 31 points or more wins, with 24 to 30 draws; a declaration that is
//! not valid, or has fewer than 24 points, loses.
//!
//! (The CSA's 27-point rule, which USI's `bestmove win` follows, differs:
//! 28 points for sente and 27 for gote win, anything else may not be
//! declared. kibitz applies the 24-point rule.)

use super::board::{Color, Kind, Position, Square};
use super::movegen::in_check;

/// Pieces other than the king that must stand in the opponent's camp.
pub const PIECES_IN_CAMP: usize = 10;
/// Points from which a valid declaration wins.
pub const WINNING_POINTS: u32 = 31;
/// Points from which a valid declaration draws.
pub const DRAWING_POINTS: u32 = 24;

/// What a declaration by the side to move would give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub declarer: Color,
    pub king_in_camp: bool,
    /// The declarer's pieces in the camp, the king not counted.
    pub pieces_in_camp: usize,
    pub in_check: bool,
    /// Pieces in the camp and in hand, rook and bishop 5, others 1.
    pub points: u32,
    pub verdict: Verdict,
}

/// The result of a declaration for the declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

fn points(kind: Kind) -> u32 {
    match kind.unpromoted() {
        Kind::Bishop | Kind::Rook => 5,
        Kind::King => 0,
        _ => 1,
    }
}

/// Counts a declaration by the side to move (see the module's rule).
pub fn declaration(position: &Position) -> Declaration {
    let declarer = position.side_to_move();
    let king_in_camp = declarer.in_zone(position.king(declarer));
    let mut pieces_in_camp = 0;
    let mut total = 0;
    for square in Square::all().filter(|s| declarer.in_zone(*s)) {
        match position.piece_at(square) {
            Some(piece) if piece.color == declarer && piece.kind != Kind::King => {
                pieces_in_camp += 1;
                total += points(piece.kind);
            }
            _ => {}
        }
    }
    for kind in Kind::IN_HAND {
        total += points(kind) * u32::from(position.in_hand(declarer, kind));
    }
    let in_check = in_check(position, declarer);
    let valid = king_in_camp && pieces_in_camp >= PIECES_IN_CAMP && !in_check;
    let verdict = match total {
        _ if !valid => Verdict::Loss,
        t if t >= WINNING_POINTS => Verdict::Win,
        t if t >= DRAWING_POINTS => Verdict::Draw,
        _ => Verdict::Loss,
    };
    Declaration {
        declarer,
        king_in_camp,
        pieces_in_camp,
        in_check,
        points: total,
        verdict,
    }
}
