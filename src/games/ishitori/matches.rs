//! Ishitori (subtraction game) matches. State: `{"remaining": n}` for one
//! heap, `{"heaps": [..]}` for several. Move: `{"take", "heap"}` (`heap`
//! defaults to 0).

use rand::RngCore;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::solve::SubtractionSolver;
use super::{
    Game, HeapSize, HeapSizeError, Heaps, IshitoriState, Move, Outcome, Setup, TakeSet, DEFAULT_MATCH_REMAINING,
    DEFAULT_MISERE, DEFAULT_TAKE,
};
use crate::core::game::{GameOutcome, Seat};
use crate::solve::limits::SearchLimits;

use crate::arena::games::ArenaGame;
use crate::matches::engine::{AiContext, AiSpec, EndReason, MatchError};
use crate::matches::turns::{Candidate, Choice, TurnGame};
use crate::solve::solvers::Solvers;

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
#[derive(Clone, serde::Serialize, serde::Deserialize)]
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

/// Ishitori's options, as matches, reviews and the catalog read them: one
/// heap (`remaining`) or several (`heaps`), the amounts a move may take,
/// and whether the last taker loses.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<HeapSize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heaps: Option<Vec<HeapSize>>,
    pub take: Option<Vec<u64>>,
    pub misere: Option<bool>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            remaining: Some(HeapSize::Whole(DEFAULT_MATCH_REMAINING)),
            heaps: None,
            take: Some(DEFAULT_TAKE.to_vec()),
            misere: Some(DEFAULT_MISERE),
        }
    }
}

impl Options {
    /// The starting position, or what is wrong with the options.
    pub fn game(&self) -> Result<Game, String> {
        let mut remaining = self
            .remaining
            .as_ref()
            .map(|h| h.value("remaining"))
            .transpose()
            .map_err(|e| e.to_string())?;
        let heaps = self
            .heaps
            .as_ref()
            .map(|list| {
                list.iter()
                    .enumerate()
                    .map(|(i, h)| h.value(&format!("heaps[{i}]")))
                    .collect::<Result<Vec<u64>, HeapSizeError>>()
            })
            .transpose()
            .map_err(|e| e.to_string())?;
        if remaining.is_none() && heaps.is_none() {
            remaining = Some(DEFAULT_MATCH_REMAINING);
        }
        let setup = Setup {
            remaining,
            heaps,
            take: self.take.clone(),
            misere: self.misere,
        };
        Game::try_from(setup).map_err(|e| e.to_string())
    }
}

/// A move: stones to take, from a heap (default the first, 0).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeMove {
    pub take: u64,
    #[serde(default)]
    pub heap: Option<u64>,
}

impl TakeMove {
    /// The move, if it is legal in `game`.
    pub fn legal_in(&self, game: &Game) -> Result<Move, String> {
        let heap = usize::try_from(self.heap.unwrap_or(0)).unwrap_or(usize::MAX);
        let mv = Move { heap, take: self.take };
        game.apply(mv).map(|_| mv).map_err(|e| e.to_string())
    }
}

/// A match's `state` object: the heaps.
#[derive(Serialize)]
struct State {
    #[serde(skip_serializing_if = "Option::is_none")]
    remaining: Option<HeapSize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    heaps: Option<Vec<HeapSize>>,
}

impl State {
    fn of(heaps: &Heaps) -> State {
        match heaps {
            Heaps::One(n) => State {
                remaining: Some(HeapSize::Whole(*n)),
                heaps: None,
            },
            Heaps::Several(list) => State {
                remaining: None,
                heaps: Some(list.iter().map(|&n| HeapSize::Whole(n)).collect()),
            },
        }
    }
}

fn limits(ctx: &AiContext) -> SearchLimits {
    ctx.limits.search_for::<IshitoriMatch>()
}

