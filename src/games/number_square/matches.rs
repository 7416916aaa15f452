//! Number Square ("Persegi Bilangan") matches: players take tiles in turn
//! and score their values; the higher total wins. State:
//! `{"board": [[value or null]], "scores": {"human", "ai"}}`.

use std::time::Duration;

use rand::RngCore;
use serde_json::{json, Value};

use crate::arena::games::{ArenaGame, Player};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::Game;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores, Winner};
use crate::matches::json::{field_error, int_value, Obj};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};
use crate::matches::GameKind;

use super::solve::NumberSquareSolver;
use super::strategies::lookahead2;
use super::{Board, GameEnd, NumberSquare, Tile, MAX_SIZE, MIN_SIZE};

pub(crate) struct NumberSquareMatch;

const DEFAULT_SIZE: usize = 8;

/// A margin this many times the largest tile counts as half a game on the
/// levels' scale: a weak AI gives away a tile's worth readily, a whole game
/// rarely.
const MARGIN_SCALE_TILES: f64 = 2.0;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum Deal {
    /// 1..size^2 shuffled by the server at the start.
    Shuffled(usize),
    /// The board the request gave, or the server dealt.
    Given(Board),
}

fn board_rows(value: &Value, field: &str) -> Result<Vec<Vec<Option<i64>>>, MatchError> {
    let rows = value
        .as_array()
        .ok_or_else(|| field_error(field, "must be an array of rows of integers", value))?;
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let cells = row
                .as_array()
                .ok_or_else(|| field_error(&format!("{field}[{r}]"), "must be an array of integers", row))?;
            cells
                .iter()
                .enumerate()
                .map(|(c, v)| match v {
                    Value::Null => Ok(None),
                    other => int_value(other, &format!("{field}[{r}][{c}]")).map(Some),
                })
                .collect()
        })
        .collect()
}

/// A move's value on the levels' scale from its margin for the mover.
fn margin_value(margin: i64, board: &Board) -> f64 {
    let scale = MARGIN_SCALE_TILES * board.largest_value().max(1) as f64;
    0.5 + 0.5 * (margin as f64 / scale).tanh()
}

fn tile_json(tile: Tile) -> Value {
    json!({"row": tile.row, "col": tile.col})
}

impl ArenaGame for NumberSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["lookahead2"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "lookahead2").then_some(Strategy::Lookahead2)
    }

    fn own_player(strategy: Strategy, _: &Self::Options, _: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        Ok((strategy == Strategy::Lookahead2).then(|| Box::new(Lookahead2) as Player<Self>))
    }
}

/// The seed paper's two-ply greedy AI, as an arena player.
pub struct Lookahead2;

impl Chooser<NumberSquare> for Lookahead2 {
    fn choose(
        &mut self,
        game: &NumberSquare,
        _: &mut dyn RngCore,
    ) -> Result<Vec<<NumberSquare as Game>::Move>, ArenaError> {
        let tile = lookahead2(game.board())
            .ok_or_else(|| ArenaError::Internal("lookahead2 found no tile in play".to_string()))?;
        Ok(vec![tile])
    }
}

