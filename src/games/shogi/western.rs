//! The Western notation English-language shogi books use (Hodges'):
//! the piece (`P`, `L`, `N`, `S`, `G`, `B`, `R`, `K`; promoted `+P`, `+L`,
//! `+N`, `+S`, `+B`, `+R`), its origin square only when another piece of
//! that kind could reach the same square, `-` for a move, `x` for a
//! capture or `*` for a drop, the destination, then `+` when the piece
//! promotes and `=` when it could and does not (`P-7f`, `Bx2b+`, `S*5e`,
//! `G6i-5h`).

use super::board::{Kind, Position};
use super::notation::Move;

fn piece_name(kind: Kind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.letter())
    } else {
        kind.letter().to_string()
    }
}

/// `mv` in Western notation, in `position` (before the move); None when
/// it is not one of the position's legal moves.
pub fn western(position: &Position, mv: Move) -> Option<String> {
    let legal = position.legal_moves();
    if !legal.contains(&mv) {
        return None;
    }
    match mv {
        Move::Drop { kind, to } => Some(format!("{}*{}", piece_name(kind), to.name())),
        Move::Board { from, to, promote } => {
            let kind = position.piece_at(from)?.kind;
            // Another piece of the kind that may go to the same square
            // makes the origin part of the name.
            let ambiguous = legal.iter().any(|other| {
                matches!(*other, Move::Board { from: f, to: t, .. }
                    if t == to && f != from && position.piece_at(f).map(|p| p.kind) == Some(kind))
            });
            let origin = if ambiguous { from.name() } else { String::new() };
            let action = if position.piece_at(to).is_some() { 'x' } else { '-' };
            let could_promote = legal.contains(&Move::Board {
                from,
                to,
                promote: !promote,
            });
            let suffix = match (promote, could_promote) {
                (true, _) => "+",
                (false, true) => "=",
                (false, false) => "",
            };
            Some(format!("{}{origin}{action}{}{suffix}", piece_name(kind), to.name()))
        }
    }
}

/// A line of moves (USI, legal in turn from `position`) in Western
/// notation; it stops at the first move it cannot read.
pub fn western_line(position: &Position, moves: &[String]) -> Vec<String> {
    let mut position = position.clone();
    let mut line = Vec::with_capacity(moves.len());
    for text in moves {
        let Ok(mv) = position.parse_move(text) else { break };
        let Some(readable) = western(&position, mv) else { break };
        line.push(readable);
        position = position.after(mv);
    }
    line
}