fn game_with(rules: &Rules, heaps: Heaps) -> Result<Game, MatchError> {
    Game::new(rules.take.clone(), rules.misere, heaps).map_err(|e| MatchError::Options(e.to_string()))
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
    const ID: &'static str = "ishitori";
    type Game = IshitoriState;
    type Options = Options;
    type Rules = Rules;
    type Move = TakeMove;
    type Position = KeptHeaps;

    /// Heaps beyond 2^53 lose digits in JavaScript's numbers: each heap
    /// count is also shown as a decimal string.
    fn shown(stored: &Value) -> Cow<'_, Value> {
        Cow::Owned(with_decimal_twins(stored))
    }

    fn rules(options: Options, _solvers: &Solvers) -> Result<Rules, String> {
        let game = options.game()?;
        Ok(Rules {
            take: game.take_set().clone(),
            misere: game.is_misere(),
            start: game.heaps().clone(),
        })
    }

    fn options(rules: &Rules) -> Options {
        let State { remaining, heaps } = State::of(&rules.start);
        Options {
            remaining,
            heaps,
            take: Some(rules.take.amounts().to_vec()),
            misere: Some(rules.misere),
        }
    }

    /// Refuses starting heaps that are already over, and take sets and
    /// positions beyond the solver's bounds, once, at the start (not on
    /// every move, when the stored options are read again).
    fn new_game(rules: &Rules, ctx: &AiContext) -> Result<IshitoriState, MatchError> {
        let game = rules.new_game()?;
        game.ensure_not_over().map_err(|e| MatchError::Options(e.to_string()))?;
        ctx.solvers
            .of::<SubtractionSolver>()
            .best_move(&game, &limits(ctx))
            .map_err(|e| MatchError::Options(e.to_string()))?;
        Ok(IshitoriState::new(game, 0))
    }

    fn opening(rules: &Rules) -> Result<IshitoriState, MatchError> {
        Ok(IshitoriState::new(rules.new_game()?, 0))
    }

    fn position(game: &IshitoriState) -> Option<KeptHeaps> {
        Some(KeptHeaps {
            heaps: game.position().heaps().clone(),
            mover: game.mover(),
        })
    }

    fn at_position(rules: &Rules, kept: KeptHeaps) -> Result<IshitoriState, MatchError> {
        if kept.mover > 1 {
            return Err(MatchError::Corrupt(format!("no seat {}", kept.mover)));
        }
        Ok(IshitoriState::new(game_with(rules, kept.heaps)?, kept.mover))
    }

    /// The heaps; who is who needs no saying, since a stored match always
    /// waits for the person.
    fn state_json(game: &IshitoriState, _human: Seat) -> Value {
        json!(State::of(game.position().heaps()))
    }

    fn game_move(game: &IshitoriState, mv: &TakeMove) -> Result<Move, MatchError> {
        mv.legal_in(game.position()).map_err(MatchError::IllegalMove)
    }

    fn api_move(_: &IshitoriState, mv: Move) -> TakeMove {
        TakeMove {
            take: mv.take,
            heap: u64::try_from(mv.heap).ok(),
        }
    }

    /// The solver's move; below the best level also every move's value, by
    /// solving the position it leads to (unless that is too much work).
    fn ai_turn(
        game: &IshitoriState,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Move>, MatchError> {
        Ok(vec![ai_choice(game, ai, ctx)?.pick(ai, rng)])
    }

    const END_REASONS: &'static [EndReason] = &[EndReason::named("no_move")];

    fn end_reason(_: &IshitoriState, _: GameOutcome) -> EndReason {
        EndReason::named("no_move")
    }
}

/// How the AI sees the position: its best move and each move's value.
fn ai_choice(game: &IshitoriState, ai: &AiSpec, ctx: &AiContext) -> Result<Choice<Move>, MatchError> {
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
    use crate::games::ishitori::HEAP_SIZE_EXPECTED;
    use crate::matches::read;

    fn options_error(value: Value) -> String {
        let options: Options = read::required(&value, "options").unwrap();
        options.game().unwrap_err()
    }

    #[test]
    fn heap_sizes_are_read_as_the_rules_read_them() {
        let max = json!({"remaining": "18446744073709551615", "take": [1]});
        let options: Options = read::required(&max, "options").unwrap();
        assert_eq!(options.game().unwrap().heap_sizes(), &[u64::MAX]);
        let several = json!({"heaps": [1, "2"]});
        let options: Options = read::required(&several, "options").unwrap();
        assert_eq!(options.game().unwrap().heap_sizes(), &[1, 2]);
        assert_eq!(
            options_error(json!({"heaps": [1, "2", -3]})),
            format!("heaps[2] {HEAP_SIZE_EXPECTED} (got -3)")
        );
        assert_eq!(
            options_error(json!({"remaining": "12x"})),
            format!("remaining {HEAP_SIZE_EXPECTED} (got \"12x\")")
        );
        assert_eq!(
            options_error(json!({"remaining": true})),
            format!("remaining {HEAP_SIZE_EXPECTED} (got true)")
        );
    }
}
