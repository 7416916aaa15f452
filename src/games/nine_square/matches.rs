//! Nine Square matches. X moves first: the person plays X unless the AI
//! goes first. At the person's turn the server has already rolled their die
//! (`state.dice`); they send exactly min(dice, empty cells) placements. The
//! AI rolls and places on its own turn. State: `{"board": [9 row strings],
//! "human_plays", "dice", "score": {"X", "O"}}` (`dice` is null once the
//! match is over).

use std::time::Duration;

use rand::{Rng, RngCore};
use serde_json::{json, Value};

use crate::arena::games::{ArenaGame, Player as ArenaPlayer};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores, Winner};
use crate::matches::json::{int_value, strings, Obj};
use crate::matches::levels;
use crate::matches::turns::{NoPosition, TurnGame};
use crate::matches::GameKind;

use super::solve::best_placements;
use super::strategies::{greedy_placements, greedy_value};
use super::{Coord, Game, NineSquareMove, Player, Position, DIE_FACES};

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

fn coord_json(at: Coord) -> Value {
    json!({"row": at.row(), "col": at.col()})
}

/// The turn in progress as a position the search and the seed's
/// strategies answer (None unless a mark is due).
pub(crate) fn position_of(game: &Game) -> Option<Position> {
    game.position(game.rolled())
}

pub(crate) fn ai_placements(position: &Position, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Vec<Coord> {
    let limits = ctx.limits.search(GameKind::NineSquare);
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

impl ArenaGame for NineSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["greedy"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "greedy").then_some(Strategy::Greedy)
    }

    fn own_player(
        strategy: Strategy,
        _: &Self::Options,
        _: &AiContext,
    ) -> Result<Option<ArenaPlayer<Self>>, ArenaError> {
        Ok((strategy == Strategy::Greedy).then(|| Box::new(Greedy) as ArenaPlayer<Self>))
    }
}

/// The seed paper's greedy by line, all of a turn's marks, as an arena
/// player.
pub struct Greedy;

impl Chooser<Game> for Greedy {
    fn choose(&mut self, game: &Game, _: &mut dyn RngCore) -> Result<Vec<NineSquareMove>, ArenaError> {
        let position =
            position_of(game).ok_or_else(|| ArenaError::Internal("greedy asked with no placement due".to_string()))?;
        Ok(greedy_placements(&position)
            .into_iter()
            .map(NineSquareMove::Place)
            .collect())
    }
}

impl TurnGame for NineSquareMatch {
    type Game = Game;
    type Options = ();
    type Position = NoPosition;
    /// Per turn (all its marks).
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(200),
        nodes: 30_000,
    };
    const KEEPS_SCORE: bool = true;

    fn parse_options(raw: Option<&Value>, _ctx: &AiContext) -> Result<(), MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&[])
    }

    fn options_json(_: &()) -> Value {
        json!({})
    }

    fn opening(_: &()) -> Result<Game, MatchError> {
        Ok(Game::new())
    }

    /// `dice` is the roll the person places for (null once the grid is full).
    fn state_json(game: &Game, human: Seat) -> Value {
        let score = game.board().score();
        json!({
            "board": game.board().rows(),
            "human_plays": player_name(Player::of_seat(human)),
            "dice": (!game.is_over()).then_some(game.rolled()),
            "score": {"X": score.x, "O": score.o},
        })
    }

    fn parse_state(_: &(), state: &Value) -> Result<(Game, Seat), MatchError> {
        let obj = Obj::new(Some(state), "state", false)?;
        let rows = strings(obj.required("board")?, "state.board")?;
        let human = obj.str("human_plays")?.unwrap_or("");
        let dice = obj.int("dice")?.unwrap_or(0);
        let position = Position::parse(&rows, human, dice).map_err(|e| MatchError::Corrupt(e.to_string()))?;
        Ok((Game::from_position(&position), position.player().seat()))
    }

    /// One mark, `{"row", "col"}` (the format of `legal_moves`).
    fn parse_move(game: &Game, mv: &Value) -> Result<NineSquareMove, MatchError> {
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["row", "col"])?;
        let at = Coord::new(obj.index("row")?, obj.index("col")?)
            .ok_or_else(|| MatchError::IllegalMove("the cell is off the 9 x 9 grid".to_string()))?;
        if game.board().get(at).is_some() {
            return Err(MatchError::IllegalMove(format!(
                "the cell ({}, {}) is taken",
                at.row(),
                at.col()
            )));
        }
        Ok(NineSquareMove::Place(at))
    }

    fn move_json(_game: &Game, mv: NineSquareMove) -> Value {
        match mv {
            NineSquareMove::Place(at) => coord_json(at),
            NineSquareMove::Roll(face) => json!({ "roll": face }),
        }
    }

    /// `{"placements": [...]}`: exactly the marks the roll places.
    fn parse_turn(game: &Game, mv: &Value) -> Result<Vec<NineSquareMove>, MatchError> {
        let position =
            position_of(game).ok_or_else(|| MatchError::Corrupt("state: no placement is due".to_string()))?;
        let placements = parse_placements(mv)?;
        // The rules' own messages: the count, a repeated cell, a taken one.
        position
            .apply(&placements)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        placements
            .iter()
            .map(|&(row, col)| {
                let at = usize::try_from(row)
                    .ok()
                    .zip(usize::try_from(col).ok())
                    .and_then(|(row, col)| Coord::new(row, col))
                    .ok_or_else(|| MatchError::Internal(format!("({row}, {col}) was placed but is off the grid")))?;
                Ok(NineSquareMove::Place(at))
            })
            .collect()
    }

    fn turn_json(game: &Game, moves: &[NineSquareMove]) -> Value {
        let list: Vec<Value> = moves.iter().map(|&mv| Self::move_json(game, mv)).collect();
        json!({ "placements": list })
    }

    fn ai_turn(
        game: &Game,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<NineSquareMove>, MatchError> {
        let position = position_of(game)
            .ok_or_else(|| MatchError::Internal("the AI was asked to place with no placement due".to_string()))?;
        Ok(ai_placements(&position, ai, ctx, rng)
            .into_iter()
            .map(NineSquareMove::Place)
            .collect())
    }

    fn end_reason(_: &Game, _: GameOutcome) -> EndReason {
        EndReason::BoardFull
    }

    fn unrecorded_end_reason(_: Winner, _: &Value) -> EndReason {
        EndReason::BoardFull
    }

    fn scores(game: &Game, human: Seat) -> Option<Scores> {
        let score = game.board().score();
        let human = Player::of_seat(human);
        Some(Scores {
            human: score.of(human).into(),
            ai: score.of(human.opponent()).into(),
        })
    }

    fn roll(_game: &Game, rng: &mut dyn RngCore) -> Option<(NineSquareMove, u32)> {
        let face = rng.gen_range(1..=DIE_FACES);
        Some((NineSquareMove::Roll(face), u32::from(face)))
    }
}
