//! Tic-tac-toe (m,n,k) matches. X moves first: the person plays X unless
//! the AI goes first. State: `{"board": [row strings], "human_plays"}`.

use rand::RngCore;
use serde_json::{json, Value};

use crate::games::tictactoe::{AfterMove, GameResult, Player, Position};
use crate::solve::limits::SearchLimits;
use crate::solve::tictactoe::{MoveAnalysis, Outcome};

use super::engine::{corrupt, AiContext, AiSpec, Log, MatchError, MatchGame, MatchResult, Progress, Winner};
use super::json::{field_error, strings, Obj};
use super::levels;

/// A win that comes later, or a loss that comes later, is a subtler
/// difference: each further move of the winner's halves less of it.
const DISTANCE_DISCOUNT: f64 = 0.8;
/// Unproved moves: the solver's heuristic score at this magnitude counts as
/// a quarter of a game either way.
const HEURISTIC_SCALE: f64 = 500_000.0;

pub(crate) struct TicTacToeMatch;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Size {
    rows: usize,
    cols: usize,
    k: usize,
}

impl Size {
    /// The empty board (the arena starts every game from it).
    pub(crate) fn new_game(&self) -> Result<Position, MatchError> {
        Position::new_game(self.rows, self.cols, Some(self.k)).map_err(|e| MatchError::Options(e.to_string()))
    }
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::X => "X",
        Player::O => "O",
    }
}

fn state_json(rows: Vec<String>, human: Player) -> Value {
    json!({"board": rows, "human_plays": player_name(human)})
}

fn parse_state(size: &Size, state: &Value) -> Result<(Position, Player), MatchError> {
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
    if position.rows() != size.rows || position.cols() != size.cols || position.to_move() != human {
        return Err(MatchError::Corrupt(
            "state.board does not fit the options or is not the person's turn".to_string(),
        ));
    }
    Ok((position, human))
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

pub(crate) fn ai_move(position: &Position, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> usize {
    let limits = SearchLimits::within(ctx.limits.tictactoe_time).with_max_nodes(ctx.limits.tictactoe_nodes);
    let analysis = ctx.tictactoe.analyse(position, &limits);
    if ai.is_best() || analysis.moves.is_empty() {
        return analysis.best_move;
    }
    let values: Vec<f64> = analysis.moves.iter().map(move_value).collect();
    levels::choose(&values, ai.level, rng)
        .and_then(|i| analysis.moves.get(i))
        .map_or(analysis.best_move, |m| m.index)
}

fn result_of(result: GameResult, human: Player) -> MatchResult {
    let winner = match result {
        GameResult::Draw => Winner::Draw,
        GameResult::Won(p) if p == human => Winner::Human,
        GameResult::Won(_) => Winner::Ai,
    };
    MatchResult { winner, scores: None }
}

/// The AI moves in `position` (its turn); the match is then over or the
/// person's again.
fn ai_turn(
    position: &Position,
    human: Player,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<Progress, MatchError> {
    let index = ai_move(position, ai, ctx, rng);
    let after = position
        .play(index)
        .map_err(|e| MatchError::Internal(format!("the solver chose an illegal move: {e}")))?;
    let (row, col) = position.board().row_col(index);
    log.ai(json!({"row": row, "col": col}));
    Ok(match after {
        AfterMove::Continues(next) => Progress {
            state: state_json(next.to_rows(), human),
            result: None,
        },
        AfterMove::Over(end) => Progress {
            state: state_json(end.board().to_rows(), human),
            result: Some(result_of(end.result(), human)),
        },
    })
}

impl MatchGame for TicTacToeMatch {
    type Options = Size;

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
        let k = match obj.int("k")? {
            None => None,
            Some(n) => Some(
                usize::try_from(n).map_err(|_| field_error("options.k", "must be a positive integer", &json!(n)))?,
            ),
        };
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

    fn start(
        size: &Size,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let position =
            Position::new_game(size.rows, size.cols, Some(size.k)).map_err(|e| MatchError::Options(e.to_string()))?;
        if ai_first {
            ai_turn(&position, Player::O, ai, ctx, rng, log)
        } else {
            Ok(Progress {
                state: state_json(position.to_rows(), Player::X),
                result: None,
            })
        }
    }

    fn play(
        size: &Size,
        state: &Value,
        mv: &Value,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let (position, human) = parse_state(size, state).map_err(corrupt)?;
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["row", "col"])?;
        let row = obj.index("row")?;
        let col = obj.index("col")?;
        let after = position
            .play_at(row, col)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        log.human(json!({"row": row, "col": col}));
        match after {
            AfterMove::Over(end) => Ok(Progress {
                state: state_json(end.board().to_rows(), human),
                result: Some(result_of(end.result(), human)),
            }),
            AfterMove::Continues(next) => ai_turn(&next, human, ai, ctx, rng, log),
        }
    }
}
