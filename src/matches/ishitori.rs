//! Ishitori (subtraction game) matches. State: `{"remaining": n}` for one
//! heap, `{"heaps": [..]}` for several. Move: `{"take", "heap"}` (`heap`
//! defaults to 0).

use rand::RngCore;
use serde_json::{json, Value};

use crate::games::ishitori::{Game, Heaps, Move, Outcome, Setup, TakeSet, DEFAULT_MATCH_REMAINING};
use crate::solve::limits::SearchLimits;

use super::engine::{corrupt, AiContext, AiSpec, EndReason, Log, MatchError, MatchGame, MatchResult, Progress, Winner};
use super::json::{field_error, u64_value, Obj};
use super::levels;

/// A winning move far from the end is a subtler choice than one near it:
/// each further round of moves (the largest take) halves less of the gap.
const DISTANCE_DISCOUNT: f64 = 0.85;
/// Below the best level every legal move is judged by solving the position
/// it leads to. Several heaps under misère play are solved by a table of up
/// to (heap + 1)^heaps positions per call; beyond this much work in all the
/// AI plays its best move instead.
const MAX_LEVEL_WORK: u64 = 1 << 22;

pub(crate) struct IshitoriMatch;

#[derive(Clone, Debug)]
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
    SearchLimits::within(ctx.limits.ishitori_time)
}

/// Reads `remaining` or `heaps` from an object (options or state).
fn read_heaps(obj: &Obj) -> Result<(Option<u64>, Option<Vec<u64>>), MatchError> {
    let remaining = obj
        .get("remaining")
        .map(|v| u64_value(v, &obj.path("remaining"), true))
        .transpose()?;
    let heaps = obj
        .array("heaps")?
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(i, v)| u64_value(v, &format!("{}[{i}]", obj.path("heaps")), true))
                .collect::<Result<Vec<u64>, MatchError>>()
        })
        .transpose()?;
    Ok((remaining, heaps))
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

fn move_json(mv: Move) -> Value {
    json!({"take": mv.take, "heap": mv.heap})
}

/// The value of leaving `child` to the opponent, on the levels' scale.
fn child_value(child: &Game, ctx: &AiContext, largest_take: u64) -> f64 {
    let opponent = if child.is_over() {
        child.final_outcome_for_mover()
    } else {
        ctx.ishitori
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

pub(crate) fn ai_move(game: &Game, ai: &AiSpec, ctx: &AiContext, rng: &mut dyn RngCore) -> Result<Move, MatchError> {
    let best = ctx
        .ishitori
        .best_move(game, &limits(ctx))
        .map_err(|e| MatchError::Internal(e.to_string()))?
        .chosen_move();
    if ai.is_best() || level_work(game) > MAX_LEVEL_WORK {
        return Ok(best);
    }
    let moves = game.legal_moves();
    let largest = game.take_set().largest();
    let values: Vec<f64> = moves
        .iter()
        .map(|&mv| {
            game.apply(mv)
                .map_or(f64::NEG_INFINITY, |child| child_value(&child, ctx, largest))
        })
        .collect();
    Ok(levels::choose(&values, ai.level, rng)
        .and_then(|i| moves.get(i).copied())
        .unwrap_or(best))
}

/// The game is over and `mover` would be to move: who won.
fn result_for(game: &Game, mover_is_human: bool) -> MatchResult {
    let mover_wins = game.final_outcome_for_mover() == Some(Outcome::Win);
    let winner = if mover_wins == mover_is_human {
        Winner::Human
    } else {
        Winner::Ai
    };
    MatchResult::new(winner, EndReason::NoMove)
}

/// The position after a request: the person to move, or the result.
fn progress(game: &Game, result: Option<MatchResult>) -> Progress {
    Progress {
        state: heaps_json(game.heaps()),
        legal_moves: game.legal_moves().into_iter().map(move_json).collect(),
        result,
    }
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

fn ai_turn(
    game: &Game,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Result<Progress, MatchError> {
    let mv = ai_move(game, ai, ctx, rng)?;
    let next = game
        .apply(mv)
        .map_err(|e| MatchError::Internal(format!("the solver chose an illegal move: {e}")))?;
    log.ai(move_json(mv));
    let result = next.is_over().then(|| result_for(&next, true));
    Ok(progress(&next, result))
}

impl MatchGame for IshitoriMatch {
    type Options = Rules;

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
                    .map(|(i, v)| u64_value(v, &format!("options.take[{i}]"), false))
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

    fn start(
        rules: &Rules,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let game = game_with(rules, rules.start.clone())?;
        game.ensure_not_over().map_err(|e| MatchError::Options(e.to_string()))?;
        // Refuse take sets and positions beyond the solver's bounds now,
        // rather than at the AI's first move.
        ctx.ishitori
            .best_move(&game, &limits(ctx))
            .map_err(|e| MatchError::Options(e.to_string()))?;
        if ai_first {
            ai_turn(&game, ai, ctx, rng, log)
        } else {
            Ok(progress(&game, None))
        }
    }

    fn play(
        rules: &Rules,
        state: &Value,
        mv: &Value,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let game = parse_state(rules, state).map_err(corrupt)?;
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["take", "heap"])?;
        let take = u64_value(obj.required("take")?, "move.take", false)?;
        let heap = match obj.get("heap") {
            None => 0,
            Some(v) => usize::try_from(u64_value(v, "move.heap", false)?)
                .map_err(|_| field_error("move.heap", "must be a heap index", v))?,
        };
        let mv = Move { heap, take };
        let next = game.apply(mv).map_err(|e| MatchError::IllegalMove(e.to_string()))?;
        log.human(move_json(mv));
        if next.is_over() {
            return Ok(progress(&next, Some(result_for(&next, false))));
        }
        ai_turn(&next, ai, ctx, rng, log)
    }
}
