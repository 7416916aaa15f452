//! Connect Four matches. X moves first: the person plays X unless the AI
//! goes first. State: `{"board": [row strings, top first], "human_plays"}`;
//! move: `{"column"}`, 1-based.

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::core::outcome::Outcome;
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

use super::solve::{Analysis, ConnectFourSolver};
use super::{symbol, ConnectFourState, Shape, DEFAULT_COLS, DEFAULT_K, DEFAULT_ROWS};

/// A win that comes later, or a loss that comes later, is a subtler
/// difference: each further stone of the winner's halves less of it.
const DISTANCE_DISCOUNT: f64 = 0.8;

pub(crate) struct ConnectFourMatch;

/// Connect Four's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub cols: Option<i64>,
    pub rows: Option<i64>,
    pub k: Option<i64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cols: Some(i64::from(DEFAULT_COLS)),
            rows: Some(i64::from(DEFAULT_ROWS)),
            k: Some(i64::from(DEFAULT_K)),
        }
    }
}

impl Options {
    pub fn shape(&self) -> Result<Shape, String> {
        Shape::new(self.cols, self.rows, self.k).map_err(|e| e.to_string())
    }
}

/// A move: the column, from 1.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnMove {
    pub column: i64,
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    board: Vec<String>,
    human_plays: String,
}

/// A column's value on the levels' scale from the mover's score.
fn column_value(analysis: &Analysis, score: i32, solved: bool) -> f64 {
    if !solved {
        // An estimate: a quarter of a game either way at most.
        let reach = f64::from(analysis.cells.div_ceil(2).max(1));
        return 0.5 + 0.25 * (f64::from(score) / reach).clamp(-1.0, 1.0);
    }
    let (outcome, plies) = analysis.verdict(score);
    let plies = f64::from(plies.max(1));
    match outcome {
        Outcome::Win => 0.5 + 0.5 * DISTANCE_DISCOUNT.powf((plies - 1.0) / 2.0),
        Outcome::Loss => 0.5 - 0.5 * DISTANCE_DISCOUNT.powf(((plies - 2.0) / 2.0).max(0.0)),
        Outcome::Draw => 0.5,
    }
}

impl ArenaGame for ConnectFourMatch {
    /// Tens of milliseconds a move; exact from the middle game on.
    const ARENA_NODES: Option<u64> = Some(300_000);
}

impl TurnGame for ConnectFourMatch {
    const ID: &'static str = "connect-four";
    type Game = ConnectFourState;
    type Options = Options;
    type Rules = Shape;
    type Move = ColumnMove;
    type Position = NoPosition;
    /// Exact from the book on 7x6, and within the second from 10 stones
    /// on; the node cap (about a second and a half of one thread) bounds a
    /// loaded machine's work as well as its time. At 3 million nodes, level
    /// 10 gave away a win or a draw in 5 of 945 moves of self-play from
    /// every opening (`examples/connect_four_perfect_play.rs`), all at 7 or
    /// 8 stones; at 20 million, none of 954 (949 exact within the budget).
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 20_000_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<Shape, String> {
        options.shape()
    }

    fn options(shape: &Shape) -> Options {
        Options {
            cols: Some(i64::from(shape.cols)),
            rows: Some(i64::from(shape.rows)),
            k: Some(i64::from(shape.k)),
        }
    }

    /// The shape is checked again: a stored one is read without
    /// [`Shape::new`].
    fn opening(shape: &Shape) -> Result<ConnectFourState, MatchError> {
        Shape::new(Some(shape.cols.into()), Some(shape.rows.into()), Some(shape.k.into()))
            .map(ConnectFourState::new)
            .map_err(|e| MatchError::Options(e.to_string()))
    }

    fn state_json(game: &ConnectFourState, human: Seat) -> Value {
        json!(State {
            board: game.rows(),
            human_plays: symbol(human).to_string(),
        })
    }

    fn game_move(game: &ConnectFourState, mv: &ColumnMove) -> Result<u32, MatchError> {
        let cols = game.shape().cols;
        if !(1..=i64::from(cols)).contains(&mv.column) {
            return Err(MatchError::Field {
                field: "move.column".to_string(),
                expected: format!("must be a column from 1 to {cols} (got {})", mv.column),
            });
        }
        game.check_column(mv.column)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))
    }

    fn api_move(_game: &ConnectFourState, column: u32) -> ColumnMove {
        ColumnMove {
            column: i64::from(column) + 1,
        }
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("line"), EndReason::named("board_full")];

    /// A win is a line; a draw, a full board.
    fn end_reason(_game: &ConnectFourState, outcome: GameOutcome) -> EndReason {
        match outcome {
            GameOutcome::Won(_) => EndReason::named("line"),
            GameOutcome::Draw => EndReason::named("board_full"),
        }
    }

    fn ai_turn(
        game: &ConnectFourState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<u32>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &ConnectFourState, _ai: &AiSpec, ctx: &AiContext) -> Result<Choice<u32>, MatchError> {
    let limits = ctx.limits.search_for::<ConnectFourMatch>();
    let analysis = ctx.solvers.of::<ConnectFourSolver>().analyze(game, &limits);
    let candidates = analysis
        .columns
        .iter()
        .filter_map(|c| {
            c.score.map(|score| Candidate {
                mv: c.column,
                value: column_value(&analysis, score, c.solved),
            })
        })
        .collect();
    Ok(Choice {
        best: analysis.best,
        candidates,
    })
}
