//! Stable discs: discs that no sequence of moves can turn.
//!
//! A disc is safe along one line (row, column, diagonal) when that line is
//! full, when it sits at the line's end on the board's edge, or when a
//! stable disc of its own colour is next to it on that line (a flanking run
//! would have to turn that one too). A disc safe along all four lines is
//! stable; the set grows from the corners until nothing changes. This
//! misses some stable discs but never counts an unstable one, which is
//! what a search bound needs.

use super::geometry::Geometry;

const NOT_FIRST_COLUMN: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_LAST_COLUMN: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The squares of full lines on each axis (rows, columns, diagonals,
/// anti-diagonals).
#[inline]
fn full_lines(geo: &Geometry, filled: u64) -> [u64; 4] {
    let mut full = [0u64; 4];
    for (axis, lines) in geo.lines.iter().enumerate() {
        for &line in &lines.masks[..lines.count] {
            if filled & line == line {
                full[axis] |= line;
            }
        }
    }
    full
}

/// The stable discs of `own` (with `other` the opponent's discs).
pub fn stable_discs(geo: &Geometry, own: u64, other: u64) -> u64 {
    let filled = own | other;
    let full = full_lines(geo, filled);
    let edge_both = geo.edge_columns | geo.edge_rows;
    // What is safe whatever the neighbours: full lines and edge ends.
    let horizontal = full[0] | geo.edge_columns;
    let vertical = full[1] | geo.edge_rows;
    let diagonal = full[2] | edge_both;
    let anti = full[3] | edge_both;
    let mut stable = 0u64;
    loop {
        let beside = ((stable << 1) & NOT_FIRST_COLUMN) | ((stable >> 1) & NOT_LAST_COLUMN);
        let above_below = (stable << 8) | (stable >> 8);
        let on_diagonal = ((stable << 9) & NOT_FIRST_COLUMN) | ((stable >> 9) & NOT_LAST_COLUMN);
        let on_anti = ((stable << 7) & NOT_LAST_COLUMN) | ((stable >> 7) & NOT_FIRST_COLUMN);
        let grown =
            own & (horizontal | beside) & (vertical | above_below) & (diagonal | on_diagonal) & (anti | on_anti);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::geometry::Size;

    fn word(rows: &[&str], c: char) -> u64 {
        let mut w = 0;
        for (r, row) in rows.iter().enumerate() {
            for (col, ch) in row.chars().enumerate() {
                if ch == c {
                    w |= 1 << (r * 8 + col);
                }
            }
        }
        w
    }

    #[test]
    fn corners_and_edge_runs_from_them_are_stable_and_the_centre_is_not() {
        let rows = [
            "XXXO....", "XX......", "X.......", "...XO...", "...OX...", "........", "........", ".......O",
        ];
        let (x, o) = (word(&rows, 'X'), word(&rows, 'O'));
        let geo = Size::Eight.geometry();
        let stable_x = stable_discs(geo, x, o);
        assert_eq!(stable_x, word(&["XXX.....", "XX......", "X......."], 'X'));
        assert_eq!(stable_discs(geo, o, x), 1 << 63);
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let geo = Size::Six.geometry();
        let x = 0x0000_0015_2A15_2A15 & geo.mask;
        let o = geo.mask & !x;
        assert_eq!(stable_discs(geo, x, o), x);
        assert_eq!(stable_discs(geo, o, x), o);
    }
}
