//! Ishitori (subtraction game) matches. State: `{"remaining": n}` for one
//! heap, `{"heaps": [..]}` for several. Move: `{"take", "heap"}` (`heap`
//! defaults to 0).

use rand::RngCore;
use std::borrow::Cow;

use serde::Deserialize;
use serde_json::{json, Value};

use super::solve::SubtractionSolver;
use super::{
    Game, HeapSize, Heaps, Ishitori, Move, Outcome, Setup, TakeSet, DEFAULT_MATCH_REMAINING, HEAP_SIZE_EXPECTED,
};
use crate::core::game::{GameOutcome, Seat};
use crate::solve::limits::SearchLimits;

use crate::arena::games::ArenaGame;
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError, Winner};
use crate::matches::json::{field_error, u64_value, Obj};
use crate::matches::turns::{Candidate, Choice, TurnGame};
use crate::matches::GameKind;

/// A winning move far from the end is a subtler choice than one near it:
/// each further round of moves (the largest take) halves less of the gap.
const DISTANCE_DISCOUNT: f64 = 0.85;
/// Below the best level every legal move is judged by solving the position
/// it leads to. Several heaps under misère play are solved by a table of up
/// to (heap + 1)^heaps positions per call; beyond this much work in all the
/// AI plays its best move instead.
const MAX_LEVEL_WORK: u64 = 1 << 22;

pub(crate) struct IshitoriMatch;

/// What a match's record keeps: a person may take one stone at a time from
/// a heap of 2^64-1, so the heaps, not the moves that led to them.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct KeptHeaps {
    heaps: Heaps,
    mover: Seat,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Rules {
    take: TakeSet,
    misere: bool,
    start: Heaps,
}

impl Rules {
    /// The starting heaps (the arena starts every game from them).
    pub(crate) fn new_game(&self) -> Result<Game, MatchError> {
        game_with(self, self.start.clone())
    }
}

fn heaps_json(heaps: &Heaps) -> Value {
    match heaps {
        Heaps::One(n) => json!({"remaining": n}),
        Heaps::Several(list) => json!({"heaps": list}),
    }
}

fn limits(ctx: &AiContext) -> SearchLimits {
    ctx.limits.search(GameKind::Ishitori)
}

/// Reads `remaining` or `heaps` from an object (options or state).
fn read_heaps(obj: &Obj) -> Result<(Option<u64>, Option<Vec<u64>>), MatchError> {
    let remaining = obj
        .get("remaining")
        .map(|v| heap_size(v, &obj.path("remaining")))
        .transpose()?;
    let heaps = obj
        .array("heaps")?
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(i, v)| heap_size(v, &format!("{}[{i}]", obj.path("heaps"))))
                .collect::<Result<Vec<u64>, MatchError>>()
        })
        .transpose()?;
    Ok((remaining, heaps))
}

/// A heap size read as the rules read one, with their message.
fn heap_size(value: &Value, field: &str) -> Result<u64, MatchError> {
    let size = HeapSize::deserialize(value).map_err(|_| field_error(field, HEAP_SIZE_EXPECTED, value))?;
    size.value(field).map_err(|e| MatchError::Field {
        expected: e.expected(),
        field: e.field,
    })
}

fn game_with(rules: &Rules, heaps: Heaps) -> Result<Game, MatchError> {
    Game::new(rules.take.clone(), rules.misere, heaps).map_err(|e| MatchError::Options(e.to_string()))
}

fn parse_state(rules: &Rules, state: &Value) -> Result<Game, MatchError> {
    let obj = Obj::new(Some(state), "state", false)?;
    let heaps = match (read_heaps(&obj)?, &rules.start) {
        ((Some(n), None), Heaps::One(_)) => Heaps::One(n),
        ((None, Some(list)), Heaps::Several(start)) if list.len() == start.len() => Heaps::Several(list),
        _ => return Err(MatchError::Corrupt("state does not fit the options' heaps".to_string())),
    };
    let game = game_with(rules, heaps)?;
    if game.is_over() {
        return Err(MatchError::Corrupt(
            "state: the game is over but the match is not".to_string(),
        ));
    }
    Ok(game)
}

