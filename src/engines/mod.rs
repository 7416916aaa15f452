//! External engines spoken to over a protocol (UCI): a client for one
//! engine process and a bounded pool of them, with restarts, timeouts and
//! `stop` when a client goes away. Generic: any UCI engine; the game layer
//! (e.g. `games::chess`) builds the positions and reads the moves.
//!
//! lichess's external-engine notes are the checklist followed here: each
//! search has exclusive use of a process, `ucinewgame` between unrelated
//! positions, `isready` before a process is trusted, nothing unchecked
//! passed to the engine, and one that hangs or dies is killed and replaced.

pub mod analysis;
pub mod blocking;
pub mod book;
pub mod config;
pub mod pool;
pub mod request;
pub mod review;
pub mod score;
pub mod skill;
pub mod uci;
pub mod variant;

pub use book::ProcessBook;
pub use config::EngineConfig;
pub use pool::{EngineLease, EnginePool};
pub use uci::{DepthReport, Dialect, PvLine, Score, SearchJob, SearchOutput};

/// What can go wrong with an engine. The HTTP layer maps `Unavailable` and
/// `Busy` to 503 (with Retry-After for `Busy`); the others are one failed
/// request (the pool has already replaced the process).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// No engine binary: the message says how to install one.
    #[error("{0}")]
    Unavailable(String),
    /// Every engine is in use and none came free within the wait; `held`
    /// of them by the asking client's own requests.
    #[error("{}", busy_detail(*engines, *held, *retry_after_secs))]
    Busy {
        engines: usize,
        held: usize,
        retry_after_secs: u64,
    },
    /// The process could not be started.
    #[error("the engine could not be started: {0}")]
    Spawn(String),
    /// The process exited or its pipes broke.
    #[error("the engine process died: {0}")]
    Died(String),
    /// The process stopped answering within its time.
    #[error("the engine stopped answering: {0}")]
    Hung(String),
    /// The process broke the protocol (or kibitz refused to send a command).
    #[error("engine protocol error: {0}")]
    Protocol(String),
    /// The engine answered, but not with what the question needs (no
    /// evaluation, no legal move); the process is kept.
    #[error("the engine's answer could not be used: {0}")]
    Unusable(String),
}

fn busy_detail(engines: usize, held: usize, retry_after_secs: u64) -> String {
    if held > 0 {
        format!(
            "this client's own requests hold {held} of the {engines} engine processes: send fewer at once, \
             or try again in {retry_after_secs} s"
        )
    } else {
        format!("all {engines} engine processes are busy; try again in {retry_after_secs} s")
    }
}

impl EngineError {
    /// True when the asking client's own requests held engines while it
    /// waited: a 429 (it competes with itself), not the server's 503.
    pub fn crowded_by_own(&self) -> bool {
        matches!(self, EngineError::Busy { held, .. } if *held > 0)
    }

    /// Seconds a client should wait before retrying, for the errors where
    /// retrying makes sense.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            EngineError::Busy { retry_after_secs, .. } => Some(*retry_after_secs),
            EngineError::Died(_) | EngineError::Hung(_) | EngineError::Protocol(_) | EngineError::Unusable(_) => {
                Some(1)
            }
            EngineError::Unavailable(_) | EngineError::Spawn(_) => None,
        }
    }
}
