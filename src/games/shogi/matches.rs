//! Shogi matches. Options `{sfen}` (default the start): the person plays
//! the side to move there unless the AI goes first. State `{"sfen",
//! "hands" ({"sente": {"P": 1, ...}, "gote": {...}}, the pieces each side
//! holds), "moves" (USI, from the start position), "check", "to_move",
//! "human_plays"}`; move `{"usi": "7g7f"}` (a promotion `8h2b+`, a drop
//! `P*5e`). The game ends as the rules say: checkmate, a side with no
//! move, sennichite (perpetual check loses).
//!
//! The AI is Fairy-Stockfish at the level's `Skill Level` (see
//! [`crate::engines::skill`]).

use std::collections::BTreeMap;
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::analyzer;
use super::engine::side_name;
use super::rules::{Color, EndReason as ShogiEnd, Kind, Move, Position, ShogiState, START_SFEN};
use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::engines::request::{choose_move, require_engine};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::turns::{NoPosition, TurnGame};
use crate::solve::solvers::Solvers;

pub(crate) struct ShogiMatch;

/// Shogi's options, as matches, reviews and the catalog read them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// The start position; absent or null: the standard start.
    pub sfen: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sfen: Some(START_SFEN.to_string()),
        }
    }
}

impl Options {
    /// The start position as a game, or what is wrong with the SFEN. A
    /// finished position is refused: there would be nothing to play.
    pub fn start(&self) -> Result<ShogiState, String> {
        let position = Position::from_sfen(self.sfen.as_deref().unwrap_or(START_SFEN)).map_err(|e| e.to_string())?;
        let game = ShogiState::new(position);
        match game.end() {
            Some(end) => Err(format!(
                "sfen: the game is already over in this position ({})",
                end.reason
            )),
            None => Ok(game),
        }
    }
}

/// A match's move: `{"usi": "7g7f"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsiMove {
    pub usi: Move,
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    sfen: String,
    /// Each side's pieces in hand by SFEN letter (only those it holds).
    hands: BTreeMap<&'static str, BTreeMap<String, u8>>,
    moves: Vec<String>,
    check: bool,
    /// `"sente"` or `"gote"` (at the end, who would move).
    to_move: &'static str,
    human_plays: &'static str,
}

fn color_of(seat: Seat) -> Color {
    if seat == Color::Sente.index() {
        Color::Sente
    } else {
        Color::Gote
    }
}

/// The pieces `color` holds, by letter.
fn hand_json(position: &Position, color: Color) -> BTreeMap<String, u8> {
    Kind::IN_HAND
        .iter()
        .zip(position.hand(color))
        .filter(|(_, count)| *count > 0)
        .map(|(kind, count)| (kind.letter().to_string(), count))
        .collect()
}

impl TurnGame for ShogiMatch {
    const ID: &'static str = "shogi";
    type Game = ShogiState;
    type Options = Options;
    /// The start position's SFEN.
    type Rules = String;
    type Move = UsiMove;
    type Position = NoPosition;
    /// Nodes make a move repeatable at full strength; the time bounds it
    /// on a slow machine.
    const MOVE_BUDGET: MoveBudget = MoveBudget {
        time: Duration::from_millis(1000),
        nodes: 300_000,
    };

    fn rules(options: Options, _solvers: &Solvers) -> Result<String, String> {
        Ok(options.start()?.start_sfen())
    }

    fn options(sfen: &String) -> Options {
        Options {
            sfen: Some(sfen.clone()),
        }
    }

    fn opening(sfen: &String) -> Result<ShogiState, MatchError> {
        Self::options(sfen).start().map_err(MatchError::Options)
    }

    fn new_game(sfen: &String, ctx: &AiContext) -> Result<ShogiState, MatchError> {
        require_engine(&analyzer(ctx.solvers).0)?;
        Self::opening(sfen)
    }

    fn state_json(game: &ShogiState, human: Seat) -> Value {
        let position = game.position();
        json!(State {
            sfen: game.sfen(),
            hands: [Color::Sente, Color::Gote]
                .into_iter()
                .map(|color| (side_name(color), hand_json(position, color)))
                .collect(),
            moves: game.moves().iter().map(|mv| mv.notation()).collect(),
            check: game.is_check(),
            to_move: side_name(game.side_to_move()),
            human_plays: side_name(color_of(human)),
        })
    }

    fn game_move(game: &ShogiState, mv: &UsiMove) -> Result<Move, MatchError> {
        game.position()
            .parse_move(&mv.usi.notation())
            .map_err(|reason| MatchError::IllegalMove(format!("{} {reason}", mv.usi)))
    }

    fn api_move(_game: &ShogiState, mv: Move) -> UsiMove {
        UsiMove { usi: mv }
    }

    fn ai_turn(
        game: &ShogiState,
        ai: &AiSpec,
        ctx: &AiContext,
        _rng: &mut dyn RngCore,
    ) -> Result<Vec<Move>, MatchError> {
        let budget = ctx.limits.budget_for::<ShogiMatch>();
        let notation = choose_move(&analyzer(ctx.solvers).0, game, ai.level, budget)?;
        let mv = game
            .position()
            .parse_move(&notation)
            .map_err(|e| MatchError::Internal(format!("the engine's move {notation}: {e}")))?;
        Ok(vec![mv])
    }

    fn end_reason(game: &ShogiState, _outcome: GameOutcome) -> EndReason {
        match game.end().map(|end| end.reason) {
            Some(ShogiEnd::Stalemate) => EndReason::Stalemate,
            Some(ShogiEnd::Repetition) => EndReason::Repetition,
            Some(ShogiEnd::PerpetualCheck) => EndReason::PerpetualCheck,
            Some(ShogiEnd::Impasse) => EndReason::Impasse,
            Some(ShogiEnd::Checkmate) | None => EndReason::Checkmate,
        }
    }
}

/// `best`, `level:N` (Fairy-Stockfish through the match AI) and `random`.
impl ArenaGame for ShogiMatch {
    const ARENA_NODES: Option<u64> = Some(50_000);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Game;

    #[test]
    fn moves_are_read_by_the_rules_and_the_state_shows_the_hands() {
        let mut game = Options::default().start().unwrap();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
            let mv: UsiMove = serde_json::from_value(json!({ "usi": usi })).unwrap();
            let played = ShogiMatch::game_move(&game, &mv).unwrap();
            assert!(game.legal_moves().contains(&played));
            game.play(played);
        }
        let bad: UsiMove = serde_json::from_value(json!({"usi": "P*5e"})).unwrap();
        assert!(matches!(
            ShogiMatch::game_move(&game, &bad),
            Err(MatchError::IllegalMove(_))
        ));
        let state = ShogiMatch::state_json(&game, 0);
        assert_eq!(state["hands"], json!({"sente": {"B": 1}, "gote": {"B": 1}}));
        assert_eq!(state["human_plays"], "sente");
        assert_eq!(state["to_move"], "sente");
        assert_eq!(state["moves"], json!(["7g7f", "3c3d", "8h2b+", "3a2b"]));
    }
}
