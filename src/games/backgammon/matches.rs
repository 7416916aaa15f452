//! Backgammon matches. Options `{match_length}`: 0 (the default) plays one
//! money game with the cube; N plays games until a side has N points,
//! with the Crawford rule. The server throws the dice (a history entry
//! `{"actor": "dice", "roll": 31}`: the two dice as one number; the
//! opening roll's first digit is the first player's die, the higher die
//! starting). Moves: `{"roll": true}` (roll rather than double, offered
//! only when the player may double), `{"double": true}`, `{"take":
//! true}`, `{"pass": true}`, and `{"play": [{from, to}, ...]}` in the
//! mover's numbering (`"bar"` and `"off"` as points; the history adds the
//! `dice` played). State: the board from the person's view, the dice,
//! the cube, the pips, who acts and on what, the match score.
//!
//! The AI is GNU Backgammon at the level's depth and noise
//! ([`strength_of`]), for its plays and its cube decisions; exact races
//! are played from kibitz's own bear-off table.

use std::cell::RefCell;

use rand::RngCore;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value};

use super::answer::engine;
use super::api::{BoardJson, PointName, Situation};
use super::bearoff::exact_plays;
use super::board::{Board, Dice, Side};
use super::game::{BackgammonMove, BackgammonState, GameEnd, Phase};
use super::gnubg::{CubeAction, CubeResponse, GnubgError, Strength};
use super::plays::{find_play, legal_plays, Play, BAR, OFF};
use super::rules::{CubeOwner, MAX_MATCH_LENGTH};
use crate::arena::games::ArenaGame;
use crate::arena::players::by_chance;
use crate::core::game::{Game, GameOutcome, Seat};
use crate::engines::blocking::block_on;
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, Scores};
use crate::matches::turns::{Candidate, Choice, TurnGame};
use crate::solve::solvers::Solvers;

pub(crate) struct BackgammonMatch;

/// Backgammon's options, as matches and the catalog read them.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Points to win the match; 0: one money game.
    #[serde(default)]
    pub match_length: u32,
}

/// A point as a move names it: 1..24, `"bar"` (from), `"off"` (to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointIn(u8);

impl<'de> Deserialize<'de> for PointIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(u8),
            Name(String),
        }
        match Written::deserialize(deserializer)? {
            Written::Number(p @ 1..=24) => Ok(PointIn(p)),
            Written::Name(name) if name == "bar" => Ok(PointIn(BAR)),
            Written::Name(name) if name == "off" => Ok(PointIn(OFF)),
            _ => Err(serde::de::Error::custom("a point is 1 to 24, \"bar\" or \"off\"")),
        }
    }
}

impl Serialize for PointIn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PointName(self.0).serialize(serializer)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepIn {
    pub from: PointIn,
    pub to: PointIn,
}

/// A match's move: exactly one of its fields (`dice` goes with a play,
/// as the history writes it, and is checked when sent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchMove {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Vec<StepIn>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
}

/// gnubg's depth and noise at each level, 1..=10: levels 1-7 at 0-ply
/// with noise falling from 0.3 to none (gnubg's own "beginner" is 0.06,
/// "intermediate" 0.015, "advanced" 0-ply without noise), 8 at 1-ply,
/// 9 and 10 at 2-ply (gnubg's "expert"); a move's budget may lower the
/// depth (see [`super::gnubg::plies_for_budget`]).
pub fn strength_of(level: u8) -> Strength {
    const NOISE: [f64; 7] = [0.3, 0.2, 0.12, 0.06, 0.04, 0.015, 0.0];
    match level {
        0..=7 => Strength {
            plies: Some(0),
            noise: NOISE[usize::from(level.clamp(1, 7)) - 1],
        },
        8 => Strength {
            plies: Some(1),
            noise: 0.0,
        },
        _ => Strength {
            plies: Some(2),
            noise: 0.0,
        },
    }
}

fn side_name(me: bool) -> &'static str {
    if me {
        "me"
    } else {
        "opponent"
    }
}

