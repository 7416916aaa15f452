//! What a series of games adds up to: wins, draws and losses per player and
//! per seat, A's share of the points with a Wilson 95% interval, and the
//! mean margin where the game keeps score.

use serde::Serialize;

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// One game's end, from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub a_moved_first: bool,
    /// A's points minus B's where the game keeps score; else only the sign
    /// matters (1 a win for A, 0 a draw, -1 a loss).
    pub margin: i64,
}

/// One player's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Record {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins plus half the draws.
    pub points: f64,
}

impl Record {
    fn add(&mut self, margin: i64) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.points = self.wins as f64 + self.draws as f64 / 2.0;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// A's results split by who moved first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Seats {
    pub a_first: Record,
    pub a_second: Record,
}

/// Everything a run reports except its inputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub a: Record,
    pub b: Record,
    pub seats: Seats,
    margin_sum: i128,
}

impl Tally {
    pub fn add(&mut self, outcome: GameOutcome) {
        self.a.add(outcome.margin);
        self.b.add(-outcome.margin);
        let seat = if outcome.a_moved_first {
            &mut self.seats.a_first
        } else {
            &mut self.seats.a_second
        };
        seat.add(outcome.margin);
        self.margin_sum += i128::from(outcome.margin);
    }

    pub fn games(&self) -> u64 {
        self.a.games()
    }

    /// A's points per game; None before the first game.
    pub fn a_share(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.a.points / n as f64)
    }

    /// The Wilson score interval at 95% around [`Tally::a_share`].
    pub fn a_share_ci95(&self) -> Option<[f64; 2]> {
        Some(wilson(self.a_share()?, self.games() as f64))
    }

    /// A's mean margin; None before the first game.
    pub fn mean_margin(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.margin_sum as f64 / n as f64)
    }
}

/// The Wilson score interval at 95% for a proportion `p` seen in `n` trials
/// (a draw counts as half a success).
pub fn wilson(p: f64, n: f64) -> [f64; 2] {
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// A's chances computed exactly (to rounding), for a game whose players
/// can be evaluated without sampling ([`super::games::ArenaGame::exact`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactChances {
    /// The probability that A wins when A moves first.
    pub a_first: f64,
    /// ... when B moves first.
    pub a_second: f64,
}

impl ExactChances {
    /// A's expected share over games with alternating seats.
    pub fn a_share(&self) -> f64 {
        (self.a_first + self.a_second) / 2.0
    }
}