impl TurnGame for NumberSquareMatch {
    type Game = NumberSquare;
    type Options = Deal;
    type Position = NoPosition;
    /// Exact on small boards.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(300),
        nodes: 200_000,
    };
    const KEEPS_SCORE: bool = true;

    fn parse_options(raw: Option<&Value>, _ctx: &AiContext) -> Result<Deal, MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&["size", "board"])?;
        let size = obj.int("size")?;
        match obj.get("board").filter(|b| !b.is_null()) {
            Some(board) => {
                let rows = board_rows(board, "options.board")?;
                let parsed = Board::from_rows(&rows).map_err(|e| MatchError::Options(format!("board: {e}")))?;
                if size.is_some_and(|s| usize::try_from(s).ok() != Some(parsed.size())) {
                    return Err(MatchError::Options(format!(
                        "size {} does not match the {n} x {n} board; give one or the other",
                        size.unwrap_or_default(),
                        n = parsed.size()
                    )));
                }
                Ok(Deal::Given(parsed))
            }
            None => {
                let size = size.unwrap_or(DEFAULT_SIZE as i64);
                usize::try_from(size)
                    .ok()
                    .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                    .map(Deal::Shuffled)
                    .ok_or_else(|| {
                        field_error(
                            "options.size",
                            format!("must be an integer from {MIN_SIZE} to {MAX_SIZE}"),
                            &json!(size),
                        )
                    })
            }
        }
    }

    /// Deals a shuffled board here, not in `opening`, so that the stored
    /// options hold it: the state keeps null for taken tiles, and a review
    /// replays the history from this board. (The same draws from the RNG
    /// as before, so seeded matches deal the same boards.)
    fn settle(deal: Deal, rng: &mut dyn RngCore) -> Result<Deal, MatchError> {
        match deal {
            Deal::Shuffled(size) => Board::shuffled(size, rng)
                .map(Deal::Given)
                .map_err(|e| MatchError::Options(e.to_string())),
            given => Ok(given),
        }
    }

    fn options_json(deal: &Deal) -> Value {
        match deal {
            Deal::Shuffled(size) => json!({"size": size}),
            Deal::Given(board) => json!({"size": board.size(), "board": board.rows()}),
        }
    }

    fn opening(deal: &Deal) -> Result<NumberSquare, MatchError> {
        match deal {
            Deal::Given(board) => Ok(NumberSquare::new(board.clone(), [0, 0], 0)),
            Deal::Shuffled(_) => Err(MatchError::Internal("the board was never dealt".to_string())),
        }
    }

    fn state_json(game: &NumberSquare, human: Seat) -> Value {
        json!({
            "board": game.board().rows(),
            "scores": {"human": game.score(human), "ai": game.score(1 - human)},
        })
    }

    /// A match in progress waits for the person, so the person is the
    /// mover; which seat they had at the start does not matter to the rules.
    fn parse_state(_deal: &Deal, state: &Value) -> Result<(NumberSquare, Seat), MatchError> {
        let obj = Obj::new(Some(state), "state", false)?;
        let rows = board_rows(obj.required("board")?, "state.board")?;
        let board = Board::from_rows(&rows).map_err(|e| MatchError::Corrupt(e.to_string()))?;
        let scores = Obj::new(obj.get("scores"), "state.scores", false)?;
        let human = scores.int("human")?.unwrap_or(0);
        let ai = scores.int("ai")?.unwrap_or(0);
        Ok((NumberSquare::new(board, [human, ai], 0), 0))
    }

    fn parse_move(game: &NumberSquare, mv: &Value) -> Result<Tile, MatchError> {
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["row", "col"])?;
        let tile = Tile::new(obj.index("row")?, obj.index("col")?);
        game.board()
            .play(tile)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        Ok(tile)
    }

    fn move_json(_game: &NumberSquare, tile: Tile) -> Value {
        tile_json(tile)
    }

    fn ai_turn(
        game: &NumberSquare,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Tile>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }

    fn end_reason(game: &NumberSquare, _outcome: GameOutcome) -> EndReason {
        match game.board().end() {
            Some(GameEnd::TopToBottomPath | GameEnd::LeftToRightPath) => EndReason::CrossingPath,
            _ => EndReason::AllTaken,
        }
    }

    /// Every tile taken (all null) or a crossing path.
    fn unrecorded_end_reason(_: Winner, state: &Value) -> EndReason {
        let all_taken = state["board"].as_array().is_some_and(|rows| {
            rows.iter()
                .flat_map(|r| r.as_array().into_iter().flatten())
                .all(Value::is_null)
        });
        if all_taken {
            EndReason::AllTaken
        } else {
            EndReason::CrossingPath
        }
    }

    fn scores(game: &NumberSquare, human: Seat) -> Option<Scores> {
        Some(Scores {
            human: game.score(human),
            ai: game.score(1 - human),
        })
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &NumberSquare, ai: &AiSpec, ctx: &AiContext) -> Result<Choice<Tile>, MatchError> {
    let board = game.board();
    let limits = ctx.limits.search(GameKind::NumberSquare);
    let analysis = ctx
        .solvers
        .of::<NumberSquareSolver>()
        .analyse(board, &limits)
        .ok_or_else(|| MatchError::Internal("the solver found no move on a board in play".to_string()))?;
    let candidates = if ai.is_best() {
        Vec::new()
    } else {
        analysis
            .moves
            .iter()
            .map(|m| Candidate {
                mv: m.tile,
                value: margin_value(m.value, board),
            })
            .collect()
    };
    Ok(Choice {
        best: analysis.best_move,
        candidates,
    })
}
