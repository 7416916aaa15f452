//! Xiangqi matches. Options `{fen}` (default the start): the person plays
//! the side to move there unless the AI goes first. State `{"fen",
//! "moves" (from the start position), "check", "to_move", "human_plays"}`;
//! move `{"uci": "h3e3"}` (Fairy-Stockfish's coordinates, ranks 1-10).
//! The game ends as the rules say: checkmate and stalemate (the side that
//! cannot move loses), repetition (perpetual check loses) and the
//! 100-ply limit, so every match and arena game ends.
//!
//! The AI is Fairy-Stockfish at the level's `Skill Level` (see
//! [`crate::engines::skill`]).

use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::analyzer;
use super::engine::side_name;
use super::rules::{EndReason as XiangqiEnd, Move, Position, Side, XiangqiState, START_FEN};
use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::engines::request::{choose_move, require_engine};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::turns::{NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

pub(crate) struct XiangqiMatch;

/// Xiangqi's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// The start position; absent or null: the standard start.
    pub fen: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fen: Some(START_FEN.to_string()),
        }
    }
}

impl Options {
    /// The start position as a game, or what is wrong with the FEN. A
    /// finished position is refused: there would be nothing to play.
    pub fn start(&self) -> Result<XiangqiState, String> {
        let position = Position::from_fen(self.fen.as_deref().unwrap_or(START_FEN)).map_err(|e| e.to_string())?;
        let game = XiangqiState::new(position);
        match game.end() {
            Some(end) => Err(format!(
                "fen: the game is already over in this position ({})",
                end.reason
            )),
            None => Ok(game),
        }
    }
}

/// A match's move: `{"uci": "h3e3"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UciMove {
    pub uci: Move,
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    fen: String,
    moves: Vec<String>,
    check: bool,
    /// `"red"` or `"black"` (at the end, who would move).
    to_move: &'static str,
    human_plays: &'static str,
}

fn side_of(seat: Seat) -> Side {
    if seat == Side::Red.index() {
        Side::Red
    } else {
        Side::Black
    }
}

impl TurnGame for XiangqiMatch {
    const ID: &'static str = "xiangqi";
    type Game = XiangqiState;
    type Options = Options;
    /// The start position's FEN.
    type Rules = String;
    type Move = UciMove;
    type Position = NoPosition;
    /// Nodes make a move repeatable at full strength; the time bounds it
    /// on a slow machine.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 300_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<String, String> {
        Ok(options.start()?.start_fen())
    }

    fn options(fen: &String) -> Options {
        Options { fen: Some(fen.clone()) }
    }

    fn opening(fen: &String) -> Result<XiangqiState, MatchError> {
        Self::options(fen).start().map_err(MatchError::Options)
    }

    fn new_game(fen: &String, ctx: &AiContext) -> Result<XiangqiState, MatchError> {
        require_engine(&analyzer(ctx.solvers).0)?;
        Self::opening(fen)
    }

    fn state_json(game: &XiangqiState, human: Seat) -> Value {
        json!(State {
            fen: game.fen(),
            moves: game.moves().iter().map(|mv| mv.notation()).collect(),
            check: game.is_check(),
            to_move: side_name(game.side_to_move()),
            human_plays: side_name(side_of(human)),
        })
    }

    fn game_move(game: &XiangqiState, mv: &UciMove) -> Result<Move, MatchError> {
        game.position()
            .parse_move(&mv.uci.notation())
            .map_err(|reason| MatchError::IllegalMove(format!("{} {reason}", mv.uci)))
    }

    fn api_move(_game: &XiangqiState, mv: Move) -> UciMove {
        UciMove { uci: mv }
    }

    fn ai_turn(
        game: &XiangqiState,
        ai: &AiSpec,
        ctx: &AiContext,
        _rng: &mut dyn RngCore,
    ) -> Result<Vec<Move>, MatchError> {
        let budget = ctx.limits.budget_for::<XiangqiMatch>();
        let notation = choose_move(&analyzer(ctx.solvers).0, game, ai.level, budget)?;
        let mv = game
            .position()
            .parse_move(&notation)
            .map_err(|e| MatchError::Internal(format!("the engine's move {notation}: {e}")))?;
        Ok(vec![mv])
    }

    const END_REASONS: &'static [EndReason] = &[
        EndReason::named("checkmate"),
        EndReason::named("stalemate"),
        EndReason::named("repetition"),
        EndReason::named("perpetual_check"),
        EndReason::named("move_limit"),
    ];

    fn end_reason(game: &XiangqiState, _outcome: GameOutcome) -> EndReason {
        EndReason::named(game.end().map_or(XiangqiEnd::Checkmate, |end| end.reason).as_str())
    }
}

/// `best`, `level:N` (Fairy-Stockfish through the match AI) and `random`.
/// A run's searches are capped lower than a match's move: series play
/// many games.
impl ArenaGame for XiangqiMatch {
    const ARENA_NODES: Option<u64> = Some(50_000);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Game;

    #[test]
    fn moves_are_read_by_the_rules_and_the_state_names_the_sides() {
        let game = Options::default().start().unwrap();
        let mv: UciMove = serde_json::from_value(json!({"uci": "h3e3"})).unwrap();
        let played = XiangqiMatch::game_move(&game, &mv).unwrap();
        assert!(game.legal_moves().contains(&played));
        let bad: UciMove = serde_json::from_value(json!({"uci": "h3h9"})).unwrap();
        assert!(matches!(
            XiangqiMatch::game_move(&game, &bad),
            Err(MatchError::IllegalMove(_))
        ));
        let state = XiangqiMatch::state_json(&game, 1);
        assert_eq!(state["human_plays"], "black");
        assert_eq!(state["to_move"], "red");
        assert_eq!(state["fen"], START_FEN);
    }
}
