//! The integer a board is packed into: `u64` when the grid fits (7x6 does:
//! 7 columns of 6 cells plus a guard bit each), `u128` for the biggest
//! grids. The search is generic over it, so 7x6 pays for no wider words.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub};

pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const WIDTH: u32;
    fn ones(self) -> u32;
    fn lowest(self) -> u32;
    fn widen(self) -> u128;
    /// The low bits of `value` (callers only pass values that fit).
    fn narrow(value: u128) -> Self;
    /// A 64-bit digest: the value itself when it fits.
    fn fold(self) -> u64;
}

/// Counts set bits one by one: the sets counted here (winning cells) hold
/// a few bits, and without the POPCNT instruction (not in the baseline
/// x86-64 target) this beats the general bit-twiddling count.
#[inline(always)]
fn sparse_ones<B: Bits>(mut bits: B) -> u32 {
    let mut count = 0;
    while bits != B::ZERO {
        bits &= bits - B::ONE;
        count += 1;
    }
    count
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const WIDTH: u32 = 64;
    #[inline(always)]
    fn ones(self) -> u32 {
        sparse_ones(self)
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    fn widen(self) -> u128 {
        self as u128
    }
    fn narrow(value: u128) -> Self {
        value as u64
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        self
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const WIDTH: u32 = 128;
    #[inline(always)]
    fn ones(self) -> u32 {
        sparse_ones(self)
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    fn widen(self) -> u128 {
        self
    }
    fn narrow(value: u128) -> Self {
        value
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        // Keys wider than 64 bits are digested; see solve::table on what a
        // digest costs in certainty.
        let high = (self >> 64) as u64;
        (self as u64) ^ high.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
    }
}
