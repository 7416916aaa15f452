//! Number Square ("Persegi Bilangan") matches: players take tiles in turn
//! and score their values; the higher total wins. State:
//! `{"board": [[value or null]], "scores": {"human", "ai"}}`.

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::arena::games::{ArenaGame, Player};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::Game;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores};
use crate::matches::read;
use crate::matches::turns::{Candidate, Choice, TurnGame};
use crate::solve::solvers::Solvers;

use super::solve::{evaluation, NumberSquareSolver};
use super::strategies::lookahead2;
use super::{Board, GameEnd, NumberSquareState, Tile, MAX_SIZE, MIN_SIZE};

pub(crate) struct NumberSquareMatch;

const DEFAULT_SIZE: usize = 8;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum Deal {
    /// 1..size^2 shuffled by the server at the start.
    Shuffled(usize),
    /// The board the request gave, or the server dealt.
    Given(Board),
}

/// Number Square's options, as matches, reviews and the catalog read them:
/// a board dealt at random of a size, or a given board.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<Vec<Option<i64>>>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: Some(DEFAULT_SIZE as i64),
            board: None,
        }
    }
}

impl Options {
    fn deal(&self) -> Result<Deal, String> {
        match &self.board {
            Some(rows) => {
                let parsed = Board::from_rows(rows).map_err(|e| format!("board: {e}"))?;
                if let Some(size) = self.size.filter(|&s| usize::try_from(s).ok() != Some(parsed.size())) {
                    return Err(format!(
                        "size {size} does not match the {n} x {n} board; give one or the other",
                        n = parsed.size()
                    ));
                }
                Ok(Deal::Given(parsed))
            }
            None => {
                let size = self.size.unwrap_or(DEFAULT_SIZE as i64);
                usize::try_from(size)
                    .ok()
                    .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                    .map(Deal::Shuffled)
                    .ok_or_else(|| format!("size must be an integer from {MIN_SIZE} to {MAX_SIZE} (got {size})"))
            }
        }
    }
}

/// A move: the tile's row and column, from 0.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileMove {
    pub row: i64,
    pub col: i64,
}

impl TileMove {
    /// The tile, if its row and column can be on a board.
    pub fn tile(&self) -> Result<Tile, String> {
        match (usize::try_from(self.row), usize::try_from(self.col)) {
            (Ok(row), Ok(col)) => Ok(Tile::new(row, col)),
            _ => Err(format!(
                "row {}, column {} is off the board; rows and columns count from 0",
                self.row, self.col
            )),
        }
    }
}

/// Where the record of a match stored before its deal was kept starts:
/// the board (taken tiles null) and the scores, person first.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct UndealtStart {
    board: Vec<Vec<Option<i64>>>,
    scores: [i64; 2],
}

/// A match's `state` object (read back only by
/// [`TurnGame::unrecorded_start`]).
#[derive(Serialize, Deserialize)]
struct State {
    board: Vec<Vec<Option<i64>>>,
    scores: StateScores,
}

#[derive(Serialize, Deserialize)]
struct StateScores {
    human: i64,
    ai: i64,
}

/// A move's value on the levels' scale from its margin for the mover.
fn margin_value(margin: i64, board: &Board) -> f64 {
    evaluation(margin, false, board).win_chance
}

impl ArenaGame for NumberSquareMatch {
    const OWN_NAMES: &'static [&'static str] = &["lookahead2"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "lookahead2").then_some(Strategy::Lookahead2)
    }

    fn own_player(strategy: Strategy, _: &Self::Rules, _: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        Ok((strategy == Strategy::Lookahead2).then(|| Box::new(Lookahead2) as Player<Self>))
    }
}

/// The seed paper's two-ply greedy AI, as an arena player.
pub struct Lookahead2;

