//! Tic-tac-toe (m,n,k) matches. X moves first: the person plays X unless
//! the AI goes first. State: `{"board": [row strings], "human_plays"}`.

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};

use super::solve::{MoveAnalysis, Outcome, TicTacToeSolver};
use super::{Player, Position, TicTacToeError, TicTacToeState, MAX_SIDE};
use crate::solve::solvers::Solvers;

/// A win that comes later, or a loss that comes later, is a subtler
/// difference: each further move of the winner's halves less of it.
const DISTANCE_DISCOUNT: f64 = 0.8;

pub(crate) struct TicTacToeMatch;

/// The board's shape as the rules read it (what a match's record keeps).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Size {
    rows: usize,
    cols: usize,
    k: usize,
}

/// Tic-tac-toe's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub rows: Option<i64>,
    pub cols: Option<i64>,
    /// None: the longer side up to 5x5, else 5.
    pub k: Option<i64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rows: Some(3),
            cols: Some(3),
            k: None,
        }
    }
}

impl Options {
    /// The opening position of these options, or what is wrong with them.
    pub fn start(&self) -> Result<Position, String> {
        let side = |v: Option<i64>, name: &str| -> Result<usize, String> {
            let n = v.unwrap_or(3);
            usize::try_from(n)
                .ok()
                .filter(|n| (1..=MAX_SIDE).contains(n))
                .ok_or_else(|| format!("{name} must be an integer from 1 to {MAX_SIDE} (got {n})"))
        };
        let rows = side(self.rows, "rows")?;
        let cols = side(self.cols, "cols")?;
        let k = Position::win_length(self.k).map_err(|e| e.to_string())?;
        Position::new_game(rows, cols, k).map_err(|e| e.to_string())
    }
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    board: Vec<String>,
    human_plays: String,
}

/// A move: the cell's row and column, from 0.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellMove {
    pub row: i64,
    pub col: i64,
}

/// The cell index of a move, if it is legal in `game`.
pub(crate) fn cell_index(game: &TicTacToeState, mv: &CellMove) -> Result<usize, String> {
    let Some(current) = game.position() else {
        return Err("the game is already over".to_string());
    };
    let index = match (usize::try_from(mv.row), usize::try_from(mv.col)) {
        (Ok(r), Ok(c)) => current.board().index_of(r, c),
        _ => None,
    };
    let Some(index) = index else {
        return Err(if mv.row < 0 || mv.col < 0 {
            format!(
                "row {}, column {} is off the board; rows and columns count from 0",
                mv.row, mv.col
            )
        } else {
            TicTacToeError::OffBoard {
                row: usize::try_from(mv.row).unwrap_or(usize::MAX),
                col: usize::try_from(mv.col).unwrap_or(usize::MAX),
                rows: current.rows(),
                cols: current.cols(),
            }
            .to_string()
        });
    };
    current.play(index).map(|_| index).map_err(|e| e.to_string())
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::X => "X",
        Player::O => "O",
    }
}

/// A move's value on the levels' scale (1 = a sure win, 0 = a sure loss).
fn move_value(m: &MoveAnalysis) -> f64 {
    let plies = f64::from(m.plies_to_end.unwrap_or(1).max(1));
    match m.outcome {
        Some(Outcome::Win) => 0.5 + 0.5 * DISTANCE_DISCOUNT.powf((plies - 1.0) / 2.0),
        Some(Outcome::Loss) => 0.5 - 0.5 * DISTANCE_DISCOUNT.powf(((plies - 2.0) / 2.0).max(0.0)),
        Some(Outcome::Draw) => 0.5,
        None => m.evaluation().win_chance,
    }
}

impl ArenaGame for TicTacToeMatch {
    const BEST_NAME: &'static str = "perfect";
}

impl TurnGame for TicTacToeMatch {
    const ID: &'static str = "tictactoe";
    type Game = TicTacToeState;
    type Options = Options;
    type Rules = Size;
    type Move = CellMove;
    type Position = NoPosition;
    /// 3x3 needs a fraction of a millisecond; the node cap bounds big boards.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 2_000_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<Size, String> {
        let position = options.start()?;
        Ok(Size {
            rows: position.rows(),
            cols: position.cols(),
            k: position.k(),
        })
    }

    fn options(size: &Size) -> Options {
        let int = |n: usize| i64::try_from(n).ok();
        Options {
            rows: int(size.rows),
            cols: int(size.cols),
            k: int(size.k),
        }
    }

    fn opening(size: &Size) -> Result<TicTacToeState, MatchError> {
        Position::new_game(size.rows, size.cols, Some(size.k))
            .map(TicTacToeState::from)
            .map_err(|e| MatchError::Options(e.to_string()))
    }

    fn state_json(game: &TicTacToeState, human: Seat) -> Value {
        json!(State {
            board: game.board().to_rows(),
            human_plays: player_name(Player::of_seat(human)).to_string(),
        })
    }

    fn game_move(game: &TicTacToeState, mv: &CellMove) -> Result<usize, MatchError> {
        cell_index(game, mv).map_err(MatchError::IllegalMove)
    }

    fn api_move(game: &TicTacToeState, index: usize) -> CellMove {
        let (row, col) = game.board().row_col(index);
        let int = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        CellMove {
            row: int(row),
            col: int(col),
        }
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("line"), EndReason::named("board_full")];

    /// A win is a line; a draw, a full board.
    fn end_reason(_game: &TicTacToeState, outcome: GameOutcome) -> EndReason {
        match outcome {
            GameOutcome::Won(_) => EndReason::named("line"),
            GameOutcome::Draw => EndReason::named("board_full"),
        }
    }

    fn ai_turn(
        game: &TicTacToeState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<usize>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &TicTacToeState, _ai: &AiSpec, ctx: &AiContext) -> Result<Choice<usize>, MatchError> {
    let position = game
        .position()
        .ok_or_else(|| MatchError::Internal("the AI was asked to move in a finished game".to_string()))?;
    let limits = ctx.limits.search_for::<TicTacToeMatch>();
    let analysis = ctx.solvers.of::<TicTacToeSolver>().analyze(&position, &limits);
    Ok(Choice {
        best: analysis.best_move,
        candidates: analysis
            .moves
            .iter()
            .map(|m| Candidate {
                mv: m.index,
                value: move_value(m),
            })
            .collect(),
    })
}
