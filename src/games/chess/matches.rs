//! Chess matches. Options `{fen}` (default the standard start): the person
//! plays the side to move there unless the AI goes first. State `{"fen",
//! "moves" (UCI from the start), "check", "to_move", "human_plays"}`; move
//! `{"uci": "e2e4"}` (castling as the king's two squares, a promotion with
//! its letter: `e7e8q`). The game ends as the rules say: checkmate,
//! stalemate, insufficient material, and the fifty-move rule and threefold
//! repetition at once (lichess's way, no claim needed), so every match
//! and every arena game ends.
//!
//! The AI is Stockfish at the level's strength (see [`super::levels`]),
//! asked through the engine pool from the match engine's blocking thread
//! (see [`super::blocking`]) within the match's move budget.

use std::sync::Arc;
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::blocking;
use super::rules::{color_name, parse_fen, ChessMove, ChessState, Color, EndReason as ChessEnd, START_FEN};
use super::search::{ChessAnalyzer, ChessError};
use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::engines::{EngineConfig, EnginePool};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::turns::{NoPosition, TurnGame};
use crate::solve::limits::SearchLimits;
use crate::solve::solvers::Solvers;

pub(crate) struct ChessMatch;

/// Chess's options, as matches, reviews and the catalog read them.
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
    /// The start position as a game, or what is wrong with the FEN (the
    /// field named as `/chess/move` names it). A position where the game
    /// is already over is refused: there would be nothing to play.
    pub fn start(&self) -> Result<ChessState, String> {
        let position = parse_fen(self.fen.as_deref().unwrap_or(START_FEN)).map_err(|e| e.to_string())?;
        let game = ChessState::new(position);
        match game.end() {
            Some(reason) => Err(format!("fen: the game is already over in this position ({reason})")),
            None => Ok(game),
        }
    }
}

/// A match's `state` object.
#[derive(Serialize)]
struct State {
    fen: String,
    /// UCI, from the options' start position.
    moves: Vec<String>,
    /// Whether the side to move is in check.
    check: bool,
    /// `"white"` or `"black"` (at the end, who would move).
    to_move: String,
    human_plays: String,
}

/// The server's analyzer: made from its settings before it answers (see
/// `ChessGame::prepare`); a set of solvers without it (a unit test's)
/// gets one on the default settings.
pub(crate) fn analyzer(solvers: &Solvers) -> Arc<ChessAnalyzer> {
    solvers.of_with(|| ChessAnalyzer::new(EnginePool::new(EngineConfig::stockfish()), 0))
}

/// An engine failure as the match engine reports it: the client's input
/// cannot be the cause here (the position came from the rules), so the
/// engine's errors are 503s and anything else a broken promise.
fn engine_error(error: ChessError) -> MatchError {
    match error {
        ChessError::Engine(_) => {
            tracing::warn!(%error, "the chess AI's search failed");
            MatchError::Unavailable {
                detail: error.client_detail(),
                retry_after_secs: error.retry_after_secs(),
            }
        }
        other => MatchError::Internal(other.to_string()),
    }
}

/// The AI's move at `level` within `budget` (its clock started once an
/// engine process is up: Stockfish's start is not the move's time).
fn engine_move(
    analyzer: &ChessAnalyzer,
    game: &ChessState,
    level: u8,
    budget: MoveBudget,
) -> Result<ChessMove, MatchError> {
    blocking::block_on(async {
        analyzer.pool().start_one_if_cold().await;
        let limits = SearchLimits::within(budget.time).with_max_nodes(budget.nodes);
        analyzer.choose_move(game, level, None, &limits).await
    })
    .ok_or_else(|| MatchError::Internal("no async runtime for the chess engine".to_string()))?
    .map_err(engine_error)
}

fn color_of(game: &ChessState, seat: Seat) -> Color {
    if game.seat_of(Color::White) == seat {
        Color::White
    } else {
        Color::Black
    }
}

impl TurnGame for ChessMatch {
    const ID: &'static str = "chess";
    type Game = ChessState;
    type Options = Options;
    /// The start position's FEN, as the rules write it.
    type Rules = String;
    type Move = ChessMove;
    type Position = NoPosition;
    /// Stockfish's nodes make a move repeatable at full strength; the time
    /// bounds it on a slow machine. 300 000 nodes is still far above any
    /// human (a fraction of a second at Stockfish's speed).
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

    fn opening(fen: &String) -> Result<ChessState, MatchError> {
        Options { fen: Some(fen.clone()) }.start().map_err(MatchError::Options)
    }

    /// Refused at once (503, saying how to install it) where Stockfish is
    /// not installed: the AI could not answer the person's first move.
    fn new_game(fen: &String, ctx: &AiContext) -> Result<ChessState, MatchError> {
        let analyzer = analyzer(ctx.solvers);
        if let Some(reason) = analyzer.pool().unavailable_reason() {
            return Err(MatchError::Unavailable {
                detail: reason.to_string(),
                retry_after_secs: None,
            });
        }
        Self::opening(fen)
    }

