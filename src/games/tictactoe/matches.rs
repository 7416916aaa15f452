//! Tic-tac-toe (m,n,k) matches. X moves first: the person plays X unless
//! the AI goes first. State: `{"board": [row strings], "human_plays"}`.

use std::time::Duration;

use rand::RngCore;
use serde_json::{json, Value};

use crate::arena::games::ArenaGame;
use crate::core::game::Seat;
use crate::matches::engine::{AiContext, AiSpec, MatchError, MoveBudget};
use crate::matches::json::{field_error, strings, Obj};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};
use crate::matches::GameKind;

use super::solve::{MoveAnalysis, Outcome, TicTacToeSolver};
use super::{Player, Position, TicTacToe};

/// A win that comes later, or a loss that comes later, is a subtler
/// difference: each further move of the winner's halves less of it.
const DISTANCE_DISCOUNT: f64 = 0.8;
/// Unproved moves: the solver's heuristic score at this magnitude counts as
/// a quarter of a game either way.
const HEURISTIC_SCALE: f64 = 500_000.0;

pub(crate) struct TicTacToeMatch;

#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Size {
    rows: usize,
    cols: usize,
    k: usize,
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
        None => 0.5 + 0.25 * (f64::from(m.score) / HEURISTIC_SCALE).clamp(-1.0, 1.0),
    }
}

impl ArenaGame for TicTacToeMatch {
    const BEST_NAME: &'static str = "perfect";
}

impl TurnGame for TicTacToeMatch {
    type Game = TicTacToe;
    type Options = Size;
    type Position = NoPosition;
    /// 3x3 needs a fraction of a millisecond; the node cap bounds big boards.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 2_000_000,
    };

    fn parse_options(raw: Option<&Value>, _ctx: &AiContext) -> Result<Size, MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&["rows", "cols", "k"])?;
        let side = |key: &str| -> Result<usize, MatchError> {
            match obj.int(key)? {
                None => Ok(3),
                Some(n) => usize::try_from(n)
                    .map_err(|_| field_error(&obj.path(key), "must be an integer from 1 to 19", &json!(n))),
            }
        };
        let rows = side("rows")?;
        let cols = side("cols")?;
        let k = Position::win_length(obj.int("k")?).map_err(|e| MatchError::Options(e.to_string()))?;
        let position = Position::new_game(rows, cols, k).map_err(|e| MatchError::Options(e.to_string()))?;
        Ok(Size {
            rows,
            cols,
            k: position.k(),
        })
    }

    fn options_json(size: &Size) -> Value {
        json!({"rows": size.rows, "cols": size.cols, "k": size.k})
    }

    fn opening(size: &Size) -> Result<TicTacToe, MatchError> {
        Position::new_game(size.rows, size.cols, Some(size.k))
            .map(TicTacToe::from)
            .map_err(|e| MatchError::Options(e.to_string()))
    }

    fn state_json(game: &TicTacToe, human: Seat) -> Value {
        json!({"board": game.board().to_rows(), "human_plays": player_name(Player::of_seat(human))})
    }

    fn parse_state(size: &Size, state: &Value) -> Result<(TicTacToe, Seat), MatchError> {
        let obj = Obj::new(Some(state), "state", false)?;
        let rows = strings(obj.required("board")?, "state.board")?;
        let human = match obj.str("human_plays")? {
            Some("X") => Player::X,
            Some("O") => Player::O,
            _ => {
                return Err(MatchError::Corrupt(
                    "state.human_plays must be \"X\" or \"O\"".to_string(),
                ))
            }
        };
        let position = Position::parse(&rows, Some(size.k)).map_err(|e| MatchError::Corrupt(e.to_string()))?;
        if position.rows() != size.rows || position.cols() != size.cols {
            return Err(MatchError::Corrupt("state.board does not fit the options".to_string()));
        }
        Ok((TicTacToe::from(position), human.seat()))
    }

    fn parse_move(game: &TicTacToe, mv: &Value) -> Result<usize, MatchError> {
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["row", "col"])?;
        let row = obj.index("row")?;
        let col = obj.index("col")?;
        let position = game
            .position()
            .ok_or_else(|| MatchError::IllegalMove("the game is over".to_string()))?;
        // The rules' own messages: off the board, or the cell is taken.
        position
            .play_at(row, col)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        position
            .board()
            .index_of(row, col)
            .ok_or_else(|| MatchError::Internal(format!("({row}, {col}) was playable but has no index")))
    }

    fn move_json(game: &TicTacToe, index: usize) -> Value {
        let (row, col) = game.board().row_col(index);
        json!({"row": row, "col": col})
    }

    fn ai_turn(
        game: &TicTacToe,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<usize>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &TicTacToe, _ai: &AiSpec, ctx: &AiContext) -> Result<Choice<usize>, MatchError> {
    let position = game
        .position()
        .ok_or_else(|| MatchError::Internal("the AI was asked to move in a finished game".to_string()))?;
    let limits = ctx.limits.search(GameKind::Tictactoe);
    let analysis = ctx.solvers.of::<TicTacToeSolver>().analyse(&position, &limits);
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
