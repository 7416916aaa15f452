//! Reviews: a game replayed decision by decision, each decision set beside
//! the best one the solver knows, judged, and summed up per side.
//!
//! No HTTP and no SQL here: a review takes the game's options and its
//! moves (already read from JSON into each game's own move type), replays
//! them with the rules (refusing the first illegal one, named by its
//! index), and then asks the game's solver about every position within one
//! [`SearchLimits`], shared out evenly over the positions still to analyse.
//!
//! One scale for every game, the mover's *points*: the share of the game
//! the mover can expect with best play from both sides from then on. A
//! proved win is 1, a draw 0.5, a loss 0; in Pig it is the exact win
//! probability; an unproved value maps the search's estimate into (0, 1).
//! The score games (Number Square, Nine Square) map the mover's final
//! margin, proved or expected, by [`margin_points`].
//! `loss` is the drop in points from the best move to the move played, and
//! the judgment and accuracy below are defined on it alone (plus, for
//! `best`, being one of the best moves).

pub(crate) mod driver;
pub mod history;
pub mod lichess;
pub(crate) mod margin;
pub mod run;

use std::time::Duration;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::core::game::Seat;
use crate::core::outcome::Outcome;
use crate::solve::limits::SearchLimits;

/// Below this loss (in points) a move that is not among the best is `good`.
pub const GOOD_BELOW: f64 = 0.02;
/// Below this loss, `inaccuracy`.
pub const INACCURACY_BELOW: f64 = 0.05;
/// Below this loss, `mistake`; from it on, `blunder`. A move that turns a
/// win into a draw (0.5) or a loss (1), or a draw into a loss (0.5), is a
/// blunder; a slower win or a faster loss loses no points and is `good`.
pub const MISTAKE_BELOW: f64 = 0.15;
/// A move's accuracy falls linearly from 100 at no loss to 0 at this loss.
pub const ACCURACY_ZERO_AT: f64 = 0.3;
/// Losses within this of zero are no loss (floating-point noise in Pig).
pub const TOLERANCE: f64 = 1e-12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgment {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The judgment of a move that loses `loss` points; `among_best` when the
/// move is one of the best moves (same points and, in the solved games,
/// the same number of plies to the end).
pub fn judge(loss: f64, among_best: bool) -> Judgment {
    if among_best {
        Judgment::Best
    } else if loss < GOOD_BELOW {
        Judgment::Good
    } else if loss < INACCURACY_BELOW {
        Judgment::Inaccuracy
    } else if loss < MISTAKE_BELOW {
        Judgment::Mistake
    } else {
        Judgment::Blunder
    }
}

/// One move's accuracy, 0..100.
pub fn move_accuracy(loss: f64) -> f64 {
    100.0 * (1.0 - loss / ACCURACY_ZERO_AT).clamp(0.0, 1.0)
}

/// One decision, reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The match's ply for this decision (its history entry), or the
    /// 1-based move number in a stateless record.
    pub ply: u64,
    pub actor: String,
    #[serde(rename = "move")]
    pub mv: Value,
    /// Every move as good as the best (in the game's move format).
    pub best_moves: Vec<Value>,
    /// The position's value for the mover with best play (the game's own
    /// measure): a number in Pig, `{outcome, plies_to_end, points, ...}` in
    /// the solved games.
    pub value_before: Value,
    /// The value of the move played, followed by best play, same measure.
    pub value_played: Value,
    /// Points lost by the move (>= 0).
    pub loss: f64,
    pub judgment: Judgment,
    /// True when value_before, value_played and best_moves are proved.
    pub exact: bool,
    /// After the move, with best play from then on, from the first
    /// player's side: +1 the first player wins, -1 the second, 0 a draw
    /// (2 x points - 1 of the first player). One line to draw per game.
    pub value: f64,
    /// What the game adds to each decision in its own words (its spec
    /// fragment's `review_entry`), written beside the shared fields.
    #[serde(flatten)]
    pub extras: Extras,
}

/// A game's own figures in a review, beside the shared ones: the game
/// names them, so that no shared type grows a field per game.
pub type Extras = serde_json::Map<String, Value>;

