//! Number Square ("Persegi Bilangan") matches: players take tiles in turn
//! and score their values; the higher total wins. State:
//! `{"board": [[value or null]], "scores": {"human", "ai"}}`.

use rand::RngCore;
use serde_json::{json, Value};

use crate::games::number_square::{Board, GameEnd, Tile, MAX_SIZE, MIN_SIZE};
use crate::solve::limits::SearchLimits;
use crate::solve::number_square::Analysis;

use super::engine::{corrupt, AiContext, AiSpec, EndReason, Log, MatchError, MatchGame, MatchResult, Progress};
use super::json::{field_error, int_value, Obj};
use super::levels;

pub(crate) struct NumberSquareMatch;

const DEFAULT_SIZE: usize = 8;

/// A margin this many times the largest tile counts as half a game on the
/// levels' scale: a weak AI gives away a tile's worth readily, a whole game
/// rarely.
const MARGIN_SCALE_TILES: f64 = 2.0;

#[derive(Clone, Debug)]
pub(crate) enum Deal {
    /// 1..size^2 shuffled by the server at the start.
    Shuffled(usize),
    /// The board the request gave.
    Given(Vec<Vec<Option<i64>>>),
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

fn state_json(board: &Board, human: i64, ai: i64) -> Value {
    json!({"board": board.rows(), "scores": {"human": human, "ai": ai}})
}

fn parse_state(state: &Value) -> Result<(Board, i64, i64), MatchError> {
    let obj = Obj::new(Some(state), "state", false)?;
    let rows = board_rows(obj.required("board")?, "state.board")?;
    let board = Board::from_rows(&rows).map_err(|e| MatchError::Corrupt(e.to_string()))?;
    let scores = Obj::new(obj.get("scores"), "state.scores", false)?;
    let human = scores.int("human")?.unwrap_or(0);
    let ai = scores.int("ai")?.unwrap_or(0);
    Ok((board, human, ai))
}

pub(crate) fn ai_move(board: &Board, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Result<Tile, MatchError> {
    let limits = SearchLimits::within(ctx.limits.number_square_time).with_max_nodes(ctx.limits.number_square_nodes);
    let analysis: Analysis = ctx
        .number_square
        .analyse(board, &limits)
        .ok_or_else(|| MatchError::Internal("the solver found no move on a board in play".to_string()))?;
    if ai.is_best() || analysis.moves.is_empty() {
        return Ok(analysis.best_move);
    }
    let scale = MARGIN_SCALE_TILES * board.largest_value().max(1) as f64;
    let values: Vec<f64> = analysis
        .moves
        .iter()
        .map(|m| 0.5 + 0.5 * (m.value as f64 / scale).tanh())
        .collect();
    Ok(levels::choose(&values, ai.level, rng)
        .and_then(|i| analysis.moves.get(i))
        .map_or(analysis.best_move, |m| m.tile))
}

/// The AI takes a tile; the match is then over or the person's again.
fn ai_turn(
    board: &Board,
    human: i64,
    ai_score: i64,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<Progress, MatchError> {
    let tile = ai_move(board, ai, ctx, rng)?;
    let played = board
        .play(tile)
        .map_err(|e| MatchError::Internal(format!("the solver chose an illegal tile: {e}")))?;
    log.ai(json!({"row": tile.row, "col": tile.col}));
    let ai_score = ai_score + played.points;
    Ok(progress(&played.board, human, ai_score))
}

fn progress(board: &Board, human: i64, ai: i64) -> Progress {
    let reason = |end: GameEnd| match end {
        GameEnd::AllTaken => EndReason::AllTaken,
        GameEnd::TopToBottomPath | GameEnd::LeftToRightPath => EndReason::CrossingPath,
    };
    Progress {
        state: state_json(board, human, ai),
        legal_moves: board
            .legal_moves()
            .into_iter()
            .map(|tile| json!({"row": tile.row, "col": tile.col}))
            .collect(),
        result: board.end().map(|end| MatchResult::from_scores(human, ai, reason(end))),
    }
}

impl MatchGame for NumberSquareMatch {
    type Options = Deal;

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
                Ok(Deal::Given(parsed.rows()))
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

    /// Deals a shuffled board here, not in `start`, so that the stored
    /// options hold it: the state keeps null for taken tiles, and a review
    /// replays the history from this board. (The same draws from the RNG
    /// as before, so seeded matches deal the same boards.)
    fn settle(deal: Deal, rng: &mut dyn RngCore) -> Result<Deal, MatchError> {
        match deal {
            Deal::Shuffled(size) => Board::shuffled(size, rng)
                .map(|board| Deal::Given(board.rows()))
                .map_err(|e| MatchError::Options(e.to_string())),
            given => Ok(given),
        }
    }

    fn options_json(deal: &Deal) -> Value {
        match deal {
            Deal::Shuffled(size) => json!({"size": size}),
            Deal::Given(rows) => json!({"size": rows.len(), "board": rows}),
        }
    }

    fn start(
        deal: &Deal,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let board = match deal {
            Deal::Shuffled(size) => Board::shuffled(*size, rng),
            Deal::Given(rows) => Board::from_rows(rows),
        }
        .map_err(|e| MatchError::Options(e.to_string()))?;
        if ai_first {
            ai_turn(&board, 0, 0, ai, ctx, rng, log)
        } else {
            Ok(progress(&board, 0, 0))
        }
    }

    fn play(
        _deal: &Deal,
        state: &Value,
        mv: &Value,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let (board, human, ai_score) = parse_state(state).map_err(corrupt)?;
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["row", "col"])?;
        let tile = Tile::new(obj.index("row")?, obj.index("col")?);
        let played = board.play(tile).map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        log.human(json!({"row": tile.row, "col": tile.col}));
        let human = human + played.points;
        if played.board.is_over() {
            return Ok(progress(&played.board, human, ai_score));
        }
        ai_turn(&played.board, human, ai_score, ai, ctx, rng, log)
    }
}
