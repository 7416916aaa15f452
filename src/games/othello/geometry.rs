//! The board sizes and the masks the search needs for each.
//!
//! Every size lives in one 64-bit word laid out as the 8x8 board: bit
//! `row * 8 + col`, a1 (row 0, column 0, the top-left corner) being bit 0.
//! A 4x4 or 6x6 board uses the top-left corner of that word; `mask` marks
//! its playable squares. Discs never sit outside the mask, so the shift
//! move generator needs no other change: a line that runs off a small
//! board meets a square with no disc, exactly as at the edge of 8x8.

/// A side of the board: 4, 6 or 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub enum Size {
    Four,
    Six,
    Eight,
}

impl Size {
    pub const ALL: [Size; 3] = [Size::Four, Size::Six, Size::Eight];

    pub fn side(self) -> u32 {
        match self {
            Size::Four => 4,
            Size::Six => 6,
            Size::Eight => 8,
        }
    }

    pub fn from_side(side: u32) -> Option<Size> {
        match side {
            4 => Some(Size::Four),
            6 => Some(Size::Six),
            8 => Some(Size::Eight),
            _ => None,
        }
    }

    pub fn squares(self) -> u32 {
        self.side() * self.side()
    }

    pub fn geometry(self) -> &'static Geometry {
        match self {
            Size::Four => &GEOMETRY_4,
            Size::Six => &GEOMETRY_6,
            Size::Eight => &GEOMETRY_8,
        }
    }
}

impl TryFrom<u32> for Size {
    type Error = String;
    fn try_from(side: u32) -> Result<Size, String> {
        Size::from_side(side).ok_or_else(|| format!("size = {side}; expected 4, 6 or 8"))
    }
}

impl From<Size> for u32 {
    fn from(size: Size) -> u32 {
        size.side()
    }
}

/// Lines (rows, columns, diagonals) of one axis; at most 15 on 8x8.
#[derive(Debug)]
pub struct Lines {
    pub masks: [u64; 15],
    pub count: usize,
}

#[derive(Debug)]
pub struct Geometry {
    pub size: Size,
    /// The playable squares.
    pub mask: u64,
    /// Playable squares as a count: the disc difference's range.
    pub squares: i32,
    pub corners: u64,
    /// The squares diagonally next to each corner (X-squares), paired with
    /// their corner, and the squares next to a corner along an edge
    /// (C-squares).
    pub x_squares: [(u64, u64); 4],
    pub c_squares: [(u64, u64); 4],
    /// The four quadrants: parity ordering plays first in a quadrant with
    /// an odd number of empties, where the mover is likely to get the
    /// last move.
    pub quadrants: [u64; 4],
    /// The quadrant each square belongs to (zero off the board): playing
    /// the square flips that quadrant's parity.
    pub quadrant_of: [u64; 64],
    /// Playable squares on the first or last column, row, and either.
    pub edge_columns: u64,
    pub edge_rows: u64,
    /// Rows, columns, diagonals (a1-h8 direction), anti-diagonals.
    pub lines: [Lines; 4],
}

const fn bit(row: u32, col: u32) -> u64 {
    1u64 << (row * 8 + col)
}

const fn build(size: Size, side: u32) -> Geometry {
    let last = side - 1;
    let mut mask = 0u64;
    let mut edge_columns = 0u64;
    let mut edge_rows = 0u64;
    let mut quadrants = [0u64; 4];
    let half = side / 2;
    let mut row = 0;
    while row < side {
        let mut col = 0;
        while col < side {
            let b = bit(row, col);
            mask |= b;
            if col == 0 || col == last {
                edge_columns |= b;
            }
            if row == 0 || row == last {
                edge_rows |= b;
            }
            let q = (if row < half { 0 } else { 2 }) + if col < half { 0 } else { 1 };
            quadrants[q] |= b;
            col += 1;
        }
        row += 1;
    }
    let mut rows = Lines {
        masks: [0; 15],
        count: side as usize,
    };
    let mut cols = Lines {
        masks: [0; 15],
        count: side as usize,
    };
    let mut diagonals = Lines {
        masks: [0; 15],
        count: (2 * side - 1) as usize,
    };
    let mut anti = Lines {
        masks: [0; 15],
        count: (2 * side - 1) as usize,
    };
    let mut row = 0;
    while row < side {
        let mut col = 0;
        while col < side {
            let b = bit(row, col);
            rows.masks[row as usize] |= b;
            cols.masks[col as usize] |= b;
            // col - row + last is constant along a1-h8 diagonals.
            diagonals.masks[(col + last - row) as usize] |= b;
            anti.masks[(col + row) as usize] |= b;
            col += 1;
        }
        row += 1;
    }
    let mut quadrant_of = [0u64; 64];
    let mut q = 0;
    while q < 4 {
        let mut square = 0;
        while square < 64 {
            if quadrants[q] & (1u64 << square) != 0 {
                quadrant_of[square] = quadrants[q];
            }
            square += 1;
        }
        q += 1;
    }
    let corners = bit(0, 0) | bit(0, last) | bit(last, 0) | bit(last, last);
    let x_squares = [
        (bit(0, 0), bit(1, 1)),
        (bit(0, last), bit(1, last - 1)),
        (bit(last, 0), bit(last - 1, 1)),
        (bit(last, last), bit(last - 1, last - 1)),
    ];
    let c_squares = [
        (bit(0, 0), bit(0, 1) | bit(1, 0)),
        (bit(0, last), bit(0, last - 1) | bit(1, last)),
        (bit(last, 0), bit(last - 1, 0) | bit(last, 1)),
        (bit(last, last), bit(last, last - 1) | bit(last - 1, last)),
    ];
    Geometry {
        size,
        mask,
        squares: (side * side) as i32,
        corners,
        x_squares,
        c_squares,
        quadrants,
        quadrant_of,
        edge_columns,
        edge_rows,
        lines: [rows, cols, diagonals, anti],
    }
}

static GEOMETRY_4: Geometry = build(Size::Four, 4);
static GEOMETRY_6: Geometry = build(Size::Six, 6);
static GEOMETRY_8: Geometry = build(Size::Eight, 8);

impl Geometry {
    /// The quadrants holding an odd number of `empty` squares.
    #[inline]
    pub fn odd_quadrants(&self, empty: u64) -> u64 {
        let mut odd = 0;
        for quadrant in self.quadrants {
            if (empty & quadrant).count_ones() & 1 == 1 {
                odd |= quadrant;
            }
        }
        odd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_the_board_and_quadrants_split_it() {
        for size in Size::ALL {
            let geo = size.geometry();
            assert_eq!(geo.mask.count_ones(), size.squares());
            assert_eq!(geo.quadrants.iter().fold(0, |a, q| a | q), geo.mask);
            for q in geo.quadrants {
                assert_eq!(q.count_ones(), size.squares() / 4);
            }
            for lines in &geo.lines {
                let union = lines.masks[..lines.count].iter().fold(0, |a, l| a | l);
                assert_eq!(union, geo.mask);
            }
            assert_eq!(geo.corners.count_ones(), 4);
        }
    }
}
