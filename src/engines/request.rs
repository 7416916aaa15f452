//! A position question to an engine-evaluated game (xiangqi's and shogi's
//! `POST /{game}/move`, their `/analyze` positions and streams), from the
//! request body to the answer: the request's shape, the search's budget,
//! and the errors as HTTP problems. The game turns the request's position
//! and moves into its rules' state ([`EnginePosition`]).

use std::time::Duration;

use http::StatusCode;
use serde::Deserialize;

use super::analysis::{AnalysisError, EngineAnalysis, EngineAnalyzer, EnginePosition, Question};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::matches::engine::{MatchError, MoveBudget};
use crate::solve::limits::SearchLimits;
use crate::solve::lines::Lines;
use crate::solve::run::SharedDeadline;

/// The least time a search is given: a smaller `max_ms` (0 included) is
/// raised to it. The engine needs a few milliseconds for the `isready`
/// round trip and its first depth; under that the pool would refuse the
/// search as busy, which is no answer to "as fast as you can".
pub const MIN_MAX_MS: u64 = 50;

/// The request: a position in the game's notation (default: the start)
/// and moves played from it.
#[derive(Deserialize, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PositionRequest {
    pub position: Option<String>,
    /// `null` reads as no moves, as chess's `moves` does.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub moves: Vec<String>,
    pub max_ms: Option<u64>,
    /// Read wide so that an out-of-range value is a 422 naming the field,
    /// not a 400 about its type.
    pub depth: Option<u64>,
    pub multi_pv: Option<u64>,
}

/// A list that may be sent as `null`: read as empty.
fn null_as_empty<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<String>>::deserialize(deserializer)?.unwrap_or_default())
}

impl From<AnalysisError> for Problem {
    fn from(error: AnalysisError) -> Self {
        let detail = error.client_detail();
        match &error {
            AnalysisError::Rules(_) | AnalysisError::BadParameter { .. } => Problem::unprocessable(detail),
            AnalysisError::Engine(engine) => {
                tracing::warn!(%error, "an engine search failed");
                match engine.retry_after_secs() {
                    Some(secs) if engine.crowded_by_own() => Problem::too_many_requests(detail, secs),
                    Some(secs) => Problem::unavailable(detail, secs),
                    None => Problem::new(StatusCode::SERVICE_UNAVAILABLE, detail),
                }
            }
        }
    }
}

/// A parameter read wide, narrowed; a value past `u32` is out of range
/// like any other and the range check names it.
fn narrow(value: Option<u64>) -> Option<u32> {
    value.map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

/// The budget of one search: the request's `max_ms` (defaulted, capped,
/// raised to [`MIN_MAX_MS`]), and no later than a batch's deadline. A
/// batch position with too little time left is not started.
pub fn budget_ms(config: &Config, max_ms: Option<u64>, shared: Option<&SharedDeadline>) -> Result<u64, Problem> {
    let own = config.search_budget_ms(max_ms).max(MIN_MAX_MS);
    let Some(shared) = shared else {
        return Ok(own);
    };
    let left = u64::try_from(shared.left().as_millis()).unwrap_or(u64::MAX);
    if left < MIN_MAX_MS {
        return Err(shared.ran_out());
    }
    Ok(own.min(left))
}

/// The answer to `request` about `position` (already read by the game's
/// rules, a finished game already refused); each completed depth goes to
/// `lines` when the client streams.
pub async fn answer(
    config: &Config,
    analyzer: &EngineAnalyzer,
    position: &impl EnginePosition,
    request: &PositionRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<EngineAnalysis, Problem> {
    let mut question = Question::new(0, narrow(request.depth), narrow(request.multi_pv).unwrap_or(1))?;
    if let Some(reason) = analyzer.pool().unavailable_reason() {
        return Err(AnalysisError::Engine(super::EngineError::Unavailable(reason.to_string())).into());
    }
    // The engine before the budget starts: its start-up is not the
    // search's time.
    analyzer.pool().start_one_if_cold().await;
    question.max_ms = budget_ms(config, request.max_ms, shared.as_ref())?;
    let limits = SearchLimits::within(Duration::from_millis(question.max_ms));
    let on_depth = |partial: EngineAnalysis| {
        if let Some(lines) = &lines {
            lines.send(&partial);
        }
    };
    Ok(analyzer
        .analyze(position, &question, &limits, on_depth)
        .await
        .map_err(AnalysisError::from)?)
}

/// The AI's move at `level` (1..10, see [`super::skill`]) in a match or
/// an arena game, asked from the match engine's blocking thread within
/// `budget` (its clock started once an engine process is up: the engine's
/// start is not the move's time); the move in the game's notation.
pub fn choose_move(
    analyzer: &EngineAnalyzer,
    position: &impl EnginePosition,
    level: u8,
    budget: MoveBudget,
) -> Result<String, MatchError> {
    let options =
        super::skill::skill_options(level).ok_or_else(|| MatchError::Internal(format!("no level {level}")))?;
    let question = Question {
        max_ms: u64::try_from(budget.time.as_millis()).unwrap_or(u64::MAX),
        options,
        ..Question::new(0, None, 1).map_err(|e| MatchError::Internal(e.to_string()))?
    };
    let answer = super::blocking::block_on(async {
        analyzer.pool().start_one_if_cold().await;
        let limits = SearchLimits::within(budget.time).with_max_nodes(budget.nodes);
        analyzer.analyze(position, &question, &limits, |_| {}).await
    })
    .ok_or_else(|| MatchError::Internal("no async runtime for the engine".to_string()))?;
    answer.map(|analysis| analysis.best.notation).map_err(|error| {
        tracing::warn!(%error, "the AI's engine search failed");
        MatchError::Unavailable {
            retry_after_secs: error.retry_after_secs(),
            detail: AnalysisError::Engine(error).client_detail(),
        }
    })
}

/// Refuses a new match at once (503, saying how to install it) where the
/// engine is not installed: the AI could not answer the person's first
/// move.
pub fn require_engine(analyzer: &EngineAnalyzer) -> Result<(), MatchError> {
    match analyzer.pool().unavailable_reason() {
        Some(reason) => Err(MatchError::Unavailable {
            detail: reason.to_string(),
            retry_after_secs: None,
        }),
        None => Ok(()),
    }
}
