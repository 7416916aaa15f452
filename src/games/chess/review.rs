//! A chess game reviewed move by move, lichess's way: every position the
//! game passed through is evaluated by the engine, each move is measured
//! by the drop in the mover's win% it caused, judged by lichess's
//! thresholds (5, 10, 15 points), given lichess's move accuracy, and each
//! side gets lichess's game accuracy (see [`super::accuracy`]). The values
//! are the engine's estimates within a time budget: `exact` is false.
//!
//! Domain only: the HTTP and match layers turn [`ChessReview`] into the
//! contract's review entries.

use futures_util::future::join_all;
use serde::Serialize;

use super::accuracy::{game_accuracy, judge, move_accuracy, win_percent};
use super::analysis::EvalScore;
use super::rules::{ChessState, EndReason, SanMove};
use super::search::{AnalyzeOptions, ChessAnalyzer, ChessError};
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
/// one budget shared by its positions. Positions are evaluated as many at
/// a time as the pool has processes, each with an equal slice of what is
/// left.
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

    let width = analyzer.pool().size().max(1);
    let mut values: Vec<Value> = Vec::with_capacity(states.len());
    for (chunk_index, chunk) in states.chunks(width).enumerate() {
        let left = states.len() - chunk_index * width;
        let rounds_left = left.div_ceil(width) as u32;
        let slice = limits.slice(limits.remaining() / rounds_left.max(1));
        let max_ms = u64::try_from(slice.remaining().as_millis()).unwrap_or(u64::MAX);
        let options = AnalyzeOptions {
            max_ms,
            ..AnalyzeOptions::default()
        };
        let evaluated = join_all(chunk.iter().map(|state| value_of(analyzer, state, &options, &slice))).await;
        for value in evaluated {
            values.push(value?);
        }
    }

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

async fn value_of(
    analyzer: &ChessAnalyzer,
    state: &ChessState,
    options: &AnalyzeOptions,
    limits: &SearchLimits,
) -> Result<Value, ChessError> {
    match state.end() {
        Some(EndReason::Checkmate) => Ok(Value {
            score: EvalScore::Mate(-1),
            best: None,
        }),
        Some(_) => Ok(Value {
            score: EvalScore::Cp(0),
            best: None,
        }),
        None => {
            let analysis = analyzer.analyze(state, options, limits, |_| {}).await?;
            Ok(Value {
                score: analysis.score,
                best: Some(analysis.best),
            })
        }
    }
}
