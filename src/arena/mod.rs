//! The arena: named strategies play series of games against each other, so
//! that anyone can check how strong each AI is with numbers they can
//! reproduce.
//!
//! [`strategy`] reads the names; [`players`] is what a player is (a
//! [`players::Chooser`] of moves) and the one loop that plays a game
//! between two; [`games`] gives each game's own players; [`runner`] plays N games with alternating
//! seats, every die and every random choice drawn from one seed; [`summary`]
//! adds them up (Wilson 95% interval on A's share of the points); [`pig`]
//! and [`pig_exact`] give Pig's players as policies and the exact
//! probability that one beats the other, without sampling.
//!
//! Repeatability: searches end by node count ([`Budget`]) and each run uses
//! solvers of its own, so the same seed gives the same result on any
//! machine. Only an explicit per-move time cap (`max_ms`) can cut a search
//! short and make a run depend on the machine's speed.

pub mod games;
pub mod kind;
pub mod players;
pub mod runner;
pub mod strategy;
pub mod summary;

use serde::Serialize;

pub use kind::{ArenaGames, ArenaKind};
pub use runner::{Arena, ArenaSpec, Budget};
pub use strategy::Strategy;
pub use summary::{ExactChances, Record, Seats, Tally};

use crate::matches::MatchError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// The game name or the options (the match engine's message).
    #[error("{0}")]
    Setup(#[from] MatchError),
    #[error("{seat}: {name:?} is not a strategy of {game}; expected one of {known}")]
    UnknownStrategy {
        seat: &'static str,
        game: &'static str,
        name: String,
        known: String,
    },
    /// `exact: true` for a game whose players are only ever sampled.
    #[error("exact: {0}'s players cannot be evaluated without sampling (only games whose catalog entry says so can)")]
    NoExactEvaluation(&'static str),
    /// The run's time ran out (or it was cancelled) after `played` games.
    #[error("the run stopped after {played} of {games} games: its time ran out")]
    OutOfTime { played: u64, games: u64 },
    /// A player broke the rules or a solver failed: the server's fault.
    #[error("{0}")]
    Internal(String),
}

impl ArenaError {
    /// True for errors the request caused.
    pub fn is_client_error(&self) -> bool {
        match self {
            ArenaError::Setup(e) => e.is_client_error(),
            ArenaError::Internal(_) => false,
            _ => true,
        }
    }
}

/// One side of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub strategy: String,
    #[serde(flatten)]
    pub record: Record,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExactReport {
    pub a_first: f64,
    pub a_second: f64,
    pub a_share: f64,
}

/// A run as `POST /arena` and `kibitz arena --json` show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub game: &'static str,
    pub games: u64,
    pub seed: u64,
    pub a: Side,
    pub b: Side,
    /// A's points per game (a draw is half); null when no game was played.
    pub a_share: Option<f64>,
    pub a_share_ci95: Option<[f64; 2]>,
    /// A's points minus B's per game; null for games without scores.
    pub mean_margin: Option<f64>,
    /// A's record when moving first and when moving second.
    pub seats: Seats,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactReport>,
}
