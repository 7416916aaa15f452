//! A stored match's history read as a review's record: each decision with
//! its side (and Pig's rolls and Nine Square's dice beside the decisions
//! they belong to). A history that does not read so is the server's fault
//! (500): the match engine wrote it.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use crate::matches::Actor;
use crate::review::{nine_square, pig, Step};
use crate::store::StoredMatch;

/// The sides of a match, first player first.
pub(super) fn match_names(stored: &StoredMatch) -> [&'static str; 2] {
    if stored.game.ai_first {
        ["ai", "human"]
    } else {
        ["human", "ai"]
    }
}

fn corrupt(what: impl std::fmt::Display) -> ApiError {
    ApiError::internal(&format!("the stored match does not replay: {what}"))
}

fn seat_of(actor: Actor, names: [&str; 2]) -> Result<usize, ApiError> {
    let name = match actor {
        Actor::Human => "human",
        Actor::Ai => "ai",
        Actor::Dice => return Err(corrupt("a dice entry where a move was expected")),
    };
    Ok(if names[0] == name { 0 } else { 1 })
}

pub(super) fn parse<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, ApiError> {
    serde_json::from_value(value.clone()).map_err(|e| corrupt(format!("{what}: {e}")))
}

/// The moves of a game without dice, each with its side.
pub(super) fn match_steps<M: DeserializeOwned>(
    stored: &StoredMatch,
    names: [&str; 2],
) -> Result<Vec<Step<M>>, ApiError> {
    stored
        .history
        .iter()
        .map(|event| {
            let entry = &event.entry;
            let mv = entry
                .mv
                .as_ref()
                .ok_or_else(|| corrupt("a move entry without a move"))?;
            Ok(Step {
                ply: entry.ply,
                seat: Some(seat_of(entry.actor, names)?),
                mv: parse(mv, "move")?,
            })
        })
        .collect()
}

/// Pig's decisions, each roll with the face the dice entry after it shows.
pub(super) fn pig_steps(stored: &StoredMatch, names: [&str; 2]) -> Result<Vec<Step<pig::Decision>>, ApiError> {
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

/// Nine Square's turns: each move with the roll of the dice entry before it.
pub(super) fn nine_square_steps(
    stored: &StoredMatch,
    names: [&str; 2],
) -> Result<Vec<Step<nine_square::Turn>>, ApiError> {
    #[derive(Deserialize)]
    struct Cell {
        row: i64,
        col: i64,
    }
    #[derive(Deserialize)]
    struct Placements {
        placements: Vec<Cell>,
    }
    let mut steps = Vec::new();
    let mut rolled: Option<u32> = None;
    for event in &stored.history {
        let entry = &event.entry;
        if entry.actor == Actor::Dice {
            rolled = Some(entry.roll.ok_or_else(|| corrupt("a dice entry without its roll"))?);
            continue;
        }
        let dice = rolled.take().ok_or_else(|| corrupt("a turn without its roll"))?;
        let mv: Placements = parse(entry.mv.as_ref().unwrap_or(&Value::Null), "move")?;
        steps.push(Step {
            ply: entry.ply,
            seat: Some(seat_of(entry.actor, names)?),
            mv: nine_square::Turn {
                dice: i64::from(dice),
                placements: mv.placements.into_iter().map(|c| (c.row, c.col)).collect(),
            },
        });
    }
    Ok(steps)
}
