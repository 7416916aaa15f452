//! lichess's measures of play, re-derived from their published
//! definitions (lila's `WinPercent`, `AccuracyPercent` and `Advice`):
//!
//! - **Win%** of a centipawn score: `50 + 50 * (2 / (1 + e^(-0.00368208 cp)) - 1)`,
//!   the score first clamped to +-1000 (a mate counts as +-1000). The
//!   constant is lichess's fit of game results against Stockfish's
//!   evaluation.
//! - **Move accuracy** from the mover's win% before and after the move:
//!   100 when the move loses nothing, else `103.1668 * e^(-0.04354 d) - 3.1669`
//!   for a drop of `d` points, plus lichess's bonus of 1 for the engine's
//!   imperfection, kept within 0..100 (a fitted curve: a drop of 5 points
//!   costs ~19% of accuracy, 20 points ~58%).
//! - **Judgments** from the drop in the mover's win%: 5 points an
//!   inaccuracy, 10 a mistake, 15 a blunder (lichess's 0.1, 0.2, 0.3 in its
//!   -1..1 "winning chances" scale, halved to 0..100).
//! - **Game accuracy** per side: the mean of a volatility-weighted mean and
//!   a harmonic mean of the side's move accuracies. Each move is weighted by
//!   the standard deviation (population) of the win% over a window around
//!   it, clamped to 0.5..12, so that moves in a calm game count less than
//!   those in a sharp one; the harmonic mean makes one blunder cost more
//!   than an arithmetic mean would.

use crate::review::Judgment;

/// A drop of this many win% points (or more) is an inaccuracy.
pub const INACCURACY_DROP: f64 = 5.0;
/// ... a mistake.
pub const MISTAKE_DROP: f64 = 10.0;
/// ... a blunder.
pub const BLUNDER_DROP: f64 = 15.0;

/// The accuracy (0..100) of a move that took the mover's win% from
/// `before` to `after`.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411 + 1.0).clamp(0.0, 100.0)
}

/// The judgment of a move by the drop in the mover's win%; `is_best` when
/// it is the engine's choice.
pub fn judge(drop: f64, is_best: bool) -> Judgment {
    if drop >= BLUNDER_DROP {
        Judgment::Blunder
    } else if drop >= MISTAKE_DROP {
        Judgment::Mistake
    } else if drop >= INACCURACY_DROP {
        Judgment::Inaccuracy
    } else if is_best {
        Judgment::Best
    } else {
        Judgment::Good
    }
}

/// Each side's game accuracy, `(first mover, second mover)`, from White's
/// (or any one side's) win% before the first move and after each move:
/// `win_percents[0]` is the start, `win_percents[i + 1]` after move `i`,
/// all from the first mover's view. None for a side that made no move.
pub fn game_accuracy(win_percents: &[f64]) -> (Option<f64>, Option<f64>) {
    let moves = win_percents.len().saturating_sub(1);
    if moves == 0 {
        return (None, None);
    }
    let window = (moves / 10).clamp(2, 8).min(win_percents.len());
    // One weight per move: the first (window - 2) moves reuse the first
    // window, then the window slides one move at a time.
    let first = &win_percents[..window];
    let weights: Vec<f64> = std::iter::repeat_n(first, window.saturating_sub(2))
        .chain(win_percents.windows(window))
        .map(|w| population_std_dev(w).clamp(0.5, 12.0))
        .collect();
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, pair) in win_percents.windows(2).enumerate() {
        let (before, after) = if i % 2 == 0 {
            (pair[0], pair[1])
        } else {
            (100.0 - pair[0], 100.0 - pair[1])
        };
        let weight = weights.get(i).copied().unwrap_or(0.5);
        sides[i % 2].push((move_accuracy(before, after), weight));
    }
    let [first_mover, second_mover] = sides;
    (side_accuracy(&first_mover), side_accuracy(&second_mover))
}

fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total_weight: f64 = moves.iter().map(|(_, w)| w).sum();
    let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / total_weight;
    // lichess floors each term at 1 so that a 0% move does not make the
    // mean 0 outright.
    let harmonic = moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

fn population_std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::score::{win_percent, win_percent_cp};
    use crate::engines::Score;

    #[test]
    fn win_percent_is_even_at_zero_and_saturates_at_the_ceiling() {
        assert!((win_percent_cp(0) - 50.0).abs() < 1e-9);
        // Symmetric, and clamped at 1000 cp.
        assert!((win_percent_cp(300) + win_percent_cp(-300) - 100.0).abs() < 1e-9);
        assert_eq!(win_percent_cp(5000), win_percent_cp(1000));
        assert_eq!(win_percent(Score::Mate(3)), win_percent_cp(1000));
        assert_eq!(win_percent(Score::Mate(-1)), win_percent_cp(-1000));
        // 1000 cp is about 97.5% (2 / (1 + e^-3.682) - 1 = 0.9509).
        assert!((win_percent_cp(1000) - 97.547).abs() < 0.01, "{}", win_percent_cp(1000));
    }

    #[test]
    fn accuracy_is_perfect_without_a_drop_and_falls_with_it() {
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(40.0, 70.0), 100.0);
        // The fitted curve plus the bonus: ~100 at a tiny drop (capped).
        assert_eq!(move_accuracy(50.0, 49.99), 100.0);
        let a10 = move_accuracy(60.0, 50.0);
        assert!((a10 - 64.56).abs() < 0.05, "{a10}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn judgments_follow_lichess_thresholds() {
        assert_eq!(judge(0.0, true), Judgment::Best);
        assert_eq!(judge(4.9, false), Judgment::Good);
        assert_eq!(judge(5.0, false), Judgment::Inaccuracy);
        assert_eq!(judge(10.0, true), Judgment::Mistake);
        assert_eq!(judge(15.0, false), Judgment::Blunder);
    }

    #[test]
    fn game_accuracy_rewards_the_side_that_kept_its_chances() {
        // The first mover holds 50%; the second drops to 20% then 10%.
        let wp = [50.0, 50.0, 80.0, 80.0, 90.0, 90.0];
        let (first, second) = game_accuracy(&wp);
        let (first, second) = (first.unwrap_or(-1.0), second.unwrap_or(-1.0));
        assert!((first - 100.0).abs() < 1e-9, "{first}");
        assert!(second < 70.0 && second > 0.0, "{second}");
        assert_eq!(game_accuracy(&[50.0]), (None, None));
        assert_eq!(game_accuracy(&[50.0, 50.0]).1, None);
    }
}
