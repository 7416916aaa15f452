//! A chess record reviewed as every game's reviews are shown: the record
//! checked against the rules (the first illegal move named by its index),
//! then [`review_game`]'s lichess measures written as the shared
//! [`Review`]'s entries.
//!
//! The shared scale is the mover's points (0..1); for chess they are
//! lichess's win% / 100, so `loss` is the drop in win% points / 100 and the
//! judgments are lichess's (a drop of 5, 10, 15 win% points: inaccuracy,
//! mistake, blunder). A side's `accuracy` is lichess's game accuracy, not
//! the shared linear one. Every value is Stockfish's estimate within the
//! budget: `exact` is false.

use serde_json::{json, Value};

use super::matches::Options;
use super::review::{review_game, ChessReview, MoveReview};
use super::rules::{ChessMove, ChessState, Color};
use super::search::{ChessAnalyzer, ChessError};
use crate::core::game::Seat;
use crate::review::{check_seat, first_player_value, Entry, Extras, Review, ReviewError, Step};
use crate::solve::limits::SearchLimits;

/// The least time a review gives one position's search: less is no
/// search (the engine pool refuses it as busy).
pub const MIN_POSITION_MS: u64 = super::api::MIN_MAX_MS;

/// A review's time: `budget_ms` (the request's `max_ms`, defaulted and
/// capped as any search's), raised so that every one of `positions`,
/// searched `engines` at a time, gets [`MIN_POSITION_MS`]. A record too
/// long for that within `longest_ms` (what the server gives a request)
/// is refused, naming what it would need.
pub fn review_ms(budget_ms: u64, positions: usize, engines: usize, longest_ms: u64) -> Result<u64, ReviewError> {
    let rounds = u64::try_from(positions.div_ceil(engines.max(1))).unwrap_or(u64::MAX);
    let floor = MIN_POSITION_MS.saturating_mul(rounds);
    if floor > longest_ms {
        return Err(ReviewError::Unavailable(format!(
            "moves: {positions} positions to evaluate need at least {floor} ms ({MIN_POSITION_MS} ms each, \
             {engines} at a time), more than the {longest_ms} ms this server gives a request"
        )));
    }
    Ok(budget_ms.max(floor))
}

/// The sides of a stateless record, first player first: White and Black,
/// or the other way round from a start with Black to move.
pub const RECORD_SIDES: [&str; 2] = ["white", "black"];

/// A record that replays: its start, its moves in UCI and each move's
/// seat (0: the side that moved first).
pub struct Replayed {
    start: ChessState,
    moves: Vec<String>,
}

/// Replays `steps` from the options' start, checking each move and the
/// side the record gives it.
pub fn replay(options: &Options, steps: &[Step<ChessMove>], names: [&str; 2]) -> Result<Replayed, ReviewError> {
    let start = options.start().map_err(ReviewError::Options)?;
    let mut game = start.clone();
    let mut moves = Vec::with_capacity(steps.len());
    for (index, step) in steps.iter().enumerate() {
        check_seat(index, step.seat, game.seat_of(game.side_to_move()), names)?;
        let played = game
            .try_play(step.mv)
            .map_err(|reason| ReviewError::at(index, format!("{} {reason}", step.mv)))?;
        moves.push(played.uci);
    }
    Ok(Replayed { start, moves })
}

impl Replayed {
    /// The positions the review evaluates (the start and after each move).
    pub fn positions(&self) -> usize {
        self.moves.len() + 1
    }

    /// A stateless record's side names: `["white", "black"]` turned round
    /// when Black moves first; a match's names are kept.
    pub fn names(&self, names: [&'static str; 2]) -> [&'static str; 2] {
        if names == RECORD_SIDES && self.start.side_to_move() == Color::Black {
            ["black", "white"]
        } else {
            names
        }
    }

    /// The review within `limits`; `plies` are the entries' numbers (a
    /// match's history plies, or 1, 2, ...).
    pub async fn review(
        &self,
        analyzer: &ChessAnalyzer,
        plies: &[u64],
        names: [&'static str; 2],
        limits: &SearchLimits,
    ) -> Result<Review, ChessError> {
        let fen = self.start.start_fen();
        let reviewed = review_game(analyzer, Some(&fen), &self.moves, limits).await?;
        Ok(shown(&reviewed, plies, self.names(names)))
    }
}

/// A win% as the entries show it, with its score.
fn value(score: super::analysis::EvalScore, win_percent: f64) -> Value {
    json!({"score": score, "win_percent": win_percent, "points": win_percent / 100.0})
}

fn entry(review: &MoveReview, ply: u64, seat: Seat, actor: &str) -> Entry {
    Entry {
        ply,
        actor: actor.to_string(),
        mv: json!({"uci": review.played.uci}),
        best_moves: vec![json!({"uci": review.best.uci})],
        value_before: value(review.eval_before, review.win_before),
        value_played: value(review.eval_after, review.win_after),
        loss: review.loss / 100.0,
        judgment: review.judgment,
        exact: review.exact,
        value: first_player_value(seat, review.win_after / 100.0),
        extras: Extras::new(),
    }
}

/// The shared review of `reviewed`: `names[0]` moved first.
fn shown(reviewed: &ChessReview, plies: &[u64], names: [&'static str; 2]) -> Review {
    let first_color = reviewed.moves.first().map_or("white", |m| m.color);
    let seat_of = |color: &str| usize::from(color != first_color);
    let moves: Vec<Entry> = reviewed
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let seat = seat_of(m.color);
            let ply = plies.get(i).copied().unwrap_or(i as u64 + 1);
            entry(m, ply, seat, names[seat])
        })
        .collect();
    // The shared tally of judgments, with lichess's game accuracy in
    // place of the shared linear one.
    let mut review = Review::new("chess", names, moves);
    for (seat, (_, summary)) in review.players.0.iter_mut().enumerate() {
        let side = if (seat == 0) == (first_color == "white") {
            &reviewed.white
        } else {
            &reviewed.black
        };
        summary.accuracy = side.accuracy.map(|a| (a * 10.0).round() / 10.0);
    }
    review
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_gets_its_budget_raised_to_a_least_search_per_position_or_is_refused() {
        // 41 positions, 2 at a time: 21 rounds of 50 ms.
        assert_eq!(review_ms(100, 41, 2, 14_000), Ok(1050));
        assert_eq!(review_ms(5000, 41, 2, 14_000), Ok(5000));
        assert_eq!(
            review_ms(100, 41, 0, 14_000),
            Ok(2050),
            "no engine count: one at a time"
        );
        let refused = review_ms(1000, 1001, 2, 14_000);
        assert!(
            matches!(&refused, Err(ReviewError::Unavailable(m)) if m.contains("25050 ms") && m.contains("14000 ms")),
            "{refused:?}"
        );
    }
}
