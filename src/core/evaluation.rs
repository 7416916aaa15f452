//! The one scale every game's analysis answers on, beside its own measures:
//! the side to move's chance to win, a draw counted as half. One eval bar
//! and one hint widget read it for every game.

use serde::{Deserialize, Serialize};

use super::outcome::Outcome;

/// `evaluation` in every analysis answer, per-move entry and streamed line.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// 0 to 1: the side to move's chance to win, a draw counted as half.
    pub win_chance: f64,
    /// The result under perfect play where it is known.
    pub outcome: Option<Outcome>,
    /// True only where the value is proved.
    pub exact: bool,
    /// Plies until the game ends under perfect play, where known.
    pub plies_to_end: Option<u32>,
}

impl Evaluation {
    /// A proved result of a game without chance: 1, 0.5 or 0.
    pub fn proved(outcome: Outcome, plies_to_end: Option<u32>) -> Evaluation {
        Evaluation {
            win_chance: outcome.points(),
            outcome: Some(outcome),
            exact: true,
            plies_to_end,
        }
    }

    /// A final margin from the side to move's view (discs, seeds, points):
    /// its sign when `exact`, else an estimate on `scale` (see
    /// [`Evaluation::estimate`]).
    pub fn of_margin(margin: f64, exact: bool, plies_to_end: Option<u32>, scale: f64) -> Evaluation {
        if exact {
            Evaluation::proved(Outcome::of_margin(margin), plies_to_end)
        } else {
            Evaluation::estimate(margin, scale)
        }
    }

    /// A searched estimate on a game's own scale, mapped by the logistic
    /// curve: 0.5 at an even score, about 0.73 at `scale`, monotone in
    /// between. Each game documents its `scale` (the score that means
    /// "clearly better").
    pub fn estimate(score: f64, scale: f64) -> Evaluation {
        Evaluation::chance(logistic(score, scale), false)
    }

    /// A chance that is itself the game's value (Pig's win probability, a
    /// lichess win%), exact or not. The outcome is named only when the
    /// chance is certain and exact.
    pub fn chance(win_chance: f64, exact: bool) -> Evaluation {
        let win_chance = if win_chance.is_finite() {
            win_chance.clamp(0.0, 1.0)
        } else {
            0.5
        };
        let outcome = match win_chance {
            _ if !exact => None,
            c if c >= 1.0 => Some(Outcome::Win),
            c if c <= 0.0 => Some(Outcome::Loss),
            _ => None,
        };
        Evaluation {
            win_chance,
            outcome,
            exact,
            plies_to_end: None,
        }
    }

    /// The same evaluation from the other player's view.
    pub fn flipped(self) -> Evaluation {
        Evaluation {
            win_chance: 1.0 - self.win_chance,
            outcome: self.outcome.map(Outcome::flipped),
            ..self
        }
    }
}

/// `1 / (1 + e^(-score / scale))`; a scale that is not positive reads as 1.
pub fn logistic(score: f64, scale: f64) -> f64 {
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let chance = 1.0 / (1.0 + (-score / scale).exp());
    if chance.is_finite() {
        chance
    } else {
        0.5
    }
}

/// lichess's winning chances from a centipawn score, 0..1: the formula its
/// analysis board and accuracy use (`WinPercent` in lila, / 100), `cp`
/// clamped to +-1000. The slope is lichess's fit of game results against
/// Stockfish's evaluation; the chess-like games (chess, xiangqi, shogi)
/// all answer on it.
pub fn lichess_win_chance(cp: f64) -> f64 {
    const LICHESS_SLOPE: f64 = 0.003_682_08;
    let cp = if cp.is_nan() { 0.0 } else { cp.clamp(-1000.0, 1000.0) };
    0.5 + 0.5 * (2.0 / (1.0 + (-LICHESS_SLOPE * cp).exp()) - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_are_even_at_zero_and_monotone() {
        assert_eq!(Evaluation::estimate(0.0, 10.0).win_chance, 0.5);
        let chances: Vec<f64> = (-50..=50)
            .map(|s| Evaluation::estimate(f64::from(s), 7.0).win_chance)
            .collect();
        assert!(chances.windows(2).all(|w| w[0] < w[1]));
        assert!(chances.iter().all(|&c| (0.0..=1.0).contains(&c)));
        let e = Evaluation::estimate(10.0, 10.0);
        assert!((e.win_chance - 0.7310585786).abs() < 1e-9);
        assert!(!e.exact && e.outcome.is_none());
    }

    #[test]
    fn huge_scores_stay_in_range() {
        assert_eq!(Evaluation::estimate(1e308, 1e-300).win_chance, 1.0);
        assert_eq!(Evaluation::estimate(-1e308, 1e-300).win_chance, 0.0);
        assert_eq!(Evaluation::estimate(f64::NAN, 1.0).win_chance, 0.5);
        assert_eq!(Evaluation::estimate(3.0, 0.0).win_chance, logistic(3.0, 1.0));
    }

    #[test]
    fn proved_results_are_one_half_or_zero() {
        assert_eq!(Evaluation::of_margin(4.0, true, Some(3), 2.0).win_chance, 1.0);
        assert_eq!(Evaluation::of_margin(4.0, true, Some(3), 2.0).plies_to_end, Some(3));
        assert_eq!(Evaluation::of_margin(0.0, true, None, 2.0).win_chance, 0.5);
        assert_eq!(
            Evaluation::of_margin(4.0, false, Some(3), 2.0),
            Evaluation::estimate(4.0, 2.0)
        );
        let loss = Evaluation::of_margin(-1.0, true, None, 2.0);
        assert_eq!(
            (loss.win_chance, loss.outcome, loss.exact),
            (0.0, Some(Outcome::Loss), true)
        );
        assert_eq!(loss.flipped().outcome, Some(Outcome::Win));
        assert_eq!(loss.flipped().win_chance, 1.0);
    }

    #[test]
    fn chances_name_an_outcome_only_when_certain_and_exact() {
        assert_eq!(Evaluation::chance(1.0, true).outcome, Some(Outcome::Win));
        assert_eq!(Evaluation::chance(0.99, true).outcome, None);
        assert_eq!(Evaluation::chance(1.0, false).outcome, None);
        assert_eq!(Evaluation::chance(1.7, false).win_chance, 1.0);
    }

    #[test]
    fn lichess_formula_matches_its_published_points() {
        // lichess: 0 cp is 50%, +-1000 (a mate) about 97.5% / 2.5%.
        assert_eq!(lichess_win_chance(0.0), 0.5);
        assert!((lichess_win_chance(1000.0) - 0.9754).abs() < 1e-3);
        assert_eq!(lichess_win_chance(5000.0), lichess_win_chance(1000.0));
        assert!((lichess_win_chance(100.0) + lichess_win_chance(-100.0) - 1.0).abs() < 1e-12);
    }
}
