//! Othello matches. Black (X) moves first: the person plays X unless the AI
//! goes first. Options `{size}` (4, 6 or 8; default 8); state `{"board":
//! [row strings, top first], "to_move", "human_plays"}`; move `{"square":
//! "d3"}`. A side with no square passes by itself (the history records
//! `{"pass": true}`); the result counts discs, empties to the winner.

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::geometry::Size;
use super::players::{greedy_move, level_settings, level_value};
use super::rules::{symbol, OthelloState};
use super::solve::OthelloEngine;
use super::square::OthelloMove;
use crate::arena::games::{ArenaGame, Player};
use crate::arena::players::Chooser;
use crate::arena::strategy::Strategy;
use crate::arena::ArenaError;
use crate::core::game::{GameOutcome, Seat};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget, Scores};
use crate::matches::turns::{Candidate, Choice, NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

pub(crate) struct OthelloMatch;

/// Othello's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub size: Option<i64>,
}

impl Default for Options {
    fn default() -> Self {
        Options { size: Some(8) }
    }
}

impl Options {
    pub fn size(&self) -> Result<Size, String> {
        let side = self.size.unwrap_or(8);
        u32::try_from(side)
            .ok()
            .and_then(Size::from_side)
            .ok_or_else(|| format!("size = {side}; expected 4, 6 or 8"))
    }
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    board: Vec<String>,
    to_move: Option<String>,
    human_plays: String,
}

impl TurnGame for OthelloMatch {
    const ID: &'static str = "othello";
    type Game = OthelloState;
    type Options = Options;
    type Rules = Size;
    type Move = OthelloMove;
    type Position = NoPosition;
    /// Disc counts: the result carries the final scores.
    const KEEPS_SCORE: bool = true;
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 2_000_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<Size, String> {
        options.size()
    }

    fn options(size: &Size) -> Options {
        Options {
            size: Some(i64::from(size.side())),
        }
    }

    fn opening(size: &Size) -> Result<OthelloState, MatchError> {
        Ok(OthelloState::new(*size))
    }

    fn state_json(game: &OthelloState, human: Seat) -> Value {
        json!(State {
            board: game.rows(),
            to_move: Some(symbol(game.to_move()).to_string()),
            human_plays: symbol(human).to_string(),
        })
    }

    fn game_move(game: &OthelloState, mv: &OthelloMove) -> Result<OthelloMove, MatchError> {
        let mut after = *game;
        after
            .try_play(*mv)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        Ok(*mv)
    }

    fn api_move(_game: &OthelloState, mv: OthelloMove) -> OthelloMove {
        mv
    }

    fn forced_move(game: &OthelloState) -> Option<OthelloMove> {
        game.must_pass().then_some(OthelloMove::Pass)
    }

    fn ai_turn(
        game: &OthelloState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<OthelloMove>, MatchError> {
        if game.must_pass() {
            return Ok(vec![OthelloMove::Pass]);
        }
        let limits = ctx.limits.search_for::<OthelloMatch>();
        let engine = ctx.solvers.of::<OthelloEngine>();
        let analysis = engine.analyze_with(game, &limits, &level_settings(ai.level));
        let candidates = level_value(&analysis)
            .into_iter()
            .map(|(mv, value)| Candidate { mv, value })
            .collect();
        let choice = Choice {
            best: analysis.best,
            candidates,
        };
        Ok(vec![choice.pick(ai, rng)])
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("no_move")];

    fn end_reason(_game: &OthelloState, _outcome: GameOutcome) -> EndReason {
        EndReason::named("no_move")
    }

    /// Discs, empties to the winner (the FFO convention the scores use).
    fn scores(game: &OthelloState, human: Seat) -> Option<Scores> {
        let margin = i64::from(game.final_score(human));
        let squares = i64::from(game.size().squares());
        let human_discs = (squares + margin) / 2;
        Some(Scores {
            human: human_discs,
            ai: squares - human_discs,
        })
    }
}

impl ArenaGame for OthelloMatch {
    const OWN_NAMES: &'static [&'static str] = &["greedy"];

    fn own_strategy(name: &str) -> Option<Strategy> {
        (name == "greedy").then_some(Strategy::Greedy)
    }

    fn own_player(strategy: Strategy, _: &Size, _: &AiContext) -> Result<Option<Player<Self>>, ArenaError> {
        Ok((strategy == Strategy::Greedy).then(|| Box::new(Greedy) as Player<Self>))
    }
}

/// The move that turns the most discs.
pub struct Greedy;

impl Chooser<OthelloState> for Greedy {
    fn choose(&mut self, game: &OthelloState, _: &mut dyn RngCore) -> Result<Vec<OthelloMove>, ArenaError> {
        Ok(vec![greedy_move(game)])
    }
}
