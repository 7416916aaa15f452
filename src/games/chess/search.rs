//! Chess questions answered by the engine pool: the one entry point the
//! HTTP handlers, matches, the arena, `/analyze` and reviews call.
//!
//! A question is a [`ChessState`] (already validated by the rules), the
//! [`AnalyzeOptions`] and the request's [`SearchLimits`]; the answer is a
//! [`ChessAnalysis`] (or its cloud-eval view), from the cache when the same
//! question was answered before.

use super::analysis::{ChessAnalysis, CloudEval};
use super::levels::level_settings;
use super::rules::{ChessMove, ChessState, EndReason, RulesError};
use crate::engines::analysis::{EngineAnalyzer, Question};
pub use crate::engines::analysis::{MAX_DEPTH, MAX_MULTI_PV};
use crate::engines::{EngineError, EngineLease, EnginePool};
use crate::solve::limits::SearchLimits;
use crate::solve::memo::MemoStats;

/// What can go wrong answering a chess question, by whose fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessError {
    /// The position or moves (422).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// An out-of-range parameter (422), naming the field.
    #[error("{field}: {detail}")]
    BadParameter { field: &'static str, detail: String },
    /// The engine: `Unavailable` and `Busy` are 503 (Busy with
    /// Retry-After), the others a failed request whose process was
    /// replaced (503 with Retry-After 1 is fair: a retry will work).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl ChessError {
    /// The HTTP status the contract gives it: 422 for the client's input,
    /// 503 for the engine (not installed, busy, or failed on this request:
    /// the process was replaced, so a retry works).
    pub fn status(&self) -> u16 {
        match self {
            ChessError::Rules(_) | ChessError::BadParameter { .. } => 422,
            ChessError::Engine(_) => 503,
        }
    }

    /// The Retry-After to send with a 503, when a retry can help (not for
    /// a missing engine).
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            ChessError::Engine(e) => e.retry_after_secs(),
            _ => None,
        }
    }

    /// The `detail` for a client: the input's errors and the install hint
    /// as they are; an engine's failure without its internals (log the
    /// error itself).
    pub fn client_detail(&self) -> String {
        match self {
            ChessError::Engine(e @ (EngineError::Died(_) | EngineError::Hung(_) | EngineError::Protocol(_))) => {
                format!(
                    "the chess engine failed on this request ({}); its process was stopped and the next \
                     request starts a fresh one: try again",
                    match e {
                        EngineError::Died(_) => "its process died",
                        EngineError::Hung(_) => "it stopped answering",
                        _ => "it broke the protocol",
                    }
                )
            }
            ChessError::Engine(EngineError::Unusable(why)) => format!(
                "the chess engine answered without what this request needs ({why}); the engine is fine: \
                 try again, with a larger max_ms if it recurs"
            ),
            ChessError::Engine(EngineError::Spawn(_)) => "the chess engine could not be started".to_string(),
            other => other.to_string(),
        }
    }
}

/// The limits and settings of one question, besides the time budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// The `max_ms` asked for (part of the cache key; the deadline itself
    /// is in the [`SearchLimits`]).
    pub max_ms: u64,
    pub depth: Option<u32>,
    /// 1..=5.
    pub multi_pv: u32,
    /// The AI's level 1..=10 (10: full strength, the only one cached).
    pub level: u8,
    /// Questions from one game (a match) share a session: the engine keeps
    /// its hash between them.
    pub session: Option<u64>,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            max_ms: 1000,
            depth: None,
            multi_pv: 1,
            level: 10,
            session: None,
        }
    }
}

impl AnalyzeOptions {
    /// Checks the ranges, naming the field that is out of range.
    pub fn validate(self) -> Result<Self, ChessError> {
        if !(1..=MAX_MULTI_PV).contains(&self.multi_pv) {
            return Err(ChessError::BadParameter {
                field: "multi_pv",
                detail: format!("must be between 1 and {MAX_MULTI_PV}, got {}", self.multi_pv),
            });
        }
        if let Some(depth) = self.depth {
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(ChessError::BadParameter {
                    field: "depth",
                    detail: format!("must be between 1 and {MAX_DEPTH}, got {depth}"),
                });
            }
        }
        if level_settings(self.level).is_none() {
            return Err(ChessError::BadParameter {
                field: "level",
                detail: format!("must be between 1 and 10, got {}", self.level),
            });
        }
        Ok(self)
    }
}