/// The value of leaving `child` to the opponent, on the levels' scale.
fn child_value(child: &Game, ctx: &AiContext, largest_take: u64) -> f64 {
    let opponent = if child.is_over() {
        child.final_outcome_for_mover()
    } else {
        ctx.solvers
            .of::<SubtractionSolver>()
            .best_move(child, &limits(ctx))
            .ok()
            .and_then(|analysis| analysis.outcome)
    };
    let stones: u64 = child.heap_sizes().iter().fold(0u64, |a, &h| a.saturating_add(h));
    let rounds = (stones / largest_take.max(1)).min(200) as i32;
    let clarity = 0.5 * DISTANCE_DISCOUNT.powi(rounds);
    match opponent {
        Some(Outcome::Loss) => 0.5 + clarity,
        Some(Outcome::Win) => 0.5 - clarity,
        None => 0.5,
    }
}

/// Roughly how many positions judging every move would make the solver
/// visit (only several heaps under misère play cost more than O(1)).
fn level_work(game: &Game) -> u64 {
    let sizes = game.heap_sizes();
    let live = sizes.iter().filter(|&&h| h >= game.take_set().smallest()).count();
    let moves = game.legal_moves().len() as u64;
    if !game.is_misere() || live <= 1 {
        return moves;
    }
    sizes
        .iter()
        .fold(1u64, |a, &h| a.saturating_mul(h.saturating_add(1)))
        .saturating_mul(moves)
}

/// The options or state object as the API shows it: beside `remaining` and
/// `heaps`, their decimal strings (`remaining_decimal`, `heaps_decimal`),
/// since a JavaScript number loses heaps above 2^53.
pub(crate) fn with_decimal_twins(value: &Value) -> Value {
    let mut shown = value.clone();
    if let Value::Object(map) = &mut shown {
        if let Some(n) = map.get("remaining").and_then(Value::as_u64) {
            map.insert("remaining_decimal".to_string(), json!(n.to_string()));
        }
        if let Some(list) = map.get("heaps").and_then(Value::as_array) {
            let decimals: Vec<String> = list.iter().filter_map(Value::as_u64).map(|n| n.to_string()).collect();
            map.insert("heaps_decimal".to_string(), json!(decimals));
        }
    }
    shown
}

impl ArenaGame for IshitoriMatch {
    const BEST_NAME: &'static str = "optimal";
}

impl TurnGame for IshitoriMatch {
    type Game = Ishitori;
    type Options = Rules;
    type Position = KeptHeaps;

