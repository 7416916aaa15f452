//! Nine Square matches. X moves first: the person plays X unless the AI
//! goes first. At the person's turn the server has already rolled their die
//! (`state.dice`); they send exactly min(dice, empty cells) placements. The
//! AI rolls and places on its own turn. State: `{"board": [9 row strings],
//! "human_plays", "dice", "score": {"X", "O"}}` (`dice` is null once the
//! match is over).

use rand::{Rng, RngCore};
use serde_json::{json, Value};

use crate::games::nine_square::{Board, Coord, Player, Position, DIE_FACES};
use crate::solve::limits::SearchLimits;
use crate::solve::nine_square::best_placements;
use crate::strategies::nine_square::greedy_value;

use super::engine::{corrupt, AiContext, AiSpec, EndReason, Log, MatchError, MatchGame, MatchResult, Progress};
use super::json::{int_value, strings, Obj};
use super::levels;

/// Below the best level each mark is drawn among the empty cells: a cell the
/// search chose is worth this much more than any other...
const SEARCH_CHOICE_VALUE: f64 = 0.5;
/// ...and the seed's greedy value of a cell adds up to this much.
const GREEDY_VALUE: f64 = 0.5;

pub(crate) struct NineSquareMatch;

fn player_name(p: Player) -> &'static str {
    match p {
        Player::X => "X",
        Player::O => "O",
    }
}

fn state_json(board: &Board, human: Player, dice: Option<u8>) -> Value {
    let score = board.score();
    json!({
        "board": board.rows(),
        "human_plays": player_name(human),
        "dice": dice,
        "score": {"X": score.x, "O": score.o},
    })
}

fn parse_state(state: &Value) -> Result<Position, MatchError> {
    let obj = Obj::new(Some(state), "state", false)?;
    let rows = strings(obj.required("board")?, "state.board")?;
    let human = obj.str("human_plays")?.unwrap_or("");
    let dice = obj.int("dice")?.unwrap_or(0);
    Position::parse(&rows, human, dice).map_err(|e| MatchError::Corrupt(e.to_string()))
}

fn roll(rng: &mut dyn RngCore) -> u8 {
    rng.gen_range(1..=DIE_FACES)
}

fn placements_json(cells: &[Coord]) -> Value {
    let list: Vec<Value> = cells.iter().map(|c| json!({"row": c.row(), "col": c.col()})).collect();
    json!({ "placements": list })
}

/// The grid is full: the match is over.
fn finished(board: &Board, human: Player) -> Progress {
    let score = board.score();
    Progress {
        state: state_json(board, human, None),
        legal_moves: Vec::new(),
        result: Some(MatchResult::from_scores(
            score.of(human).into(),
            score.of(human.opponent()).into(),
            EndReason::BoardFull,
        )),
    }
}

pub(crate) fn ai_placements(position: &Position, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Vec<Coord> {
    let limits = SearchLimits::within(ctx.limits.nine_square_time).with_max_nodes(ctx.limits.nine_square_nodes);
    let mut chosen = best_placements(position, &limits, rng.next_u64()).placements;
    if ai.is_best() {
        return chosen;
    }
    // One mark at a time: the search's cells are the likeliest, cells the
    // seed's greedy player likes come next.
    let player = position.player();
    let mut board = *position.board();
    let mut marks = Vec::with_capacity(position.placements_due());
    for _ in 0..position.placements_due() {
        let empties: Vec<Coord> = board.empty_cells().collect();
        let greedy: Vec<f64> = empties
            .iter()
            .map(|&c| f64::from(greedy_value(&board, c, player)))
            .collect();
        let top = greedy.iter().copied().fold(1.0, f64::max);
        let values: Vec<f64> = empties
            .iter()
            .zip(&greedy)
            .map(|(c, g)| {
                let searched = if chosen.contains(c) { SEARCH_CHOICE_VALUE } else { 0.0 };
                searched + GREEDY_VALUE * g / top
            })
            .collect();
        let Some(cell) = levels::choose(&values, ai.level, rng).and_then(|i| empties.get(i).copied()) else {
            break;
        };
        if board.place(cell, player).is_err() {
            break;
        }
        chosen.retain(|&c| c != cell);
        marks.push(cell);
    }
    marks
}

/// The AI rolls and places; then, unless the grid is full, the person's die
/// is rolled.
fn ai_turn(
    board: &Board,
    human: Player,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<Progress, MatchError> {
    let face = roll(rng);
    log.dice(u32::from(face));
    let position = Position::new(*board, human.opponent(), face).map_err(|e| MatchError::Internal(e.to_string()))?;
    let cells = ai_placements(&position, ai, ctx, rng);
    let loose: Vec<(i64, i64)> = cells.iter().map(|c| (c.row() as i64, c.col() as i64)).collect();
    let after = position
        .apply(&loose)
        .map_err(|e| MatchError::Internal(format!("the AI chose illegal placements: {e}")))?;
    log.ai(placements_json(&cells));
    Ok(human_turn(&after, human, rng, log))
}

/// The person's turn begins with their roll, unless the grid is full.
fn human_turn(board: &Board, human: Player, rng: &mut dyn RngCore, log: &mut Log) -> Progress {
    if board.is_full() {
        return finished(board, human);
    }
    let face = roll(rng);
    log.dice(u32::from(face));
    Progress {
        state: state_json(board, human, Some(face)),
        // A move places min(dice, empty cells) of these.
        legal_moves: board
            .empty_cells()
            .map(|c| json!({"row": c.row(), "col": c.col()}))
            .collect(),
        result: None,
    }
}

fn parse_placements(mv: &Value) -> Result<Vec<(i64, i64)>, MatchError> {
    let obj = Obj::new(Some(mv), "move", false)?;
    obj.only(&["placements"])?;
    let list = obj.array("placements")?.ok_or_else(|| MatchError::Field {
        field: "move.placements".to_string(),
        expected: "is required".to_string(),
    })?;
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            let path = format!("move.placements[{i}]");
            let cell = Obj::new(Some(item), &path, false)?;
            cell.only(&["row", "col"])?;
            let row = int_value(cell.required("row")?, &cell.path("row"))?;
            let col = int_value(cell.required("col")?, &cell.path("col"))?;
            Ok((row, col))
        })
        .collect()
}

impl MatchGame for NineSquareMatch {
    type Options = ();

    fn parse_options(raw: Option<&Value>, _ctx: &AiContext) -> Result<(), MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&[])
    }

    fn options_json(_: &()) -> Value {
        json!({})
    }

    fn start(
        _: &(),
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let board = Board::new();
        if ai_first {
            ai_turn(&board, Player::O, ai, ctx, rng, log)
        } else {
            Ok(human_turn(&board, Player::X, rng, log))
        }
    }

    fn play(
        _: &(),
        state: &Value,
        mv: &Value,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let position = parse_state(state).map_err(corrupt)?;
        let placements = parse_placements(mv)?;
        let after = position
            .apply(&placements)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        let human = position.player();
        let cells: Vec<Value> = placements.iter().map(|(r, c)| json!({"row": r, "col": c})).collect();
        log.human(json!({ "placements": cells }));
        if after.is_full() {
            return Ok(finished(&after, human));
        }
        ai_turn(&after, human, ai, ctx, rng, log)
    }
}
