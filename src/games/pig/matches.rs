//! Pig matches. The person says roll or hold; the server rolls. The AI's
//! turn is its own sequence of decisions and rolls. State:
//! `{"scores": {"human", "ai"}, "turn_total", "last_roll"}`, where
//! `turn_total` is the person's (in progress it is always their turn).

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::tables::shared_tables;
use crate::core::game::{Game, GameOutcome, Seat};
use crate::games::pig::solve::PigTable;
use crate::games::pig::{Action, Options, PigMove, PigRules, PigState, MAX_TURN_TOTAL};

use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, Scores};
use crate::matches::turns::{Candidate, Choice, TurnGame};
use crate::solve::solvers::Solvers;

/// Win probabilities differ little between sensible choices, so for the
/// levels they count this many times over: a decision that costs 5% of the
/// game is a clear mistake.
const PIG_VALUE_SCALE: f64 = 20.0;

pub(crate) struct PigMatch;

/// A move: roll or hold.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionMove {
    pub action: Action,
}

/// A match's `state` object: the person's turn total (in progress it is
/// always their turn).
#[derive(Serialize)]
struct State {
    scores: StateScores,
    turn_total: u32,
    last_roll: Option<u32>,
}

#[derive(Serialize, Deserialize)]
struct StateScores {
    human: u32,
    ai: u32,
}

/// What a match's record keeps: a person may hold at 0 for ever, so the
/// scores and the turn, not the moves that led to them.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct KeptScores {
    scores: [u32; 2],
    turn_total: u32,
    to_move: Seat,
    last_roll: Option<u32>,
}

/// Rolling and holding on the levels' scale, in that order (the arena
/// plays and evaluates `level:N` with the same values).
pub(crate) fn level_values(table: &PigTable, i: u32, j: u32, k: u32) -> [f64; 2] {
    let (roll, hold) = table.action_values(i, j, k);
    [roll * PIG_VALUE_SCALE, hold * PIG_VALUE_SCALE]
}

impl TurnGame for PigMatch {
    const ID: &'static str = "pig";
    type Game = PigState;
    type Options = Options;
    type Rules = PigRules;
    type Move = ActionMove;
    type Position = KeptScores;
    const KEEPS_SCORE: bool = true;

    fn rules(options: Options, solvers: &Solvers) -> Result<PigRules, String> {
        options
            .rules(shared_tables(solvers).max_goal())
            .map_err(|e| e.to_string())
    }

    fn options(rules: &PigRules) -> Options {
        Options::of(rules)
    }

    fn position(game: &PigState) -> Option<KeptScores> {
        Some(KeptScores {
            scores: [game.score(0), game.score(1)],
            turn_total: game.turn_total(),
            to_move: game.to_move(),
            last_roll: game.last_roll(),
        })
    }

    /// Kept only between turns of the person's decisions (no die in the
    /// air), so the scores, the turn total and the seat are the position.
    fn at_position(rules: &PigRules, kept: KeptScores) -> Result<PigState, MatchError> {
        let goal = rules.goal();
        let in_play = kept.scores.iter().all(|&s| s < goal) && kept.turn_total <= MAX_TURN_TOTAL && kept.to_move < 2;
        if !in_play {
            return Err(MatchError::Corrupt(format!(
                "scores {:?}, turn total {} and seat {} do not fit a game to {goal} in progress",
                kept.scores, kept.turn_total, kept.to_move
            )));
        }
        Ok(PigState::resume(
            *rules,
            kept.scores,
            kept.turn_total,
            kept.to_move,
            kept.last_roll,
        ))
    }

    fn opening(rules: &PigRules) -> Result<PigState, MatchError> {
        Ok(PigState::new(*rules))
    }

    fn state_json(game: &PigState, human: Seat) -> Value {
        json!(State {
            scores: StateScores {
                human: game.score(human),
                ai: game.score(1 - human),
            },
            turn_total: game.turn_total(),
            last_roll: game.last_roll(),
        })
    }

    fn game_move(game: &PigState, mv: &ActionMove) -> Result<PigMove, MatchError> {
        let action = match mv.action {
            Action::Roll => PigMove::Roll,
            Action::Hold => PigMove::Hold,
        };
        if !game.legal_moves().contains(&action) {
            return Err(MatchError::IllegalMove(format!(
                "the turn total has reached {}; hold",
                game.turn_total()
            )));
        }
        Ok(action)
    }

    fn api_move(_: &PigState, mv: PigMove) -> ActionMove {
        let action = match mv {
            PigMove::Roll => Action::Roll,
            PigMove::Hold => Action::Hold,
            // Faces go to the history as rolls, never as moves.
            PigMove::Face(_) => Action::Roll,
        };
        ActionMove { action }
    }

    /// The exact table's action; below the best level also both actions'
    /// values. Far past the goal (only a long run of rolls past a winning
    /// hold gets there) the AI holds.
    fn ai_turn(
        game: &PigState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<PigMove>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("goal_reached")];

    fn end_reason(_: &PigState, _: GameOutcome) -> EndReason {
        EndReason::named("goal_reached")
    }

    fn scores(game: &PigState, human: Seat) -> Option<Scores> {
        Some(Scores {
            human: game.score(human).into(),
            ai: game.score(1 - human).into(),
        })
    }

    fn roll(game: &PigState, rng: &mut dyn RngCore) -> Option<(PigMove, u32)> {
        let face = rng.gen_range(1..=game.rules().die_sides());
        Some((PigMove::Face(face), face))
    }

    fn face_outcome(_game: &PigState, face: u32) -> Option<PigMove> {
        Some(PigMove::Face(face))
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &PigState, ai: &AiSpec, ctx: &AiContext) -> Result<Choice<PigMove>, MatchError> {
    let rules = game.rules();
    let table = shared_tables(ctx.solvers).get_blocking(*rules);
    let mover = game.to_move();
    let (i, j, k) = (game.score(mover), game.score(1 - mover), game.turn_total());
    if k > rules.goal() + rules.die_sides() {
        return Ok(Choice {
            best: PigMove::Hold,
            candidates: Vec::new(),
        });
    }
    let best = match table.action(i, j, k) {
        Action::Roll => PigMove::Roll,
        Action::Hold => PigMove::Hold,
    };
    let candidates = if ai.is_best() {
        Vec::new()
    } else {
        let [roll, hold] = level_values(&table, i, j, k);
        vec![
            Candidate {
                mv: PigMove::Roll,
                value: roll,
            },
            Candidate {
                mv: PigMove::Hold,
                value: hold,
            },
        ]
    };
    Ok(Choice { best, candidates })
}