/// The steps of the legal play of `dice` that leads to `result`. A
/// match's `legal_moves` asks this once per play of the same roll, so the
/// roll's plays are kept for the next call on the same thread instead of
/// being listed again each time.
fn steps_of(board: &Board, dice: Dice, result: &Board) -> Vec<StepIn> {
    thread_local! {
        static LAST_ROLL: RefCell<Option<(Board, Dice, Vec<Play>)>> = const { RefCell::new(None) };
    }
    LAST_ROLL.with_borrow_mut(|last| {
        if !last.as_ref().is_some_and(|(b, d, _)| b == board && *d == dice) {
            *last = Some((*board, dice, legal_plays(board, dice)));
        }
        last.as_ref()
            .and_then(|(_, _, plays)| plays.iter().find(|p| &p.result == result))
            .map(|p| {
                p.steps
                    .iter()
                    .map(|s| StepIn {
                        from: PointIn(s.from),
                        to: PointIn(s.to),
                    })
                    .collect()
            })
            .unwrap_or_default()
    })
}

fn illegal(what: impl Into<String>) -> MatchError {
    MatchError::IllegalMove(what.into())
}

/// The situation of `seat`, for gnubg.
pub(crate) fn situation_of(game: &BackgammonState, seat: Seat) -> Situation {
    Situation {
        board: game.board_of(seat),
        cube: game.cube_of(seat),
        match_state: game.match_state_of(seat),
        jacoby: false,
        beavers: false,
    }
}

fn engine_error(error: GnubgError) -> MatchError {
    match error {
        GnubgError::Invalid(detail) => MatchError::Internal(format!("gnubg refused the position: {detail}")),
        GnubgError::Engine(e) => MatchError::Unavailable {
            retry_after_secs: e.retry_after_secs(),
            detail: e.to_string(),
        },
    }
}

fn no_runtime() -> MatchError {
    MatchError::Internal("no async runtime for gnubg".to_string())
}

impl TurnGame for BackgammonMatch {
    const ID: &'static str = "backgammon";
    type Game = BackgammonState;
    type Options = Options;
    /// The match length.
    type Rules = u32;
    type Move = MatchMove;
    /// A match to N points can be long: the record keeps the state.
    type Position = BackgammonState;
    const KEEPS_SCORE: bool = true;

    fn rules(options: Options, _solvers: &Solvers) -> Result<u32, String> {
        if options.match_length > MAX_MATCH_LENGTH {
            return Err(format!(
                "match_length: {} is more than {MAX_MATCH_LENGTH} (0: a money game)",
                options.match_length
            ));
        }
        Ok(options.match_length)
    }

    fn options(length: &u32) -> Options {
        Options { match_length: *length }
    }

    fn opening(length: &u32) -> Result<BackgammonState, MatchError> {
        Ok(BackgammonState::new(*length))
    }

    fn position(game: &BackgammonState) -> Option<BackgammonState> {
        Some(*game)
    }

    fn at_position(length: &u32, position: BackgammonState) -> Result<BackgammonState, MatchError> {
        position.check().map_err(MatchError::Corrupt)?;
        if position.length() != *length {
            return Err(MatchError::Corrupt(
                "the state's match length is not the options'".to_string(),
            ));
        }
        Ok(position)
    }

    fn new_game(length: &u32, ctx: &AiContext) -> Result<BackgammonState, MatchError> {
        if let Some(reason) = engine(ctx.solvers).0.unavailable_reason() {
            return Err(MatchError::Unavailable {
                detail: reason.to_string(),
                retry_after_secs: None,
            });
        }
        Self::opening(length)
    }