impl Chooser<NumberSquareState> for Lookahead2 {
    fn choose(
        &mut self,
        game: &NumberSquareState,
        _: &mut dyn RngCore,
    ) -> Result<Vec<<NumberSquareState as Game>::Move>, ArenaError> {
        let tile = lookahead2(game.board())
            .ok_or_else(|| ArenaError::Internal("lookahead2 found no tile in play".to_string()))?;
        Ok(vec![tile])
    }
}

impl TurnGame for NumberSquareMatch {
    const ID: &'static str = "number-square";
    type Game = NumberSquareState;
    type Options = Options;
    type Rules = Deal;
    type Move = TileMove;
    type Position = UndealtStart;
    /// Exact on small boards.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(300),
        nodes: 200_000,
    };
    const KEEPS_SCORE: bool = true;

    fn rules(options: Options, _solvers: &Solvers) -> Result<Deal, String> {
        options.deal()
    }

    fn options(deal: &Deal) -> Options {
        match deal {
            Deal::Shuffled(size) => Options {
                size: i64::try_from(*size).ok(),
                board: None,
            },
            Deal::Given(board) => Options {
                size: i64::try_from(board.size()).ok(),
                board: Some(board.rows()),
            },
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

    fn opening(deal: &Deal) -> Result<NumberSquareState, MatchError> {
        match deal {
            Deal::Given(board) => Ok(NumberSquareState::new(board.clone(), [0, 0], 0)),
            Deal::Shuffled(_) => Err(MatchError::Internal("the board was never dealt".to_string())),
        }
    }

    fn state_json(game: &NumberSquareState, human: Seat) -> Value {
        json!(State {
            board: game.board().rows(),
            scores: StateScores {
                human: game.score(human),
                ai: game.score(1 - human),
            },
        })
    }

    /// A match in progress waits for the person, so the person is the
    /// mover; which seat they had at the start does not matter to the rules.
    /// A match stored before its deal was kept in its options: the tiles
    /// taken show as null, so its history cannot replay; its record starts
    /// from the board and scores its state shows, the person to move.
    fn unrecorded_start(deal: &Deal, state: &Value) -> Option<Result<(UndealtStart, Seat), MatchError>> {
        let Deal::Shuffled(_) = deal else {
            return None;
        };
        let start = read::required::<State>(state, "state").map(|state| UndealtStart {
            board: state.board,
            scores: [state.scores.human, state.scores.ai],
        });
        Some(start.map(|start| (start, 0)))
    }

    fn at_position(_deal: &Deal, start: UndealtStart) -> Result<NumberSquareState, MatchError> {
        let board = Board::from_rows(&start.board).map_err(|e| MatchError::Corrupt(e.to_string()))?;
        Ok(NumberSquareState::new(board, start.scores, 0))
    }

    fn game_move(game: &NumberSquareState, mv: &TileMove) -> Result<Tile, MatchError> {
        let tile = mv.tile().map_err(MatchError::IllegalMove)?;
        game.board()
            .play(tile)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        Ok(tile)
    }

    fn api_move(_game: &NumberSquareState, tile: Tile) -> TileMove {
        let int = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        TileMove {
            row: int(tile.row),
            col: int(tile.col),
        }
    }

    fn ai_turn(
        game: &NumberSquareState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Tile>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("crossing_path"), EndReason::named("all_taken")];

    fn end_reason(game: &NumberSquareState, _outcome: GameOutcome) -> EndReason {
        match game.board().end() {
            Some(GameEnd::TopToBottomPath | GameEnd::LeftToRightPath) => EndReason::named("crossing_path"),
            _ => EndReason::named("all_taken"),
        }
    }

    fn scores(game: &NumberSquareState, human: Seat) -> Option<Scores> {
        Some(Scores {
            human: game.score(human),
            ai: game.score(1 - human),
        })
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &NumberSquareState, ai: &AiSpec, ctx: &AiContext) -> Result<Choice<Tile>, MatchError> {
    let board = game.board();
    let limits = ctx.limits.search_for::<NumberSquareMatch>();
    let analysis = ctx
        .solvers
        .of::<NumberSquareSolver>()
        .analyze(board, &limits)
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
