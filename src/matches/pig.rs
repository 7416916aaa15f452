//! Pig matches. The person says roll or hold; the server rolls. The AI's
//! turn is its own sequence of decisions and rolls. State:
//! `{"scores": {"human", "ai"}, "turn_total", "last_roll"}`, where
//! `turn_total` is the person's (in progress it is always their turn).

use rand::{Rng, RngCore};
use serde_json::{json, Value};

use crate::games::pig::{roll_outcome, Action, PigRules, RollOutcome, Variant, MAX_DIE_SIDES};
use crate::solve::pig::PigTable;

use super::engine::{corrupt, AiContext, AiSpec, EndReason, Log, MatchError, MatchGame, MatchResult, Progress};
use super::json::{field_error, Obj};
use super::levels;

/// Win probabilities differ little between sensible choices, so for the
/// levels they count this many times over: a decision that costs 5% of the
/// game is a clear mistake.
const PIG_VALUE_SCALE: f64 = 20.0;

/// Far beyond any real turn; keeps the arithmetic clear of overflow.
const MAX_TURN_TOTAL: u32 = 1_000_000_000;

pub(crate) struct PigMatch;

#[derive(Clone, Copy, Debug)]
struct Scores {
    human: u32,
    ai: u32,
    /// The person's turn total.
    turn_total: u32,
    last_roll: Option<u32>,
}

fn state_json(s: &Scores) -> Value {
    json!({
        "scores": {"human": s.human, "ai": s.ai},
        "turn_total": s.turn_total,
        "last_roll": s.last_roll,
    })
}

fn parse_state(rules: &PigRules, state: &Value) -> Result<Scores, MatchError> {
    let obj = Obj::new(Some(state), "state", false)?;
    let scores = Obj::new(Some(obj.required("scores")?), "state.scores", false)?;
    let number = |o: &Obj, key: &str| -> Result<u32, MatchError> {
        let v = o.int(key)?.unwrap_or(-1);
        u32::try_from(v).map_err(|_| field_error(&o.path(key), "must be an integer >= 0", &json!(v)))
    };
    let human = number(&scores, "human")?;
    let ai = number(&scores, "ai")?;
    let turn_total = number(&obj, "turn_total")?;
    let last_roll = obj.int("last_roll")?.map(|r| u32::try_from(r).unwrap_or(0));
    let goal = rules.goal();
    // In progress: nobody has won yet. (A person may roll on past a winning
    // hold, so the turn total has no bound but arithmetic's.)
    if human >= goal || ai >= goal || turn_total > MAX_TURN_TOTAL {
        return Err(MatchError::Corrupt(format!(
            "state: scores {human}/{ai} and turn total {turn_total} do not fit a game to {goal} in progress"
        )));
    }
    Ok(Scores {
        human,
        ai,
        turn_total,
        last_roll,
    })
}

fn roll(rules: &PigRules, rng: &mut dyn RngCore) -> u32 {
    rng.gen_range(1..=rules.die_sides())
}

fn finished(s: &Scores) -> Progress {
    Progress {
        state: state_json(s),
        legal_moves: Vec::new(),
        result: Some(MatchResult::from_scores(
            s.human.into(),
            s.ai.into(),
            EndReason::GoalReached,
        )),
    }
}

/// Past this turn total a roll is refused (the arithmetic's bound, never
/// reached in a real game).
fn may_roll(s: &Scores) -> bool {
    s.turn_total < MAX_TURN_TOTAL - MAX_DIE_SIDES
}

fn waiting(s: &Scores) -> Progress {
    let actions = if may_roll(s) {
        &[Action::Roll, Action::Hold][..]
    } else {
        &[Action::Hold][..]
    };
    Progress {
        state: state_json(s),
        legal_moves: actions.iter().map(|a| json!({"action": a.as_str()})).collect(),
        result: None,
    }
}

/// Rolling and holding on the levels' scale, in that order (the arena
/// plays and evaluates `level:N` with the same values).
pub(crate) fn level_values(table: &PigTable, i: u32, j: u32, k: u32) -> [f64; 2] {
    let (roll, hold) = table.action_values(i, j, k);
    [roll * PIG_VALUE_SCALE, hold * PIG_VALUE_SCALE]
}

