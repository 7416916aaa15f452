//! Matches: whole games between a person and the AI, kept on the server.
//!
//! [`engine`] is a match's life without storage or HTTP: create one from
//! the request, apply the person's moves, let the AI and the dice answer.
//! [`levels`] is how an AI below level 10 makes its mistakes. Each game's
//! adapter (an implementation of `turns::TurnGame`) lives in its own file.

pub mod engine;
pub mod kind;
pub mod levels;
pub mod players;

pub(crate) mod read;
pub(crate) mod turns;

pub use engine::{
    Actor, AiContext, AiSpec, EndReason, HistoryEntry, Match, MatchError, MatchLimits, MatchResult, MoveBudget,
    NewMatch, Scores, Status, Winner,
};
pub use kind::{Adapter, GameKind, MatchGames};