    fn state_json(game: &BackgammonState, human: Seat) -> Value {
        let board = game.board_of(human);
        let acting = game.result().is_none().then(|| game.seat_to_act());
        let awaiting = match game.phase() {
            Phase::CubeOrRoll => Some("cube_or_roll"),
            Phase::Moving(_) => Some("play"),
            Phase::Responding => Some("cube_response"),
            Phase::Opening | Phase::Rolling | Phase::Over => None,
        };
        let dice = match game.phase() {
            Phase::Moving(dice) => Some(dice.values()),
            _ => None,
        };
        let cube = game.cube_of(human);
        let owner = match cube.owner {
            CubeOwner::Me => "me",
            CubeOwner::Opponent => "opponent",
            CubeOwner::Centre => "centre",
        };
        let score = game.score();
        json!({
            "board": BoardJson::of(&board),
            "position": game.board_of(acting.unwrap_or(human)).position_id(),
            "dice": dice,
            "cube": {"value": cube.value, "owner": owner},
            "pips": {"me": board.pips(Side::Me), "opponent": board.pips(Side::Opponent)},
            "to_move": acting.map(|seat| side_name(seat == human)),
            "awaiting": awaiting,
            "match": (game.length() > 0).then(|| json!({
                "length": game.length(),
                "score": {"me": score[human], "opponent": score[1 - human]},
                "crawford": game.is_crawford(),
            })),
            "score": {"me": score[human], "opponent": score[1 - human]},
            "games_played": game.games(),
            "last_game": game.last_game().map(|g| json!({
                "winner": side_name(g.winner == human),
                "points": g.points,
                "how": g.how,
            })),
        })
    }

    fn game_move(game: &BackgammonState, mv: &MatchMove) -> Result<BackgammonMove, MatchError> {
        let chosen = match mv {
            MatchMove { roll: Some(true), .. } => BackgammonMove::RollOn,
            MatchMove { double: Some(true), .. } => BackgammonMove::Double,
            MatchMove { take: Some(true), .. } => BackgammonMove::Take,
            MatchMove { pass: Some(true), .. } => BackgammonMove::Pass,
            MatchMove {
                play: Some(steps),
                dice,
                ..
            } => {
                let Phase::Moving(rolled) = game.phase() else {
                    return Err(illegal("no checker play is due: the dice have not been thrown"));
                };
                if dice.is_some_and(|d| {
                    let mut d = d;
                    d.sort_unstable();
                    let mut r = rolled.values();
                    r.sort_unstable();
                    d != r
                }) {
                    return Err(illegal(format!("the dice thrown are {:?}", rolled.values())));
                }
                let steps: Vec<(u8, u8)> = steps.iter().map(|s| (s.from.0, s.to.0)).collect();
                let board = game.board_of(game.seat_to_act());
                let play = find_play(&board, rolled, &steps)
                    .ok_or_else(|| illegal(format!("{steps:?} is not a legal play of {:?}", rolled.values())))?;
                BackgammonMove::Play(play.result)
            }
            _ => return Err(illegal("a move is one of roll, double, take, pass (each true) or play")),
        };
        if game.legal_moves().contains(&chosen) {
            Ok(chosen)
        } else {
            Err(illegal(format!("{chosen:?} is not allowed now ({:?})", game.phase())))
        }
    }

    fn api_move(game: &BackgammonState, mv: BackgammonMove) -> MatchMove {
        let yes = Some(true);
        match mv {
            BackgammonMove::RollOn => MatchMove {
                roll: yes,
                ..MatchMove::default()
            },
            BackgammonMove::Double => MatchMove {
                double: yes,
                ..MatchMove::default()
            },
            BackgammonMove::Take => MatchMove {
                take: yes,
                ..MatchMove::default()
            },
            BackgammonMove::Pass => MatchMove {
                pass: yes,
                ..MatchMove::default()
            },
            BackgammonMove::Roll(a, b) => MatchMove {
                dice: Some([a, b]),
                ..MatchMove::default()
            },
            BackgammonMove::Play(result) => {
                let Phase::Moving(dice) = game.phase() else {
                    return MatchMove::default();
                };
                let board = game.board_of(game.seat_to_act());
                MatchMove {
                    play: Some(steps_of(&board, dice, &result)),
                    dice: Some(dice.values()),
                    ..MatchMove::default()
                }
            }
        }
    }

