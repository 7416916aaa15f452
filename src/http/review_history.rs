//! Pig's history read as a review's record: its rolls beside the decisions
//! they belong to.

use serde::Deserialize;
use serde_json::Value;

use crate::core::problem::Problem;
use crate::games::pig::review as pig;
use crate::matches::Actor;
use crate::review::history::{corrupt, parse, seat_of};
use crate::review::Step;
use crate::store::StoredMatch;

/// Pig's decisions, each roll with the face the dice entry after it shows.
pub(super) fn pig_steps(stored: &StoredMatch, names: [&str; 2]) -> Result<Vec<Step<pig::Decision>>, Problem> {
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
            mv: pig::Decision {
                action: mv.action,
                roll,
            },
        });
    }
    Ok(steps)
}