    fn state_json(game: &ChessState, human: Seat) -> Value {
        json!(State {
            fen: game.fen(),
            moves: game.moves().iter().map(|mv| mv.uci()).collect(),
            check: game.is_check(),
            to_move: game.player().to_string(),
            human_plays: color_name(color_of(game, human)).to_string(),
        })
    }

    /// The move as the rules record it (castling given as `e1h1` is
    /// `e1g1`), so that it compares equal to the legal moves.
    fn game_move(game: &ChessState, mv: &ChessMove) -> Result<ChessMove, MatchError> {
        let mut after = game.clone();
        let played = after
            .try_play(*mv)
            .map_err(|reason| MatchError::IllegalMove(format!("{mv} {reason}")))?;
        ChessMove::parse(&played.uci).ok_or_else(|| MatchError::Internal(format!("the rules wrote {:?}", played.uci)))
    }

    fn api_move(_game: &ChessState, mv: ChessMove) -> ChessMove {
        mv
    }

    fn ai_turn(
        game: &ChessState,
        ai: &AiSpec,
        ctx: &AiContext,
        _rng: &mut dyn RngCore,
    ) -> Result<Vec<ChessMove>, MatchError> {
        let budget = ctx.limits.budget_for::<ChessMatch>();
        Ok(vec![engine_move(&analyzer(ctx.solvers), game, ai.level, budget)?])
    }

    const END_REASONS: &'static [EndReason] = &[
        EndReason::named("checkmate"),
        EndReason::named("stalemate"),
        EndReason::named("insufficient_material"),
        EndReason::named("fifty_moves"),
        EndReason::named("threefold_repetition"),
    ];

    fn end_reason(game: &ChessState, _outcome: GameOutcome) -> EndReason {
        EndReason::named(game.end().unwrap_or(ChessEnd::Checkmate).as_str())
    }
}

/// `best`, `level:N` (Stockfish through the match AI) and `random`; no
/// player of its own. A run's searches are capped lower than a match's
/// move: series play many games.
impl ArenaGame for ChessMatch {
    const ARENA_NODES: Option<u64> = Some(50_000);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Game;

    fn options(fen: &str) -> Options {
        Options {
            fen: Some(fen.to_string()),
        }
    }

    #[test]
    fn a_bad_or_finished_start_is_refused_naming_the_fen() {
        let bad = options("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").start();
        assert!(bad.is_err_and(|e| e.starts_with("fen: ")));
        let stalemate = options("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").start();
        assert!(stalemate.is_err_and(|e| e.contains("stalemate")), "a finished start");
        assert_eq!(
            Options::default().start().map(|g| g.fen()).ok().as_deref(),
            Some(START_FEN)
        );
    }

    #[test]
    fn moves_are_read_as_the_rules_record_them_and_illegal_ones_refused() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let game = options(castle).start().unwrap();
        let as_rook = ChessMove::parse("e1h1").unwrap();
        let mv = ChessMatch::game_move(&game, &as_rook).unwrap();
        assert_eq!(mv.uci(), "e1g1");
        assert!(game.legal_moves().contains(&mv));
        let err = ChessMatch::game_move(&game, &ChessMove::parse("e1e3").unwrap()).unwrap_err();
        assert!(
            matches!(&err, MatchError::IllegalMove(m) if m.starts_with("e1e3 ")),
            "{err}"
        );
    }

    #[test]
    fn the_state_shows_the_moves_the_seat_and_the_side_to_move() {
        let mut game = ChessState::default();
        for uci in ["e2e4", "e7e5", "g1f3"] {
            game.play_uci(uci).unwrap();
        }
        let state = ChessMatch::state_json(&game, 1);
        assert_eq!(state["human_plays"], "black");
        assert_eq!(state["to_move"], "black");
        assert_eq!(state["check"], false);
        assert_eq!(state["moves"], json!(["e2e4", "e7e5", "g1f3"]));
        assert_eq!(state["fen"], game.fen());
    }

    #[test]
    fn every_ending_has_its_reason() {
        let ending = |fen: &str, uci: &str| {
            let mut game = ChessState::new(parse_fen(fen).unwrap());
            game.play_uci(uci).unwrap();
            let outcome = game.result().unwrap();
            ChessMatch::end_reason(&game, outcome)
        };
        let mate_or_stalemate = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
        assert_eq!(ending(mate_or_stalemate, "f1f8"), EndReason::named("checkmate"));
        assert_eq!(ending(mate_or_stalemate, "f1f7"), EndReason::named("stalemate"));
        assert_eq!(
            ending("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2"),
            EndReason::named("insufficient_material")
        );
        assert_eq!(
            ending("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2"),
            EndReason::named("fifty_moves")
        );
        // The knights out and back twice: the start position a third time.
        let mut game = ChessState::default();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            game.play_uci(uci).unwrap();
        }
        assert_eq!(game.result(), None, "twice is not yet a draw");
        game.play_uci("f6g8").unwrap();
        let outcome = game.result().unwrap();
        assert_eq!(outcome, GameOutcome::Draw);
        assert_eq!(
            ChessMatch::end_reason(&game, outcome),
            EndReason::named("threefold_repetition")
        );
        assert!(game.legal_moves().is_empty(), "no move after the end");
    }
}
