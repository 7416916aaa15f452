//! Pig reviews. A record is the list of decisions, `{actor, action, roll}`:
//! `"a"` moves first, `roll` is the face that came up after a roll (none
//! after a hold), and a 1 ends the turn as the rules say.
//!
//! Every value is exact: the mover's win probability from the solved
//! table, for the best action (`value_before`) and the action taken
//! (`value_played`), each followed by optimal play; `loss` is their
//! difference.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::core::game::Seat;
use crate::core::problem::Problem;
use crate::games::pig::solve::PigTable;
use crate::games::pig::{roll_outcome, Action, PigRules, RollOutcome};
use crate::matches::Actor;
use crate::review::history::{corrupt, parse, seat_of};
use crate::review::{check_seat, first_player_value, judge, Entry, Extras, Review, ReviewError, Step, TOLERANCE};
use crate::store::StoredMatch;

/// Far beyond any real turn; keeps the arithmetic clear of overflow.
const MAX_TURN_TOTAL: u32 = 1_000_000_000;

/// A decision as the stateless record gives it.
#[derive(Clone, Debug, Deserialize)]
pub struct RecordMove {
    pub actor: String,
    pub action: String,
    #[serde(default)]
    pub roll: Option<i64>,
}

/// A decision and, after a roll, the face.
#[derive(Clone, Debug, Deserialize)]
pub struct Decision {
    pub action: String,
    pub roll: Option<i64>,
}

/// The stateless record's steps: actors `"a"` and `"b"`.
pub fn steps(moves: Vec<RecordMove>) -> Result<Vec<Step<Decision>>, ReviewError> {
    moves
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            let seat = match m.actor.as_str() {
                "a" => 0,
                "b" => 1,
                other => {
                    let shown: String = other.chars().take(20).collect();
                    return Err(ReviewError::at(
                        i,
                        format!("actor must be \"a\" or \"b\" (got {shown:?})"),
                    ));
                }
            };
            Ok(Step {
                ply: i as u64 + 1,
                seat: Some(seat),
                mv: Decision {
                    action: m.action,
                    roll: m.roll,
                },
            })
        })
        .collect()
}

/// A decision as replayed: the mover's score, the opponent's, the turn
/// total, who moved and what.
#[derive(Clone, Copy, Debug)]
struct Moment {
    mine: u32,
    theirs: u32,
    turn_total: u32,
    seat: Seat,
    action: Action,
    /// The face that came up after a roll.
    face: Option<u32>,
}

fn replay(rules: &PigRules, steps: &[Step<Decision>], names: [&str; 2]) -> Result<Vec<Moment>, ReviewError> {
    let goal = rules.goal();
    let mut scores = [0u32; 2];
    let mut seat: Seat = 0;
    let mut turn_total = 0u32;
    let mut winner: Option<Seat> = None;
    let mut out = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        if let Some(w) = winner {
            return Err(ReviewError::at(
                i,
                format!("the game is already over: {:?} reached the goal of {goal}", names[w]),
            ));
        }
        check_seat(i, step.seat, seat, names)?;
        let action = match step.mv.action.as_str() {
            "roll" => Action::Roll,
            "hold" => Action::Hold,
            other => {
                let shown: String = other.chars().take(20).collect();
                return Err(ReviewError::at(
                    i,
                    format!("action must be \"roll\" or \"hold\" (got {shown:?})"),
                ));
            }
        };
        let mut moment = Moment {
            mine: scores[seat],
            theirs: scores[1 - seat],
            turn_total,
            seat,
            action,
            face: None,
        };
        let banked = match action {
            Action::Hold => {
                if step.mv.roll.is_some() {
                    return Err(ReviewError::at(i, "a hold has no roll; give roll only with \"roll\""));
                }
                Some(rules.banked_on_hold(turn_total))
            }
            Action::Roll => {
                let sides = rules.die_sides();
                let face = step
                    .mv
                    .roll
                    .and_then(|r| u32::try_from(r).ok())
                    .filter(|f| (1..=sides).contains(f))
                    .ok_or_else(|| {
                        ReviewError::at(
                            i,
                            format!(
                                "a roll needs the face that came up: roll must be an integer from 1 to {sides} (got {})",
                                step.mv.roll.map_or("none".to_string(), |r| r.to_string())
                            ),
                        )
                    })?;
                moment.face = Some(face);
                if turn_total > MAX_TURN_TOTAL {
                    return Err(ReviewError::at(i, format!("the turn total has reached {turn_total}")));
                }
                match roll_outcome(rules, turn_total, face) {
                    RollOutcome::Continue { turn_total: t } => {
                        turn_total = t;
                        None
                    }
                    RollOutcome::TurnOver { banked } => Some(banked),
                }
            }
        };
        out.push(moment);
        if let Some(banked) = banked {
            scores[seat] += banked;
            if scores[seat] >= goal {
                winner = Some(seat);
            } else {
                seat = 1 - seat;
                turn_total = 0;
            }
        }
    }
    Ok(out)
}

