//! A stored match's history read as a review's record: each decision with
//! its side. A history that does not read so is the server's fault (500):
//! the match engine wrote it. Games whose decisions span several entries
//! (a roll and its dice) read their own with these pieces.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Step;
use crate::core::problem::Problem;
use crate::matches::Actor;
use crate::store::StoredMatch;

/// The sides of a match, first player first.
pub fn match_names(stored: &StoredMatch) -> [&'static str; 2] {
    if stored.game.ai_first {
        ["ai", "human"]
    } else {
        ["human", "ai"]
    }
}

pub fn corrupt(what: impl std::fmt::Display) -> Problem {
    Problem::internal(&format!("the stored match does not replay: {what}"))
}

pub fn seat_of(actor: Actor, names: [&str; 2]) -> Result<usize, Problem> {
    let name = match actor {
        Actor::Human => "human",
        Actor::Ai => "ai",
        Actor::Dice => return Err(corrupt("a dice entry where a move was expected")),
    };
    Ok(if names[0] == name { 0 } else { 1 })
}

pub fn parse<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, Problem> {
    serde_json::from_value(value.clone()).map_err(|e| corrupt(format!("{what}: {e}")))
}

/// The moves of a game without dice, each with its side.
pub fn match_steps<M: DeserializeOwned>(stored: &StoredMatch, names: [&str; 2]) -> Result<Vec<Step<M>>, Problem> {
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