/// The AI's whole turn. Returns true when it won.
fn ai_turn(
    rules: &PigRules,
    s: &mut Scores,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> bool {
    let table = ctx.pig_tables.get_blocking(*rules);
    let goal = rules.goal();
    let mut k = 0u32;
    loop {
        let (i, j) = (s.ai, s.human);
        let action = if k > goal + rules.die_sides() {
            // Only a long run of rolls past a winning hold gets here.
            Action::Hold
        } else if ai.is_best() {
            table.action(i, j, k)
        } else {
            match levels::choose(&level_values(&table, i, j, k), ai.level, rng) {
                Some(0) => Action::Roll,
                _ => Action::Hold,
            }
        };
        log.ai(json!({"action": action.as_str()}));
        match action {
            Action::Hold => {
                s.ai += rules.banked_on_hold(k);
                return s.ai >= goal;
            }
            Action::Roll => {
                let face = roll(rules, rng);
                log.dice(face);
                s.last_roll = Some(face);
                match roll_outcome(rules, k, face) {
                    RollOutcome::Continue { turn_total } => k = turn_total,
                    RollOutcome::TurnOver { banked } => {
                        s.ai += banked;
                        return s.ai >= goal;
                    }
                }
            }
        }
    }
}

/// After the person's turn ended without a win: the AI's turn.
fn hand_over(
    rules: &PigRules,
    mut s: Scores,
    ai: &AiSpec,
    ctx: &AiContext,
    rng: &mut dyn RngCore,
    log: &mut Log,
) -> Progress {
    s.turn_total = 0;
    if ai_turn(rules, &mut s, ai, ctx, rng, log) {
        finished(&s)
    } else {
        waiting(&s)
    }
}

impl MatchGame for PigMatch {
    type Options = PigRules;

    fn parse_options(raw: Option<&Value>, ctx: &AiContext) -> Result<PigRules, MatchError> {
        let obj = Obj::new(raw, "options", true)?;
        obj.only(&["goal", "die_sides", "variant"])?;
        let goal = obj.int("goal")?.unwrap_or(100);
        let die_sides = obj.int("die_sides")?.unwrap_or(6);
        let variant: Variant = obj
            .str("variant")?
            .unwrap_or("standard")
            .parse()
            .map_err(|e| MatchError::Options(format!("{e}")))?;
        PigRules::new(goal, die_sides, variant, ctx.limits.pig_max_goal).map_err(|e| MatchError::Options(e.to_string()))
    }

    fn options_json(rules: &PigRules) -> Value {
        json!({
            "goal": rules.goal(),
            "die_sides": rules.die_sides(),
            "variant": rules.variant().as_str(),
        })
    }

    fn start(
        rules: &PigRules,
        ai: &AiSpec,
        ai_first: bool,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let s = Scores {
            human: 0,
            ai: 0,
            turn_total: 0,
            last_roll: None,
        };
        Ok(if ai_first {
            hand_over(rules, s, ai, ctx, rng, log)
        } else {
            waiting(&s)
        })
    }

    fn play(
        rules: &PigRules,
        state: &Value,
        mv: &Value,
        ai: &AiSpec,
        ctx: &AiContext,
        rng: &mut dyn RngCore,
        log: &mut Log,
    ) -> Result<Progress, MatchError> {
        let mut s = parse_state(rules, state).map_err(corrupt)?;
        let obj = Obj::new(Some(mv), "move", false)?;
        obj.only(&["action"])?;
        let action = match obj.required("action")? {
            Value::String(a) if a == "roll" => Action::Roll,
            Value::String(a) if a == "hold" => Action::Hold,
            other => return Err(field_error("move.action", "must be \"roll\" or \"hold\"", other)),
        };
        if action == Action::Roll && !may_roll(&s) {
            return Err(MatchError::IllegalMove(format!(
                "the turn total has reached {}; hold",
                s.turn_total
            )));
        }
        log.human(json!({"action": action.as_str()}));
        match action {
            Action::Hold => {
                s.human += rules.banked_on_hold(s.turn_total);
                if s.human >= rules.goal() {
                    s.turn_total = 0;
                    return Ok(finished(&s));
                }
                Ok(hand_over(rules, s, ai, ctx, rng, log))
            }
            Action::Roll => {
                let face = roll(rules, rng);
                log.dice(face);
                s.last_roll = Some(face);
                match roll_outcome(rules, s.turn_total, face) {
                    RollOutcome::Continue { turn_total } => {
                        s.turn_total = turn_total;
                        Ok(waiting(&s))
                    }
                    RollOutcome::TurnOver { banked } => {
                        s.human += banked;
                        if s.human >= rules.goal() {
                            s.turn_total = 0;
                            return Ok(finished(&s));
                        }
                        Ok(hand_over(rules, s, ai, ctx, rng, log))
                    }
                }
            }
        }
    }
}