    /// Heaps beyond 2^53 lose digits in JavaScript's numbers: each heap
    /// count is also shown as a decimal string.
    fn shown(stored: &Value) -> Cow<'_, Value> {
        Cow::Owned(with_decimal_twins(stored))
    }

    fn parse_options(raw: Option<&Value>, _ctx: &AiContext) -> Result<Rules, MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&["remaining", "heaps", "take", "misere"])?;
        let (mut remaining, heaps) = read_heaps(&obj)?;
        if remaining.is_none() && heaps.is_none() {
            remaining = Some(DEFAULT_MATCH_REMAINING);
        }
        let take = obj
            .array("take")?
            .map(|list| {
                list.iter()
                    .enumerate()
                    .map(|(i, v)| u64_value(v, &format!("options.take[{i}]")))
                    .collect::<Result<Vec<u64>, MatchError>>()
            })
            .transpose()?;
        let setup = Setup {
            remaining,
            heaps,
            take,
            misere: obj.bool("misere")?,
        };
        let game = Game::try_from(setup).map_err(|e| MatchError::Options(e.to_string()))?;
        Ok(Rules {
            take: game.take_set().clone(),
            misere: game.is_misere(),
            start: game.heaps().clone(),
        })
    }

    fn options_json(rules: &Rules) -> Value {
        let mut options = heaps_json(&rules.start);
        if let Value::Object(map) = &mut options {
            map.insert("take".to_string(), json!(rules.take.amounts()));
            map.insert("misere".to_string(), json!(rules.misere));
        }
        options
    }

    /// Refuses starting heaps that are already over, and take sets and
    /// positions beyond the solver's bounds, once, at the start (not on
    /// every move, when the stored options are read again).
    fn new_game(rules: &Rules, ctx: &AiContext) -> Result<Ishitori, MatchError> {
        let game = rules.new_game()?;
        game.ensure_not_over().map_err(|e| MatchError::Options(e.to_string()))?;
        ctx.solvers
            .of::<SubtractionSolver>()
            .best_move(&game, &limits(ctx))
            .map_err(|e| MatchError::Options(e.to_string()))?;
        Ok(Ishitori::new(game, 0))
    }

    fn opening(rules: &Rules) -> Result<Ishitori, MatchError> {
        Ok(Ishitori::new(rules.new_game()?, 0))
    }

    fn position(game: &Ishitori) -> Option<KeptHeaps> {
        Some(KeptHeaps {
            heaps: game.position().heaps().clone(),
            mover: game.mover(),
        })
    }

    fn at_position(rules: &Rules, kept: KeptHeaps) -> Result<Ishitori, MatchError> {
        if kept.mover > 1 {
            return Err(MatchError::Corrupt(format!("no seat {}", kept.mover)));
        }
        Ok(Ishitori::new(game_with(rules, kept.heaps)?, kept.mover))
    }

    /// The heaps; who is who needs no saying, since a stored match always
    /// waits for the person.
    fn state_json(game: &Ishitori, _human: Seat) -> Value {
        heaps_json(game.position().heaps())
    }

    /// The person, to move, takes seat 0 (the rules are the same for both).
    fn parse_state(rules: &Rules, state: &Value) -> Result<(Ishitori, Seat), MatchError> {
        Ok((Ishitori::new(parse_state(rules, state)?, 0), 0))
    }

    fn parse_move(game: &Ishitori, mv: &Value) -> Result<Move, MatchError> {
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["take", "heap"])?;
        let take = u64_value(obj.required("take")?, "move.take")?;
        let heap = match obj.get("heap") {
            None => 0,
            Some(v) => usize::try_from(u64_value(v, "move.heap")?)
                .map_err(|_| field_error("move.heap", "must be a heap index", v))?,
        };
        let mv = Move { heap, take };
        game.position()
            .apply(mv)
            .map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        Ok(mv)
    }

    fn move_json(_: &Ishitori, mv: Move) -> Value {
        json!({"take": mv.take, "heap": mv.heap})
    }

    /// The solver's move; below the best level also every move's value, by
    /// solving the position it leads to (unless that is too much work).
    fn ai_turn(game: &Ishitori, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Result<Vec<Move>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }

    fn end_reason(_: &Ishitori, _: GameOutcome) -> EndReason {
        EndReason::NoMove
    }

    fn unrecorded_end_reason(_: Winner, _: &Value) -> EndReason {
        EndReason::NoMove
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &Ishitori, ai: &AiSpec, ctx: &AiContext) -> Result<Choice<Move>, MatchError> {
    let position = game.position();
    let best = ctx
        .solvers
        .of::<SubtractionSolver>()
        .best_move(position, &limits(ctx))
        .map_err(|e| MatchError::Internal(e.to_string()))?
        .chosen_move();
    if ai.is_best() || level_work(position) > MAX_LEVEL_WORK {
        return Ok(Choice {
            best,
            candidates: Vec::new(),
        });
    }
    let largest = position.take_set().largest();
    let candidates = position
        .legal_moves()
        .into_iter()
        .map(|mv| Candidate {
            mv,
            value: position
                .apply(mv)
                .map_or(f64::NEG_INFINITY, |child| child_value(&child, ctx, largest)),
        })
        .collect();
    Ok(Choice { best, candidates })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heaps_of(value: Value) -> Result<(Option<u64>, Option<Vec<u64>>), MatchError> {
        read_heaps(&Obj::new(Some(&value), "options", false)?)
    }

    #[test]
    fn heap_sizes_are_read_as_the_rules_read_them() {
        let max = json!({"remaining": "18446744073709551615", "heaps": [1, "2"]});
        assert_eq!(heaps_of(max).unwrap(), (Some(u64::MAX), Some(vec![1, 2])));
        let negative = heaps_of(json!({"heaps": [1, "2", -3]})).unwrap_err();
        assert_eq!(
            negative.to_string(),
            format!("options.heaps[2] {HEAP_SIZE_EXPECTED} (got -3)")
        );
        let text = heaps_of(json!({"remaining": "12x"})).unwrap_err();
        assert_eq!(
            text.to_string(),
            format!("options.remaining {HEAP_SIZE_EXPECTED} (got \"12x\")")
        );
        let boolean = heaps_of(json!({"remaining": true})).unwrap_err();
        assert_eq!(
            boolean.to_string(),
            format!("options.remaining {HEAP_SIZE_EXPECTED} (got true)")
        );
    }
}
