//! The midgame evaluation: an estimate of the final disc difference for
//! the player to move, in hundredths of a disc.
//!
//! The classic features of hand-made Othello evaluations, weighted so
//! that one corner is worth several discs: mobility (moves now), potential
//! mobility (empty squares next to the opponent's discs: moves later),
//! corners, the squares next to an empty corner (which give it away),
//! stable discs, and parity (who is due the last move).

use super::bits::{legal_moves, neighbours};
use super::geometry::Geometry;
use super::stability::stable_discs;

/// Hundredths of a disc: the unit of every midgame value.
pub const DISC: i32 = 100;

const MOBILITY: i32 = 70;
const POTENTIAL_MOBILITY: i32 = 25;
const CORNER: i32 = 500;
const X_SQUARE: i32 = 250;
const C_SQUARE: i32 = 80;
const STABLE: i32 = 60;
const PARITY: i32 = 40;

/// The estimate for `p` to move against `o`.
pub fn evaluate(geo: &Geometry, p: u64, o: u64) -> i32 {
    let empty = geo.mask & !(p | o);
    let count = |w: u64| w.count_ones() as i32;
    let mobility = count(legal_moves(p, o, empty)) - count(legal_moves(o, p, empty));
    // Empty squares next to the opponent are where my moves will come
    // from; next to mine, theirs.
    let potential = count(neighbours(o) & empty) - count(neighbours(p) & empty);
    let corners = count(p & geo.corners) - count(o & geo.corners);
    let mut near_corners = 0;
    for (&(corner, x_square), &(_, c_squares)) in geo.x_squares.iter().zip(&geo.c_squares) {
        if corner & empty != 0 {
            near_corners -= X_SQUARE * (count(p & x_square) - count(o & x_square));
            near_corners -= C_SQUARE * (count(p & c_squares) - count(o & c_squares));
        }
    }
    // Stable discs grow from corners and full lines: none before either.
    let stable = if (p | o) & geo.corners != 0 {
        count(stable_discs(geo, p, o)) - count(stable_discs(geo, o, p))
    } else {
        0
    };
    let parity = if count(empty) % 2 == 1 { PARITY } else { -PARITY };
    MOBILITY * mobility + POTENTIAL_MOBILITY * potential + CORNER * corners + near_corners + STABLE * stable + parity
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::geometry::Size;
    use crate::games::othello::rules::OthelloState;

    #[test]
    fn the_start_is_even_and_a_corner_is_worth_having() {
        let start = OthelloState::new(Size::Eight);
        let (p, o) = start.mover_and_opponent();
        let geo = Size::Eight.geometry();
        // Symmetric: only parity (60 empties, even) differs from zero.
        assert_eq!(evaluate(geo, p, o), -PARITY);
        let with_corner = evaluate(geo, p | 1, o);
        let with_x_square = evaluate(geo, p | (1 << 9), o);
        assert!(with_corner > evaluate(geo, p, o) + 3 * DISC);
        assert!(with_x_square < evaluate(geo, p, o));
    }
}
