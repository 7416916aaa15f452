//! SplitMix64's finaliser, the one integer mixer of the crate: Zobrist keys
//! for the searches and independent seeds for the arena's series.

/// The golden-ratio increment SplitMix64 steps its state by.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Spreads the bits of `z` over all 64 (a bijection: distinct inputs stay
/// distinct).
pub fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step from state `x`: its output for `x + gamma`.
pub fn mix(x: u64) -> u64 {
    finalise(x.wrapping_add(GOLDEN_GAMMA))
}
