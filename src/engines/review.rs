//! A record of an engine-evaluated game (xiangqi, shogi) reviewed
//! lichess's way, as chess's is: every position the game passed through
//! evaluated by the engine, each move measured by the drop in the mover's
//! win%, judged by lichess's thresholds, and each side given lichess's
//! game accuracy ([`crate::review::lichess`]). The values are estimates
//! within a budget: `exact` is false.
//!
//! The game replays the record with its rules and hands over every
//! position ([`EnginePosition`], the start first) and the moves played in
//! its notation; the positions are searched as many at once as the pool
//! has processes.

use futures_util::future::join_all;
use serde_json::{json, Value};

use super::analysis::{AnalysisError, EnginePosition, Question};
use super::score::{win_percent, EvalScore};
use crate::core::game::Seat;
use crate::review::lichess::{game_accuracy, judge};
use crate::review::{first_player_value, Entry, Extras, Review};
use crate::solve::limits::SearchLimits;

use super::analysis::EngineAnalyzer;

/// The least time one position's search gets: less is no search.
pub const MIN_POSITION_MS: u64 = super::request::MIN_MAX_MS;

/// A record to review: its positions (the start, then after each move),
/// the moves' notation, and how the game writes a move in its records.
pub struct Record<'a, P> {
    pub game: &'static str,
    pub positions: &'a [P],
    pub played: &'a [String],
    /// Each position's side to move as a seat.
    pub seats: &'a [Seat],
    /// A move as the game's match move object (`{"uci": ...}`).
    pub move_json: fn(&str) -> Value,
}

/// A position's value for the side to move, and the engine's best move
/// there (None at the end of the game).
struct Valued {
    score: EvalScore,
    best: Option<String>,
}

/// The time each position gets so that the record fits in `budget_ms`,
/// `engines` positions at a time (at least [`MIN_POSITION_MS`]).
pub fn position_ms(budget_ms: u64, positions: usize, engines: usize) -> u64 {
    let rounds = u64::try_from(positions.div_ceil(engines.max(1)))
        .unwrap_or(u64::MAX)
        .max(1);
    (budget_ms / rounds).max(MIN_POSITION_MS)
}

/// Searches of one position before its engine's error fails the review:
/// a position that waited out its time for a busy engine (another client
/// held them all) is searched again rather than failing the review.
const TRIES: u32 = 3;

/// Evaluates every position, `per_position_ms` each, as many at once as
/// the pool has processes.
async fn evaluate<P: EnginePosition>(
    analyzer: &EngineAnalyzer,
    positions: &[P],
    per_position_ms: u64,
) -> Result<Vec<Valued>, AnalysisError> {
    let question = Question::new(per_position_ms, None, 1)?;
    let mut values = Vec::with_capacity(positions.len());
    for chunk in positions.chunks(analyzer.pool().size().max(1)) {
        let searches = chunk.iter().map(|position| async {
            if let Some(score) = position.final_score() {
                return Ok::<Valued, AnalysisError>(Valued { score, best: None });
            }
            let mut tries = 1;
            let analysis = loop {
                let limits = SearchLimits::within(std::time::Duration::from_millis(per_position_ms));
                match analyzer.analyze(position, &question, &limits, |_| {}).await {
                    Err(error) if tries < TRIES => {
                        tracing::info!(%error, "a review's position failed; searching it again");
                        tries += 1;
                    }
                    answer => break answer?,
                }
            };
            Ok(Valued {
                score: analysis.score,
                best: Some(analysis.best.notation),
            })
        });
        for value in join_all(searches).await {
            values.push(value?);
        }
    }
    Ok(values)
}

/// A win% as the entries show it, with its score.
fn shown_value(score: EvalScore) -> Value {
    let percent = win_percent(score.to_engine());
    json!({"score": score, "win_percent": percent, "points": percent / 100.0})
}

/// The review of `record` (`names` by seat, `plies` the entries' numbers).
pub async fn review<P: EnginePosition>(
    analyzer: &EngineAnalyzer,
    record: &Record<'_, P>,
    names: [&'static str; 2],
    plies: &[u64],
    per_position_ms: u64,
) -> Result<Review, AnalysisError> {
    // Every process up before the clock starts: an engine's start-up is
    // not a position's time, and a cold process would miss its share.
    analyzer.pool().warm_up().await?;
    let values = evaluate(analyzer, record.positions, per_position_ms).await?;
    let mut entries = Vec::with_capacity(record.played.len());
    for (i, played) in record.played.iter().enumerate() {
        let (Some(before), Some(after), Some(&seat)) = (values.get(i), values.get(i + 1), record.seats.get(i)) else {
            break;
        };
        let after_score = after.score.flipped();
        let win_before = win_percent(before.score.to_engine());
        let win_after = win_percent(after_score.to_engine());
        let loss = (win_before - win_after).max(0.0);
        let best = before.best.clone().unwrap_or_else(|| played.clone());
        entries.push(Entry {
            ply: plies.get(i).copied().unwrap_or(i as u64 + 1),
            actor: names[seat].to_string(),
            mv: (record.move_json)(played),
            best_moves: vec![(record.move_json)(&best)],
            value_before: shown_value(before.score),
            value_played: shown_value(after_score),
            loss: loss / 100.0,
            judgment: judge(loss, &best == played),
            exact: false,
            value: first_player_value(seat, win_after / 100.0),
            extras: Extras::new(),
        });
    }
    let mut review = Review::new(record.game, names, entries);
    // lichess's game accuracy in place of the shared linear one, from the
    // first mover's view of every position.
    let first_seat = record.seats.first().copied().unwrap_or(0);
    let first_view: Vec<f64> = values
        .iter()
        .zip(record.seats)
        .map(|(v, &seat)| {
            let percent = win_percent(v.score.to_engine());
            if seat == first_seat {
                percent
            } else {
                100.0 - percent
            }
        })
        .collect();
    let (first, second) = game_accuracy(&first_view);
    for (seat, (_, summary)) in review.players.0.iter_mut().enumerate() {
        let accuracy = if seat == first_seat { first } else { second };
        summary.accuracy = accuracy.map(|a| (a * 10.0).round() / 10.0);
    }
    Ok(review)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_records_positions_share_the_budget_with_a_floor_each() {
        assert_eq!(position_ms(1000, 10, 2), 200);
        assert_eq!(position_ms(100, 41, 2), MIN_POSITION_MS);
        assert_eq!(position_ms(1000, 3, 0), 333, "no engine count: one at a time");
    }
}