/// Checks the record against the rules, before the table is fetched.
pub fn validate(rules: &PigRules, steps: &[Step<Decision>], names: [&str; 2]) -> Result<(), ReviewError> {
    replay(rules, steps, names).map(|_| ())
}

fn action_json(action: Action) -> Value {
    json!({"action": action.as_str()})
}

/// The move as played: a roll with its face.
fn played_json(m: &Moment) -> Value {
    match m.face {
        Some(face) => json!({"action": m.action.as_str(), "roll": face}),
        None => action_json(m.action),
    }
}

/// Reviews a record (validated or not) with the table of its rules.
pub fn review(table: &PigTable, steps: &[Step<Decision>], names: [&str; 2]) -> Result<Review, ReviewError> {
    let moments = replay(table.rules(), steps, names)?;
    let entries = moments
        .iter()
        .zip(steps)
        .map(|(m, step)| {
            let (roll, hold) = table.action_values(m.mine, m.theirs, m.turn_total);
            let best = roll.max(hold);
            let played = match m.action {
                Action::Roll => roll,
                Action::Hold => hold,
            };
            let raw = best - played;
            let loss = if raw <= TOLERANCE { 0.0 } else { raw };
            let mut best_moves = Vec::new();
            if hold >= best - TOLERANCE {
                best_moves.push(action_json(Action::Hold));
            }
            if roll >= best - TOLERANCE {
                best_moves.push(action_json(Action::Roll));
            }
            Entry {
                ply: step.ply,
                actor: names[m.seat].to_string(),
                mv: played_json(m),
                best_moves,
                value_before: json!(best),
                value_played: json!(played),
                loss,
                judgment: judge(loss, loss == 0.0),
                exact: true,
                value: first_player_value(m.seat, played),
                extras: Extras::new(),
            }
        })
        .collect();
    Ok(Review::new("pig", names, entries))
}

/// Pig's decisions, each roll with the face the dice entry after it shows.
pub fn stored_steps(stored: &StoredMatch, names: [&str; 2]) -> Result<Vec<Step<Decision>>, Problem> {
    #[derive(Deserialize)]
    struct PigMove {
        action: String,
    }
    let mut steps = Vec::new();
    let mut events = stored.history.iter();
    while let Some(event) = events.next() {
        let entry = &event.entry;
        let mv: PigMove = parse(entry.mv.as_ref().unwrap_or(&Value::Null), "move")?;
        let roll = if mv.action == "roll" {
            let dice = events.next().ok_or_else(|| corrupt("a roll without its dice entry"))?;
            let face = dice.entry.roll.filter(|_| dice.entry.actor == Actor::Dice);
            Some(i64::from(
                face.ok_or_else(|| corrupt("a roll not followed by the dice"))?,
            ))
        } else {
            None
        };
        steps.push(Step {
            ply: entry.ply,
            seat: Some(seat_of(entry.actor, names)?),
            mv: Decision {
                action: mv.action,
                roll,
            },
        });
    }
    Ok(steps)
}
