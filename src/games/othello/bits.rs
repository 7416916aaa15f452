//! Move generation and flips on bitboards: one word for the player to move
//! (`p`), one for the opponent (`o`), in the layout of [`super::geometry`].
//!
//! Legal moves come from shifting the mover's discs through runs of the
//! opponent's in each of the eight directions, all squares at once (the
//! way Edax's portable generator does it). Flips of one move come from
//! precomputed rays: along each direction, the first square that is not
//! the opponent's decides whether the run between is taken.

/// Not the first column / not the last: stops horizontal shifts wrapping
/// from one row into the next.
const NOT_FIRST_COLUMN: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_LAST_COLUMN: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// The interior columns: a run along a row or a diagonal never goes
/// through the first or last column.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares reached from `p` along one shift through runs of `through`,
/// one step past the run: both directions of a line at once.
#[inline(always)]
fn line_moves(p: u64, through: u64, shift: u32) -> u64 {
    // Up to six opponent discs can lie between a disc and its move: a
    // doubling fill covers them in four steps each way.
    let mut forward = through & (p << shift);
    forward |= through & (forward << shift);
    let pairs = through & (through << shift);
    forward |= pairs & (forward << (2 * shift));
    forward |= pairs & (forward << (2 * shift));

    let mut backward = through & (p >> shift);
    backward |= through & (backward >> shift);
    let pairs = through & (through >> shift);
    backward |= pairs & (backward >> (2 * shift));
    backward |= pairs & (backward >> (2 * shift));

    (forward << shift) | (backward >> shift)
}

/// The legal moves of `p` against `o` among the `empty` squares.
#[inline]
pub fn legal_moves(p: u64, o: u64, empty: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    (line_moves(p, inner, 1) | line_moves(p, o, 8) | line_moves(p, inner, 7) | line_moves(p, inner, 9)) & empty
}

/// Direction steps: east, south-west, south, south-east raise the bit
/// index; the other four lower it.
const STEPS: [(i32, i32); 8] = [(0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let mut row = (square / 8) as i32 + dr;
            let mut col = (square % 8) as i32 + dc;
            let mut ray = 0u64;
            while row >= 0 && row < 8 && col >= 0 && col < 8 {
                ray |= 1u64 << (row * 8 + col);
                row += dr;
                col += dc;
            }
            rays[square][d] = ray;
            d += 1;
        }
        square += 1;
    }
    rays
}

/// The squares beyond each square in each direction, to the edge of 8x8.
static RAYS: [[u64; 8]; 64] = RAYS_CONST;

const fn build_neighbourhoods() -> [u64; 64] {
    let mut around = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            // The first square of each ray.
            let ray = RAYS_CONST[square][d];
            let first = if d < 4 {
                ray & ray.wrapping_neg()
            } else if ray == 0 {
                0
            } else {
                1u64 << (63 - ray.leading_zeros())
            };
            around[square] |= first;
            d += 1;
        }
        square += 1;
    }
    around
}

const RAYS_CONST: [[u64; 8]; 64] = build_rays();
/// The squares next to each square.
static NEIGHBOURHOODS: [u64; 64] = build_neighbourhoods();

/// The discs of `o` that `p` turns by playing `square` (0..64); zero when
/// the move is not legal.
#[inline(always)]
pub fn flips(p: u64, o: u64, square: u32) -> u64 {
    // Most empty squares late in the game touch no opponent disc: one
    // test rejects them.
    if NEIGHBOURHOODS[square as usize] & o == 0 {
        return 0;
    }
    let rays = &RAYS[square as usize];
    let mut flipped = 0;
    // Directions that raise the index: the nearest non-opponent square is
    // the lowest set bit.
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let nearest = stop & stop.wrapping_neg();
        if nearest & p != 0 {
            flipped |= ray & (nearest - 1);
        }
    }
    // The others: the nearest is the highest set bit.
    for &ray in &rays[4..] {
        let stop = ray & !o;
        if stop != 0 {
            let nearest = 1u64 << (63 - stop.leading_zeros());
            if nearest & p != 0 {
                flipped |= ray & !(nearest | (nearest - 1));
            }
        }
    }
    flipped
}

/// Empty squares next to a disc of `discs`: the frontier, where moves can
/// appear later (potential mobility).
#[inline]
pub fn neighbours(discs: u64) -> u64 {
    let horizontal = ((discs << 1) & NOT_FIRST_COLUMN) | ((discs >> 1) & NOT_LAST_COLUMN);
    let row_and_sides = discs | horizontal;
    horizontal | (row_and_sides << 8) | (row_and_sides >> 8)
}

/// Iterates the set bits of a word as square indices, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flips found by walking the board square by square, for comparison.
    fn flips_by_walking(p: u64, o: u64, square: u32) -> u64 {
        let mut flipped = 0;
        for (dr, dc) in STEPS {
            let (mut row, mut col) = ((square / 8) as i32 + dr, (square % 8) as i32 + dc);
            let mut run = 0u64;
            while (0..8).contains(&row) && (0..8).contains(&col) {
                let b = 1u64 << (row * 8 + col);
                if o & b != 0 {
                    run |= b;
                } else {
                    if p & b != 0 {
                        flipped |= run;
                    }
                    break;
                }
                row += dr;
                col += dc;
            }
        }
        flipped
    }

    #[test]
    fn flips_and_moves_agree_with_a_square_by_square_walk() {
        // A fixed xorshift sequence of random boards.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let b = next();
            let p = a & !b;
            let o = b & !a & next();
            let empty = !(p | o);
            let mut expected_moves = 0;
            for square in Squares(empty) {
                let walked = flips_by_walking(p, o, square);
                assert_eq!(flips(p, o, square), walked, "p {p:#x} o {o:#x} square {square}");
                if walked != 0 {
                    expected_moves |= 1 << square;
                }
            }
            assert_eq!(legal_moves(p, o, empty), expected_moves, "p {p:#x} o {o:#x}");
        }
    }
}