/// A side's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlayerSummary {
    /// Mean move accuracy over the side's decisions, 0..100 (one decimal);
    /// null when the side made none.
    pub accuracy: Option<f64>,
    pub moves: u32,
    pub best: u32,
    pub good: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// What the game adds to each side's figures in its own words (its
    /// spec fragment's `review_player`).
    #[serde(flatten)]
    pub extras: Extras,
}

/// The sides, first player first, serialised as one object.
#[derive(Clone, Debug)]
pub struct Players(pub Vec<(String, PlayerSummary)>);

impl Serialize for Players {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, summary) in &self.0 {
            map.serialize_entry(name, summary)?;
        }
        map.end()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Review {
    pub game: &'static str,
    /// Every entry exact.
    pub exact: bool,
    pub moves: Vec<Entry>,
    pub players: Players,
}

impl Review {
    /// Sums up the entries per side (`names[seat]`, first player first).
    pub fn new(game: &'static str, names: [&str; 2], moves: Vec<Entry>) -> Review {
        let players = names
            .iter()
            .map(|&name| {
                let mine: Vec<&Entry> = moves.iter().filter(|e| e.actor == name).collect();
                let count = |j: Judgment| mine.iter().filter(|e| e.judgment == j).count() as u32;
                let accuracy = (!mine.is_empty()).then(|| {
                    let mean = mine.iter().map(|e| move_accuracy(e.loss)).sum::<f64>() / mine.len() as f64;
                    (mean * 10.0).round() / 10.0
                });
                let summary = PlayerSummary {
                    accuracy,
                    moves: mine.len() as u32,
                    best: count(Judgment::Best),
                    good: count(Judgment::Good),
                    inaccuracies: count(Judgment::Inaccuracy),
                    mistakes: count(Judgment::Mistake),
                    blunders: count(Judgment::Blunder),
                    extras: Extras::new(),
                };
                (name.to_string(), summary)
            })
            .collect();
        Review {
            game,
            exact: moves.iter().all(|e| e.exact),
            moves,
            players: Players(players),
        }
    }
}

/// Why a record cannot be reviewed. All are the client's (422) in a
/// stateless review; in a match review they mean the stored match is bad.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("options: {0}")]
    Options(String),
    /// `index` is 0-based; the message says "moves[6] (move 7): ...".
    #[error("moves[{index}] (move {number}): {message}", number = .index + 1)]
    Move { index: usize, message: String },
    #[error("{0}")]
    Unavailable(String),
}

impl ReviewError {
    pub fn at(index: usize, message: impl Into<String>) -> ReviewError {
        ReviewError::Move {
            index,
            message: message.into(),
        }
    }
}

/// One decision of a record: the match's ply (or the move number), the
/// seat the record says made it (checked against the rules when given),
/// and the move in the game's own type.
#[derive(Clone, Debug)]
pub struct Step<M> {
    pub ply: u64,
    pub seat: Option<Seat>,
    pub mv: M,
}

impl<M> Step<M> {
    /// Numbered moves of a stateless record, sides not stated.
    pub fn numbered(moves: Vec<M>) -> Vec<Step<M>> {
        moves
            .into_iter()
            .enumerate()
            .map(|(i, mv)| Step {
                ply: i as u64 + 1,
                seat: None,
                mv,
            })
            .collect()
    }
}

/// Checks the record's side against the rules'.
pub(crate) fn check_seat(
    index: usize,
    claimed: Option<Seat>,
    actual: Seat,
    names: [&str; 2],
) -> Result<(), ReviewError> {
    match claimed {
        Some(seat) if seat != actual => Err(ReviewError::at(
            index,
            format!(
                "the record gives this move to {:?}, but it is {:?}'s turn",
                names.get(seat).copied().unwrap_or("?"),
                names[actual]
            ),
        )),
        _ => Ok(()),
    }
}

/// Hands out one budget over `total` analyses: each gets an even share of
/// what is left.
pub(crate) struct Budget<'a> {
    limits: &'a SearchLimits,
    left: usize,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(limits: &'a SearchLimits, total: usize) -> Budget<'a> {
        Budget { limits, left: total }
    }

    pub(crate) fn next(&mut self) -> SearchLimits {
        let share = self.limits.remaining() / self.left.max(1) as u32;
        self.left = self.left.saturating_sub(1);
        self.limits.slice(share.max(Duration::from_micros(1)))
    }
}