/// The engine pool and the answer cache, shared by every chess request.
pub struct ChessAnalyzer(EngineAnalyzer<ChessAnalysis>);

impl ChessAnalyzer {
    pub fn new(pool: EnginePool, cache_entries: usize) -> Self {
        ChessAnalyzer(EngineAnalyzer::new(pool, cache_entries))
    }

    pub fn pool(&self) -> &EnginePool {
        self.0.pool()
    }

    pub fn cache_stats(&self) -> MemoStats {
        self.0.cache_stats()
    }

    /// False when the engine is not installed (the catalog's `available`).
    pub fn is_available(&self) -> bool {
        self.pool().is_available()
    }

    /// The best move and evaluation of the position, within `limits`.
    /// `on_depth` hears the answer so far after each completed depth (for
    /// NDJSON streaming); a cached answer is returned without calling it.
    /// Checkmate and stalemate are refused (there is nothing to search).
    pub async fn analyze(
        &self,
        state: &ChessState,
        options: &AnalyzeOptions,
        limits: &SearchLimits,
        on_depth: impl FnMut(ChessAnalysis) + Send,
    ) -> Result<ChessAnalysis, ChessError> {
        self.analyze_leased(None, state, options, limits, on_depth).await.0
    }

    /// [`ChessAnalyzer::analyze`] on the engine of `lease` when there is
    /// one (else on one the pool admits); gives the lease back when its
    /// engine is free again.
    pub async fn analyze_leased(
        &self,
        lease: Option<EngineLease>,
        state: &ChessState,
        options: &AnalyzeOptions,
        limits: &SearchLimits,
        on_depth: impl FnMut(ChessAnalysis) + Send,
    ) -> (Result<ChessAnalysis, ChessError>, Option<EngineLease>) {
        let question = match question(state, options) {
            Ok(question) => question,
            Err(e) => return (Err(e), lease),
        };
        let (answer, lease) = self.0.analyze_leased(lease, state, &question, limits, on_depth).await;
        (answer.map_err(ChessError::from), lease)
    }

    /// lichess's cloud-eval answer for a position (full strength).
    pub async fn cloud_eval(
        &self,
        state: &ChessState,
        multi_pv: u32,
        max_ms: u64,
        limits: &SearchLimits,
    ) -> Result<CloudEval, ChessError> {
        let options = AnalyzeOptions {
            max_ms,
            multi_pv,
            ..AnalyzeOptions::default()
        };
        let analysis = self.analyze(state, &options, limits, |_| {}).await?;
        Ok(CloudEval::from_analysis(state, &analysis))
    }

    /// The AI's move at a level (matches and the arena).
    pub async fn choose_move(
        &self,
        state: &ChessState,
        level: u8,
        session: Option<u64>,
        limits: &SearchLimits,
    ) -> Result<ChessMove, ChessError> {
        let options = AnalyzeOptions {
            max_ms: u64::try_from(limits.remaining().as_millis()).unwrap_or(u64::MAX),
            level,
            session,
            ..AnalyzeOptions::default()
        };
        let analysis = self.analyze(state, &options, limits, |_| {}).await?;
        ChessMove::parse(&analysis.best.uci)
            .ok_or_else(|| EngineError::Protocol(format!("bad move {:?}", analysis.best.uci)).into())
    }
}

/// The engine's question for `options` about `state` (not a finished
/// game: checkmate and stalemate are refused).
fn question(state: &ChessState, options: &AnalyzeOptions) -> Result<Question, ChessError> {
    let options = options.clone().validate()?;
    if let Some(reason @ (EndReason::Checkmate | EndReason::Stalemate)) = state.end() {
        return Err(RulesError::GameOver(reason).into());
    }
    let settings = level_settings(options.level).ok_or(ChessError::BadParameter {
        field: "level",
        detail: "must be between 1 and 10".to_string(),
    })?;
    Ok(Question {
        max_ms: options.max_ms,
        depth: options.depth,
        multi_pv: options.multi_pv,
        options: settings.options,
        session: options.session,
    })
}