    fn ai_turn(
        game: &BackgammonState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<BackgammonMove>, MatchError> {
        let legal = game.legal_moves();
        if let [only] = legal.as_slice() {
            return Ok(vec![*only]);
        }
        let seat = game.seat_to_act();
        let strength = strength_of(ai.level);
        let limits = ctx.limits.search_for::<BackgammonMatch>();
        let pool = &engine(ctx.solvers).0;
        let chosen = match game.phase() {
            Phase::Moving(dice) => {
                let board = game.board_of(seat);
                if let Some(exact) = exact_plays(&board, dice) {
                    return Ok(vec![exact_choice(&exact, ai, rng)]);
                }
                let situation = situation_of(game, seat).for_gnubg();
                let analysis = block_on(pool.moves(&situation, dice.values(), &strength, &limits))
                    .ok_or_else(no_runtime)?
                    .map_err(engine_error)?;
                let best = analysis
                    .plays
                    .first()
                    .map(|p| p.position_after.clone())
                    .unwrap_or_default();
                legal_plays(&board, dice)
                    .into_iter()
                    .find(|p| p.result.flipped().position_id() == best)
                    .map(|p| BackgammonMove::Play(p.result))
                    .ok_or_else(|| MatchError::Internal(format!("gnubg's play to {best} is not a legal one")))?
            }
            Phase::CubeOrRoll => {
                let decision = block_on(pool.cube(&situation_of(game, seat).for_gnubg(), &strength, &limits))
                    .ok_or_else(no_runtime)?
                    .map_err(engine_error)?;
                match decision.action {
                    CubeAction::Double | CubeAction::Redouble if decision.available => BackgammonMove::Double,
                    _ => BackgammonMove::RollOn,
                }
            }
            Phase::Responding => {
                let doubler = situation_of(game, 1 - seat).for_gnubg();
                let decision = block_on(pool.cube(&doubler, &strength, &limits))
                    .ok_or_else(no_runtime)?
                    .map_err(engine_error)?;
                match decision.response {
                    Some(CubeResponse::Pass) => BackgammonMove::Pass,
                    _ => BackgammonMove::Take,
                }
            }
            Phase::Opening | Phase::Rolling | Phase::Over => {
                return Err(MatchError::Internal(
                    "the AI asked to move on a chance turn".to_string(),
                ))
            }
        };
        Ok(vec![chosen])
    }

    const END_REASONS: &'static [EndReason] = &[
        EndReason::named("borne_off"),
        EndReason::named("gammon"),
        EndReason::named("backgammon"),
        EndReason::named("double_passed"),
    ];

    fn end_reason(game: &BackgammonState, _outcome: GameOutcome) -> EndReason {
        match game.last_game().map(|g| g.how) {
            Some(GameEnd::Gammon) => EndReason::named("gammon"),
            Some(GameEnd::Backgammon) => EndReason::named("backgammon"),
            Some(GameEnd::Passed) => EndReason::named("double_passed"),
            Some(GameEnd::Single) | None => EndReason::named("borne_off"),
        }
    }

    fn scores(game: &BackgammonState, human: Seat) -> Option<Scores> {
        let score = game.score();
        Some(Scores {
            human: i64::from(score[human]),
            ai: i64::from(score[1 - human]),
        })
    }

    /// The game's chance outcomes drawn with their probabilities (36
    /// equal throws, the opening's 30); the face is both dice as one
    /// number.
    fn roll(game: &BackgammonState, rng: &mut dyn RngCore) -> Option<(BackgammonMove, u32)> {
        match by_chance(game, rng)? {
            mv @ BackgammonMove::Roll(a, b) => Some((mv, u32::from(a) * 10 + u32::from(b))),
            _ => None,
        }
    }

    fn face_outcome(_game: &BackgammonState, face: u32) -> Option<BackgammonMove> {
        let (a, b) = (u8::try_from(face / 10).ok()?, u8::try_from(face % 10).ok()?);
        ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some(BackgammonMove::Roll(a, b))
    }
}

/// The AI's play from the exact table: the best at level 10, else the
/// levels' draw over the plays' exact chances.
fn exact_choice(plays: &[super::bearoff::ExactPlay], ai: &AiSpec, rng: &mut dyn RngCore) -> BackgammonMove {
    let candidates: Vec<Candidate<BackgammonMove>> = plays
        .iter()
        .map(|p| Candidate {
            mv: BackgammonMove::Play(p.play.result),
            value: p.race.win,
        })
        .collect();
    let best = candidates
        .first()
        .map_or(BackgammonMove::Play(Board::start()), |c| c.mv);
    Choice { best, candidates }.pick(ai, rng)
}

/// `best`, `level:N` (gnubg through the match AI) and `random`.
impl ArenaGame for BackgammonMatch {}