/// The points of a score game's final margin (the mover's points minus the
/// opponent's at the end, expected or proved): 0.5 + 0.5 tanh(margin /
/// scale). Monotone, 0.5 exactly for a tie and above it exactly for a win,
/// so a proved margin keeps its outcome; `scale` is the game's measure of a
/// sizeable lead (a margin of one scale is worth 0.88). Number Square and
/// Nine Square use it, each with its own scale.
pub fn margin_points(margin: f64, scale: f64) -> f64 {
    0.5 + 0.5 * (margin / scale.max(f64::MIN_POSITIVE)).tanh()
}

/// Analyses every position within `limits`, the last first: late
/// positions are quick to solve and leave in the solver's memo what the
/// early (costly) ones then reuse, and the time they do not use goes to
/// those. None when `give_up_inexact` and an analysis is not `proved` (the
/// cheap first try of a request).
pub(crate) fn analyze_latest_first<P, A>(
    positions: &[P],
    limits: &SearchLimits,
    give_up_inexact: bool,
    mut analyze: impl FnMut(&P, &SearchLimits) -> A,
    proved: impl Fn(&A) -> bool,
) -> Option<Vec<A>> {
    let mut budget = Budget::new(limits, positions.len());
    let mut analyses = Vec::with_capacity(positions.len());
    for position in positions.iter().rev() {
        let analysis = analyze(position, &budget.next());
        if give_up_inexact && !proved(&analysis) {
            return None;
        }
        analyses.push(analysis);
    }
    analyses.reverse();
    Some(analyses)
}

/// The first player's value in [-1, 1] after a move worth `points` to the
/// mover in `seat`.
pub fn first_player_value(seat: Seat, points: f64) -> f64 {
    let v = 2.0 * points - 1.0;
    if seat == 0 {
        v
    } else {
        -v
    }
}

/// The value object of the solved games.
pub(crate) fn outcome_value(
    outcome: Option<Outcome>,
    plies_to_end: Option<u32>,
    points: f64,
    score: Option<i32>,
) -> Value {
    let mut value = serde_json::json!({
        "outcome": outcome.map(Outcome::name),
        "plies_to_end": plies_to_end,
        "points": points,
    });
    if let (Some(score), Value::Object(map)) = (score, &mut value) {
        map.insert("score".to_string(), Value::from(score));
    }
    value
}

/// The seat names of tic-tac-toe and Connect Four records.
pub const XO: [&str; 2] = ["X", "O"];
/// The seat names of Ishitori and Pig records.
pub const AB: [&str; 2] = ["a", "b"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgments_follow_the_thresholds() {
        assert_eq!(judge(0.0, true), Judgment::Best);
        assert_eq!(judge(0.0, false), Judgment::Good);
        assert_eq!(judge(0.019, false), Judgment::Good);
        assert_eq!(judge(0.02, false), Judgment::Inaccuracy);
        assert_eq!(judge(0.05, false), Judgment::Mistake);
        assert_eq!(judge(0.15, false), Judgment::Blunder);
        assert_eq!(judge(0.5, false), Judgment::Blunder);
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(0.5), 0.0);
        assert!((move_accuracy(0.15) - 50.0).abs() < 1e-9);
    }

    #[test]
    fn margin_points_keep_the_outcome_and_the_order() {
        assert_eq!(margin_points(0.0, 10.0), 0.5);
        assert!(margin_points(1.0, 10.0) > 0.5 && margin_points(-1.0, 10.0) < 0.5);
        assert!((margin_points(10.0, 10.0) - (0.5 + 0.5 * 1f64.tanh())).abs() < 1e-15);
        let ladder: Vec<f64> = (-30..=30).map(|m| margin_points(f64::from(m), 7.0)).collect();
        assert!(ladder.windows(2).all(|w| w[0] < w[1]), "{ladder:?}");
        assert!(ladder.iter().all(|p| (0.0..=1.0).contains(p)));
        // A zero scale does not divide by zero.
        assert_eq!(margin_points(0.0, 0.0), 0.5);
        assert_eq!(margin_points(3.0, 0.0), 1.0);
    }

    #[test]
    fn the_error_names_the_move_number() {
        let e = ReviewError::at(6, "cell 4 is taken");
        assert_eq!(e.to_string(), "moves[6] (move 7): cell 4 is taken");
    }
}
