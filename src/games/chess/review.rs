//! A chess game reviewed move by move, lichess's way: every position the
//! game passed through is evaluated by the engine, each move is measured
//! by the drop in the mover's win% it caused, judged by lichess's
//! thresholds (5, 10, 15 points), given lichess's move accuracy, and each
//! side gets lichess's game accuracy (see [`super::accuracy`]). The values
//! are the engine's estimates within a time budget: `exact` is false.
//!
//! Domain only: the HTTP and match layers turn [`ChessReview`] into the
//! contract's review entries.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use futures_util::future::join_all;
use serde::Serialize;

use super::accuracy::{game_accuracy, judge, move_accuracy, win_percent};
use super::analysis::EvalScore;
use super::rules::{ChessState, EndReason, SanMove};
use super::search::{AnalyzeOptions, ChessAnalyzer, ChessError};
use crate::engines::{EngineError, EngineLease};
use crate::review::Judgment;
use crate::solve::limits::SearchLimits;

/// One move, reviewed. Win% and evaluations are from the mover's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// 1-based index into the game's moves.
    pub ply: usize,
    /// `"white"` or `"black"`.
    pub color: &'static str,
    pub played: SanMove,
    /// The engine's choice in the position before the move.
    pub best: SanMove,
    /// The position before the move, with best play.
    pub eval_before: EvalScore,
    /// The position after the move played, with best play from then on.
    pub eval_after: EvalScore,
    pub win_before: f64,
    pub win_after: f64,
    /// Win% points lost (0 when the move gained).
    pub loss: f64,
    pub accuracy: f64,
    pub judgment: Judgment,
    pub exact: bool,
}

/// One side's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideReview {
    /// lichess's game accuracy, 0..100; None without a move.
    pub accuracy: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChessReview {
    pub moves: Vec<MoveReview>,
    pub white: SideReview,
    pub black: SideReview,
}

/// A position's value for the side to move: the engine's, or the rules'
/// when the game is over there: any draw is 0, and checkmate on the board
/// counts as `{"mate": -1}` for the side mated (UCI's `mate 0` has no
/// sign, and the mover's view of it, turned round, would read the same), so
/// the mating move's `eval_after` reads `{"mate": 1}`.
#[derive(Clone, Debug)]
struct Value {
    score: EvalScore,
    best: Option<SanMove>,
}

/// Reviews the game `moves` (UCI) from `fen` (default the start), within
/// one budget shared by its positions: see [`evaluate_all`].
pub async fn review_game(
    analyzer: &ChessAnalyzer,
    fen: Option<&str>,
    moves: &[String],
    limits: &SearchLimits,
) -> Result<ChessReview, ChessError> {
    let mut states = vec![ChessState::from_fen_and_moves(fen, &[] as &[&str])?];
    let mut played = Vec::with_capacity(moves.len());
    let mut game = states[0].clone();
    for (index, uci) in moves.iter().enumerate() {
        let san = game
            .play_uci(uci)
            .map_err(|reason| super::rules::RulesError::IllegalMove {
                index,
                uci: uci.chars().take(16).collect(),
                reason,
            })?;
        played.push(san);
        states.push(game.clone());
    }

    let values = evaluate_all(analyzer, &states, limits).await?;

    let mut reviews = Vec::with_capacity(played.len());
    for (i, san) in played.into_iter().enumerate() {
        let (before, after) = (&values[i], &values[i + 1]);
        let win_before = win_percent(before.score.to_engine());
        // After the move the opponent is to move: its value, turned round.
        let win_after = 100.0 - win_percent(after.score.to_engine());
        let loss = (win_before - win_after).max(0.0);
        let best = before.best.clone().unwrap_or_else(|| san.clone());
        reviews.push(MoveReview {
            ply: i + 1,
            color: states[i].player(),
            judgment: judge(loss, best.uci == san.uci),
            accuracy: move_accuracy(win_before, win_after),
            eval_before: before.score,
            eval_after: after.score.flipped(),
            played: san,
            best,
            win_before,
            win_after,
            loss,
            exact: false,
        });
    }

    // lichess's game accuracy over the first mover's win% after each move.
    let first_mover_view: Vec<f64> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let wp = win_percent(v.score.to_engine());
            if i % 2 == 0 {
                wp
            } else {
                100.0 - wp
            }
        })
        .collect();
    let (first, second) = game_accuracy(&first_mover_view);
    let mut white = SideReview::default();
    let mut black = SideReview::default();
    let first_is_white = states[0].player() == "white";
    let (first_side, second_side) = if first_is_white {
        (&mut white, &mut black)
    } else {
        (&mut black, &mut white)
    };
    first_side.accuracy = first;
    second_side.accuracy = second;
    for r in &reviews {
        let side = if r.color == "white" { &mut white } else { &mut black };
        match r.judgment {
            Judgment::Inaccuracy => side.inaccuracies += 1,
            Judgment::Mistake => side.mistakes += 1,
            Judgment::Blunder => side.blunders += 1,
            _ => {}
        }
    }
    Ok(ChessReview {
        moves: reviews,
        white,
        black,
    })
}

/// Searches of one position before its error fails the review.
const TRIES: u32 = 3;

/// The least a review waits for its first engine, even when its budget is
/// nearly spent: a review is answered late rather than refused.
const FIRST_ENGINE_WAIT: Duration = Duration::from_secs(1);

