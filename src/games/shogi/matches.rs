//! Shogi matches. Options `{sfen}` (default the start): the person plays
//! the side to move there unless the AI goes first. State `{"sfen",
//! "hands" ({"sente": {"P": 1, ...}, "gote": {...}}, the pieces each side
//! holds), "moves" (USI, from the start position), "check", "to_move",
//! "human_plays", "impasse" (what declaring would give, present only when
//! it would win or draw)}`; move `{"usi": "7g7f"}` (a promotion `8h2b+`,
//! a drop `P*5e`) or `{"declare": "impasse"}`. The game ends as the rules
//! say: checkmate, a side with no move, sennichite (perpetual check
//! loses), a declaration of impasse (the 24-point rule).
//!
//! The AI is Fairy-Stockfish at the level's `Skill Level` (see
//! [`crate::engines::skill`]); it declares impasse whenever that wins.

use std::collections::BTreeMap;
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::analyzer;
use super::engine::side_name;
use super::rules::{
    Color, EndReason as ShogiEnd, Kind, Move, Position, ShogiState, ShogiTurn, Verdict, DRAWING_POINTS, PIECES_IN_CAMP,
    START_SFEN,
};
use crate::arena::games::ArenaGame;
use crate::core::game::{GameOutcome, Seat};
use crate::engines::request::{choose_move, require_engine};
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, MoveBudget};
use crate::matches::read::not_null;
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

/// A match's move: `{"usi": "7g7f"}`, or `{"declare": "impasse"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShogiMove {
    #[serde(default, deserialize_with = "not_null", skip_serializing_if = "Option::is_none")]
    pub usi: Option<Move>,
    #[serde(default, deserialize_with = "not_null", skip_serializing_if = "Option::is_none")]
    pub declare: Option<Declare>,
}

/// What a side may declare instead of moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declare {
    Impasse,
}

impl ShogiMove {
    /// The game's turn this move names in `game`, or why it names none
    /// (not one of `usi` and `declare`, an illegal move, a declaration
    /// that would lose).
    pub fn turn(&self, game: &ShogiState) -> Result<ShogiTurn, String> {
        match (self.usi, self.declare) {
            (Some(usi), None) => game
                .position()
                .parse_move(&usi.notation())
                .map(ShogiTurn::Play)
                .map_err(|reason| format!("{usi} {reason}")),
            (None, Some(Declare::Impasse)) if game.impasse_offer().is_some() => Ok(ShogiTurn::DeclareImpasse),
            (None, Some(Declare::Impasse)) => {
                let d = game.position().impasse_declaration();
                Err(format!(
                    "declaring impasse would lose ({}'s king {} the opponent's camp, {} of {PIECES_IN_CAMP} pieces \
                     there, {} points of {DRAWING_POINTS}{})",
                    side_name(d.declarer),
                    if d.king_in_camp { "in" } else { "not in" },
                    d.pieces_in_camp,
                    d.points,
                    if d.in_check { ", in check" } else { "" },
                ))
            }
            _ => Err("a move is either {\"usi\": ...} or {\"declare\": \"impasse\"}".to_string()),
        }
    }

    fn of(turn: ShogiTurn) -> ShogiMove {
        match turn {
            ShogiTurn::Play(mv) => ShogiMove {
                usi: Some(mv),
                declare: None,
            },
            ShogiTurn::DeclareImpasse => ShogiMove {
                usi: None,
                declare: Some(Declare::Impasse),
            },
        }
    }
}

/// What declaring impasse would give the side to move, shown while it
/// would win or draw.
#[derive(Serialize)]
struct ImpasseOffer {
    /// `"win"` or `"draw"`.
    verdict: &'static str,
    points: u32,
}

