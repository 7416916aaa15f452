//! Nine Square matches. X moves first: the person plays X unless the AI
//! goes first. At the person's turn the server has already rolled their die
//! (`state.dice`); they send exactly min(dice, empty cells) placements. The
//! AI rolls and places on its own turn. State: `{"board": [9 row strings],
//! "human_plays", "dice", "score": {"X", "O"}}` (`dice` is null once the
//! match is over).

use std::time::Duration;

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::arena::games::{ArenaGame, Player as ArenaPlayer};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores};
use crate::matches::levels;
use crate::matches::read;
use crate::matches::turns::{NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

use super::solve::best_placements;
use super::strategies::{greedy_placements, greedy_value};
use super::{Coord, NineSquareMove, NineSquareState, Player, Position, DIE_FACES};

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

/// Nine Square has no options.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

/// A mark's cell, row and column from 0 (the format of `legal_moves`).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub row: i64,
    pub col: i64,
}

impl Cell {
    fn of(at: Coord) -> Cell {
        let int = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        Cell {
            row: int(at.row()),
            col: int(at.col()),
        }
    }
}

/// The person's turn: the marks their roll places.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Placements {
    placements: Vec<Cell>,
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    board: Vec<String>,
    human_plays: String,
    dice: Option<i64>,
    score: Score,
}

#[derive(Serialize, Deserialize)]
#[allow(non_snake_case)]
struct Score {
    X: i64,
    O: i64,
}

/// The turn in progress as a position the search and the seed's
/// strategies answer (None unless a mark is due).
pub(crate) fn position_of(game: &NineSquareState) -> Option<Position> {
    game.position(game.rolled())
}

pub(crate) fn ai_placements(position: &Position, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Vec<Coord> {
    let limits = ctx.limits.search_for::<NineSquareMatch>();
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

impl ArenaGame for NineSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["greedy"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "greedy").then_some(Strategy::Greedy)
    }

    fn own_player(strategy: Strategy, _: &Self::Rules, _: &AiContext) -> Result<Option<ArenaPlayer<Self>>, ArenaError> {
        Ok((strategy == Strategy::Greedy).then(|| Box::new(Greedy) as ArenaPlayer<Self>))
    }
}

/// The seed paper's greedy by line, all of a turn's marks, as an arena
/// player.
pub struct Greedy;

impl Chooser<NineSquareState> for Greedy {
    fn choose(&mut self, game: &NineSquareState, _: &mut dyn RngCore) -> Result<Vec<NineSquareMove>, ArenaError> {
        let position =
            position_of(game).ok_or_else(|| ArenaError::Internal("greedy asked with no placement due".to_string()))?;
        Ok(greedy_placements(&position)
            .into_iter()
            .map(NineSquareMove::Place)
            .collect())
    }
}

impl TurnGame for NineSquareMatch {
    const ID: &'static str = "nine-square";
    type Game = NineSquareState;
    type Options = NoOptions;
    type Rules = ();
    type Move = Cell;
    type Position = NoPosition;
    /// Per turn (all its marks).
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(200),
        nodes: 30_000,
    };
    const KEEPS_SCORE: bool = true;

    fn rules(_: NoOptions, _solvers: &Solvers) -> Result<(), String> {
        Ok(())
    }

    fn options(_: &()) -> NoOptions {
        NoOptions {}
    }

    fn opening(_: &()) -> Result<NineSquareState, MatchError> {
        Ok(NineSquareState::new())
    }

    /// `dice` is the roll the person places for (null once the grid is full).
    fn state_json(game: &NineSquareState, human: Seat) -> Value {
        let score = game.board().score();
        json!(State {
            board: game.board().rows(),
            human_plays: player_name(Player::of_seat(human)).to_string(),
            dice: (!game.is_over()).then_some(i64::from(game.rolled())),
            score: Score {
                X: i64::from(score.x),
                O: i64::from(score.o),
            },
        })
    }

    /// One mark (the format of `legal_moves`).
    fn game_move(game: &NineSquareState, mv: &Cell) -> Result<NineSquareMove, MatchError> {
        let at = usize::try_from(mv.row)
            .ok()
            .zip(usize::try_from(mv.col).ok())
            .and_then(|(row, col)| Coord::new(row, col))
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

    /// A roll has no move of a person's: it is shown as the history shows
    /// it, in a dice entry.
    fn api_move(_game: &NineSquareState, mv: NineSquareMove) -> Cell {
        match mv {
            NineSquareMove::Place(at) => Cell::of(at),
            NineSquareMove::Roll(_) => Cell { row: -1, col: -1 },
        }
    }

    /// `{"placements": [...]}`: exactly the marks the roll places.
    fn parse_turn(game: &NineSquareState, mv: &Value) -> Result<Vec<NineSquareMove>, MatchError> {
        let position =
            position_of(game).ok_or_else(|| MatchError::Corrupt("state: no placement is due".to_string()))?;
        let turn: Placements = read::required(mv, "move")?;
        let placements: Vec<(i64, i64)> = turn.placements.iter().map(|c| (c.row, c.col)).collect();
        // The rules' own messages: the count, a repeated cell, a taken one.
        position
            .apply(&placements)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        turn.placements.iter().map(|cell| Self::game_move(game, cell)).collect()
    }

    fn turn_json(game: &NineSquareState, moves: &[NineSquareMove]) -> Value {
        let placements = moves.iter().map(|&mv| Self::api_move(game, mv)).collect();
        json!(Placements { placements })
    }

    fn ai_turn(
        game: &NineSquareState,
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

    const END_REASONS: &'static [EndReason] = &[EndReason::named("board_full")];

    fn end_reason(_: &NineSquareState, _: GameOutcome) -> EndReason {
        EndReason::named("board_full")
    }

    fn scores(game: &NineSquareState, human: Seat) -> Option<Scores> {
        let score = game.board().score();
        let human = Player::of_seat(human);
        Some(Scores {
            human: score.of(human).into(),
            ai: score.of(human.opponent()).into(),
        })
    }

    fn roll(_game: &NineSquareState, rng: &mut dyn RngCore) -> Option<(NineSquareMove, u32)> {
        let face = rng.gen_range(1..=DIE_FACES);
        Some((NineSquareMove::Roll(face), u32::from(face)))
    }

    fn face_outcome(_game: &NineSquareState, face: u32) -> Option<NineSquareMove> {
        u8::try_from(face).ok().map(NineSquareMove::Roll)
    }
}