/// Every position's value. The review holds the engines it can get: one it
/// waits for (within its budget, at least [`FIRST_ENGINE_WAIT`], at most
/// the pool's wait), and more only when they are free at once. When
/// another client waits for an engine (see [`crate::fair`]), each extra
/// one is given back, and the first one too, between positions:
/// the review queues for it again as any client would, holding none, so
/// that on a one-engine server a review no longer shuts others out for its
/// whole length. Each position gets an equal share of
/// the time left among the positions left per engine held, and at least
/// depth 1 (see [`crate::engines::uci`]). A position whose search fails
/// is searched again, up to [`TRIES`] times, rather than failing the
/// review.
async fn evaluate_all(
    analyzer: &ChessAnalyzer,
    states: &[ChessState],
    limits: &SearchLimits,
) -> Result<Vec<Value>, ChessError> {
    let mut values: Vec<Option<Value>> = states.iter().map(settled_value).collect();
    let todo: VecDeque<(usize, u32)> = (0..states.len())
        .filter(|&i| values[i].is_none())
        .map(|i| (i, 0))
        .collect();
    if todo.is_empty() {
        return Ok(values.into_iter().flatten().collect());
    }
    let pool = analyzer.pool();
    let wait = pool.queue_wait().min(limits.remaining().max(FIRST_ENGINE_WAIT));
    let mut leases = vec![pool.lease(wait, true).await?];
    while leases.len() < pool.size().min(todo.len()) {
        match pool.try_lease() {
            Some(lease) => leases.push(lease),
            None => break,
        }
    }
    let work = Work {
        analyzer,
        states,
        limits,
        todo: Mutex::new(todo),
        engines: AtomicUsize::new(leases.len()),
    };
    let found = join_all(leases.into_iter().enumerate().map(|(i, lease)| work.run(lease, i == 0))).await;
    for found in found {
        for (index, value) in found? {
            values[index] = Some(value);
        }
    }
    let count = values.len();
    let values: Vec<Value> = values.into_iter().flatten().collect();
    if values.len() == count {
        Ok(values)
    } else {
        Err(EngineError::Protocol("a review ended with positions left unsearched".into()).into())
    }
}

/// The review's positions left, shared by the engines it holds.
struct Work<'a> {
    analyzer: &'a ChessAnalyzer,
    states: &'a [ChessState],
    limits: &'a SearchLimits,
    todo: Mutex<VecDeque<(usize, u32)>>,
    engines: AtomicUsize,
}

impl Work<'_> {
    fn next(&self) -> Option<(usize, u32, usize)> {
        let mut todo = self.todo.lock().unwrap_or_else(|p| p.into_inner());
        let (index, tries) = todo.pop_front()?;
        Some((index, tries, todo.len() + 1))
    }

    fn again(&self, index: usize, tries: u32) {
        self.todo
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back((index, tries));
    }

    /// Searches positions on the engine of `lease` until none is left, or
    /// until another client wants it: the `primary` engine is then queued
    /// for again, an extra one is given up.
    async fn run(&self, lease: EngineLease, primary: bool) -> Result<Vec<(usize, Value)>, ChessError> {
        let mut found = Vec::new();
        let mut lease = Some(lease);
        while let Some((index, tries, left)) = self.next() {
            let held = match lease.take() {
                Some(held) => held,
                None => {
                    // The engine was given back (another client waited) or
                    // lost (still settling after a search): the primary
                    // queues for one again, an extra one stops.
                    if !primary {
                        self.again(index, tries);
                        break;
                    }
                    let pool = self.analyzer.pool();
                    let wait = pool.queue_wait().min(self.limits.remaining().max(FIRST_ENGINE_WAIT));
                    pool.lease(wait, true).await?
                }
            };
            let engines = self.engines.load(Ordering::Relaxed).max(1);
            let rounds_left = u32::try_from(left.div_ceil(engines)).unwrap_or(u32::MAX).max(1);
            let slice = self.limits.slice(self.limits.remaining() / rounds_left);
            let options = AnalyzeOptions {
                max_ms: u64::try_from(slice.remaining().as_millis()).unwrap_or(u64::MAX),
                ..AnalyzeOptions::default()
            };
            let state = &self.states[index];
            let (analysis, back) = self
                .analyzer
                .analyze_leased(Some(held), state, &options, &slice, |_| {})
                .await;
            match analysis {
                Ok(analysis) => found.push((
                    index,
                    Value {
                        score: analysis.score,
                        best: Some(analysis.best),
                    },
                )),
                Err(e @ ChessError::Engine(_)) if tries + 1 < TRIES => {
                    tracing::info!(error = %e, position = index, "a review's position failed; searching it again");
                    self.again(index, tries + 1);
                }
                Err(e) => return Err(e),
            }
            lease = back;
            if lease.as_ref().is_some_and(|l| l.asked_to_yield() || l.others_wait()) {
                // Another client waits for an engine: this one goes back
                // between positions, before the pool has to ask.
                lease = None;
                if !primary {
                    break;
                }
            }
        }
        self.engines.fetch_sub(1, Ordering::Relaxed);
        Ok(found)
    }
}

/// A position's value by the rules, when the game is over there.
fn settled_value(state: &ChessState) -> Option<Value> {
    match state.end() {
        Some(EndReason::Checkmate) => Some(Value {
            score: EvalScore::Mate(-1),
            best: None,
        }),
        Some(_) => Some(Value {
            score: EvalScore::Cp(0),
            best: None,
        }),
        None => None,
    }
}