fn impasse_offer(game: &ShogiState) -> Option<ImpasseOffer> {
    let declaration = game.impasse_offer()?;
    Some(ImpasseOffer {
        verdict: if declaration.verdict == Verdict::Win {
            "win"
        } else {
            "draw"
        },
        points: declaration.points,
    })
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
    #[serde(skip_serializing_if = "Option::is_none")]
    impasse: Option<ImpasseOffer>,
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
    type Move = ShogiMove;
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
            impasse: impasse_offer(game),
        })
    }

    fn game_move(game: &ShogiState, mv: &ShogiMove) -> Result<ShogiTurn, MatchError> {
        mv.turn(game).map_err(MatchError::IllegalMove)
    }

    fn api_move(_game: &ShogiState, turn: ShogiTurn) -> ShogiMove {
        ShogiMove::of(turn)
    }

    fn ai_turn(
        game: &ShogiState,
        ai: &AiSpec,
        ctx: &AiContext,
        _rng: &mut dyn RngCore,
    ) -> Result<Vec<ShogiTurn>, MatchError> {
        if game.position().impasse_declaration().verdict == Verdict::Win {
            return Ok(vec![ShogiTurn::DeclareImpasse]);
        }
        let budget = ctx.limits.budget_for::<ShogiMatch>();
        let notation = choose_move(&analyzer(ctx.solvers).0, game, ai.level, budget)?;
        let mv = game
            .position()
            .parse_move(&notation)
            .map_err(|e| MatchError::Internal(format!("the engine's move {notation}: {e}")))?;
        Ok(vec![ShogiTurn::Play(mv)])
    }

    const END_REASONS: &'static [EndReason] = &[
        EndReason::named("checkmate"),
        EndReason::named("stalemate"),
        EndReason::named("repetition"),
        EndReason::named("perpetual_check"),
        EndReason::named("impasse"),
    ];

    fn end_reason(game: &ShogiState, _outcome: GameOutcome) -> EndReason {
        EndReason::named(game.end().map_or(ShogiEnd::Checkmate, |end| end.reason).as_str())
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
            let mv: ShogiMove = serde_json::from_value(json!({ "usi": usi })).unwrap();
            let played = ShogiMatch::game_move(&game, &mv).unwrap();
            assert!(game.legal_moves().contains(&played));
            game.play(played);
        }
        let bad: ShogiMove = serde_json::from_value(json!({"usi": "P*5e"})).unwrap();
        assert!(matches!(
            ShogiMatch::game_move(&game, &bad),
            Err(MatchError::IllegalMove(_))
        ));
        let state = ShogiMatch::state_json(&game, 0);
        assert_eq!(state["hands"], json!({"sente": {"B": 1}, "gote": {"B": 1}}));
        assert_eq!(state["human_plays"], "sente");
        assert_eq!(state["to_move"], "sente");
        assert_eq!(state["moves"], json!(["7g7f", "3c3d", "8h2b+", "3a2b"]));
        assert!(state.get("impasse").is_none());
    }

    #[test]
    fn impasse_is_declared_where_it_would_not_lose_and_ends_the_game() {
        // Sente's king in gote's camp with thirteen pieces there (see the
        // rules' tests): 24 points with three pawns in hand, 23 with two.
        let camp = "+R+B+P+P+P+P+P+P+P/GGGG5/4K4/9/9/9/9/9/4k4 b";
        let declare: ShogiMove = serde_json::from_value(json!({"declare": "impasse"})).unwrap();
        let losing = Options {
            sfen: Some(format!("{camp} 2P 1")),
        }
        .start()
        .unwrap();
        assert!(ShogiMatch::state_json(&losing, 0).get("impasse").is_none());
        let Err(MatchError::IllegalMove(why)) = ShogiMatch::game_move(&losing, &declare) else {
            panic!("a losing declaration is refused");
        };
        assert!(why.contains("23 points of 24"), "{why}");
        let mut game = Options {
            sfen: Some(format!("{camp} 3P 1")),
        }
        .start()
        .unwrap();
        let state = ShogiMatch::state_json(&game, 0);
        assert_eq!(state["impasse"], json!({"verdict": "draw", "points": 24}));
        let turn = ShogiMatch::game_move(&game, &declare).unwrap();
        assert_eq!(turn, ShogiTurn::DeclareImpasse);
        assert_eq!(
            serde_json::to_value(ShogiMatch::api_move(&game, turn)).unwrap(),
            json!({"declare": "impasse"})
        );
        game.play(turn);
        assert_eq!(game.result(), Some(GameOutcome::Draw));
        assert_eq!(
            ShogiMatch::end_reason(&game, GameOutcome::Draw),
            EndReason::named("impasse")
        );
        assert!(serde_json::from_value::<ShogiMove>(json!({"usi": "5c5b", "declare": null})).is_err());
        for bad in [json!({}), json!({"usi": "5c5b", "declare": "impasse"})] {
            let mv: ShogiMove = serde_json::from_value(bad.clone()).unwrap();
            assert!(
                matches!(ShogiMatch::game_move(&game, &mv), Err(MatchError::IllegalMove(_))),
                "{bad}"
            );
        }
    }
}
