//! Difficulty levels: how an AI below its best makes controlled, human-like
//! mistakes.
//!
//! The best strategy gives every candidate move a value on a common scale on
//! which 1.0 is the difference between winning and losing a game for sure
//! (a win probability is already on it; callers may stretch values whose
//! meaningful differences are small). Level 10 plays the best move (the
//! first among equals). Below it a move is drawn with probability
//! proportional to `exp(value / T)`: the temperature `T` grows as the level
//! drops, so a weak AI often misjudges close decisions but rarely throws
//! away a clear one. No level is uniformly random: at level 1 a move worth
//! 0.5 more than another is still about 12 times as likely.

use rand::{Rng, RngCore};

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 10;

/// The temperature at level 1; each level up multiplies it by
/// [`LEVEL_RATIO`], down to 0.02 at level 9 (level 10 is exact).
const LEVEL_ONE_TEMPERATURE: f64 = 0.2;
/// (0.02 / 0.2)^(1/8).
const LEVEL_RATIO: f64 = 0.749_894_209_332_455_8;

/// The softmax temperature of `level` (0 at level 10 and above: always the
/// best move). Levels below 1 count as 1.
pub fn temperature(level: u8) -> f64 {
    if level >= MAX_LEVEL {
        return 0.0;
    }
    let steps = i32::from(level.max(MIN_LEVEL) - MIN_LEVEL);
    LEVEL_ONE_TEMPERATURE * LEVEL_RATIO.powi(steps)
}

/// The index of the best value, the first among equals; NaN counts as the
/// worst value. None for an empty slice.
pub fn best_index(values: &[f64]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &v) in values.iter().enumerate() {
        let v = if v.is_nan() { f64::NEG_INFINITY } else { v };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// The probability with which each move is chosen at `level`. Sums to 1
/// (all mass on the best move at level 10). Empty for an empty slice.
pub fn probabilities(values: &[f64], level: u8) -> Vec<f64> {
    let Some(best) = best_index(values) else {
        return Vec::new();
    };
    let t = temperature(level);
    let top = values[best];
    if t <= 0.0 || !top.is_finite() {
        let mut p = vec![0.0; values.len()];
        p[best] = 1.0;
        return p;
    }
    let weights: Vec<f64> = values
        .iter()
        .map(|&v| if v.is_nan() { 0.0 } else { ((v - top) / t).exp() })
        .collect();
    // The best move has weight 1, so the total is at least 1.
    let total: f64 = weights.iter().sum();
    weights.into_iter().map(|w| w / total).collect()
}

/// Chooses a move at `level`: the best at level 10 (the RNG is not touched
/// then), else a softmax draw. None for an empty slice.
pub fn choose<R: RngCore + ?Sized>(values: &[f64], level: u8, rng: &mut R) -> Option<usize> {
    if level >= MAX_LEVEL {
        return best_index(values);
    }
    let p = probabilities(values, level);
    if p.is_empty() {
        return None;
    }
    let mut u: f64 = rng.gen::<f64>();
    for (i, &pi) in p.iter().enumerate() {
        if u < pi {
            return Some(i);
        }
        u -= pi;
    }
    // Rounding left u just above the last share: the last move with any.
    p.iter().rposition(|&pi| pi > 0.0).or(Some(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn temperature_falls_as_the_level_rises() {
        for level in MIN_LEVEL..MAX_LEVEL {
            assert!(temperature(level) > temperature(level + 1), "level {level}");
        }
        assert_eq!(temperature(10), 0.0);
        assert!((temperature(9) - 0.02).abs() < 1e-12);
        assert_eq!(temperature(0), temperature(1));
    }

    #[test]
    fn level_ten_always_plays_the_first_best_move() {
        let mut rng = StdRng::seed_from_u64(1);
        let values = [0.2, 0.9, 0.9, f64::NAN];
        for _ in 0..100 {
            assert_eq!(choose(&values, 10, &mut rng), Some(1));
        }
        assert_eq!(choose(&[], 10, &mut rng), None);
        assert_eq!(choose(&[], 3, &mut rng), None);
        assert_eq!(probabilities(&values, 10), vec![0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn every_level_prefers_better_moves_and_none_is_uniform() {
        let values = [0.0, 0.5, 1.0, 0.75];
        for level in MIN_LEVEL..=MAX_LEVEL {
            let p = probabilities(&values, level);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(p[2] > p[3] || level == MAX_LEVEL, "level {level}: {p:?}");
            assert!(p[3] >= p[1] && p[1] >= p[0], "level {level}: {p:?}");
            assert!(p[2] > 0.5, "level {level}: the best move is the likeliest: {p:?}");
        }
        let weakest = probabilities(&values, 1);
        assert!(weakest[0] > 0.0, "level 1 makes mistakes: {weakest:?}");
        // Higher levels put more weight on the best move.
        for level in MIN_LEVEL..MAX_LEVEL {
            assert!(probabilities(&values, level)[2] < probabilities(&values, level + 1)[2]);
        }
    }

    #[test]
    fn draws_follow_the_probabilities() {
        let values = [1.0, 0.9, 0.5];
        let p = probabilities(&values, 1);
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = [0usize; 3];
        let n = 20_000;
        for _ in 0..n {
            counts[choose(&values, 1, &mut rng).unwrap()] += 1;
        }
        for i in 0..3 {
            let share = counts[i] as f64 / n as f64;
            assert!((share - p[i]).abs() < 0.02, "move {i}: {share} vs {}", p[i]);
        }
    }

    #[test]
    fn odd_values_do_not_break_the_draw() {
        let mut rng = StdRng::seed_from_u64(3);
        for values in [
            vec![f64::NAN, f64::NAN],
            vec![f64::INFINITY, 0.0],
            vec![f64::NEG_INFINITY, 0.0],
            vec![1e300, -1e300],
            vec![0.0],
        ] {
            for level in MIN_LEVEL..=MAX_LEVEL {
                let i = choose(&values, level, &mut rng).unwrap();
                assert!(i < values.len());
            }
        }
    }
}
