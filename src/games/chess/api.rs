//! `POST /chess/move` and `GET /chess/cloud-eval`: the request shapes, the
//! budget a chess search gets, and the answers from the engine pool.

use std::sync::atomic::Ordering;
use std::time::Duration;

use bytes::Bytes;

use http::StatusCode;
use serde::Deserialize;

use super::analysis::{ChessAnalysis, CloudEval};
use super::rules::ChessState;
use super::search::{AnalyzeOptions, ChessAnalyzer, ChessError, MAX_MULTI_PV};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::engines::{EngineConfig, EnginePool};
use crate::serve::{json_body, Services};
use crate::solve::limits::SearchLimits;
use crate::solve::lines::Lines;
use crate::solve::memo::{BoundedMemo, MemoStats};
use crate::solve::run::SharedDeadline;

/// The least time a chess search is given: a smaller `max_ms` (0
/// included) is raised to it. Stockfish needs a few milliseconds for the
/// `isready` round trip and its first depth; under that the pool would
/// refuse the search as busy, which is no answer to "as fast as you can".
pub const MIN_MAX_MS: u64 = 50;

#[derive(Deserialize, Clone, PartialEq, Eq, Hash)]
pub struct MoveRequest {
    /// Default: the start position.
    fen: Option<String>,
    /// UCI moves played from `fen`.
    moves: Option<Vec<String>>,
    max_ms: Option<u64>,
    /// Read wide so that an out-of-range value is a 422 naming the field,
    /// not a 400 about its type.
    depth: Option<u64>,
    multi_pv: Option<u64>,
}

/// The longest request (FEN and moves, in bytes) whose answer is kept
/// written out: a key's size stays far below an answer's.
const MAX_KEPT_REQUEST_BYTES: usize = 512;

/// Answers kept written out by the request as sent (with its budget), so
/// that a repeated question costs neither the rules nor serde: the
/// analyzer's own cache, by position, is the one that spares the engine.
/// Bounded by `--chess-cache-entries` like it.
pub struct BodyCache(Option<BoundedMemo<(MoveRequest, u64), Bytes>>);

impl BodyCache {
    pub fn new(capacity: usize) -> Self {
        BodyCache((capacity > 0).then(|| BoundedMemo::new(capacity)))
    }

    pub fn stats(&self) -> MemoStats {
        self.0.as_ref().map(BoundedMemo::stats).unwrap_or_default()
    }

    /// The key of a request under `max_ms`; None for one too long to keep.
    fn key(request: &MoveRequest, max_ms: u64) -> Option<(MoveRequest, u64)> {
        let moves_bytes: usize = request.moves.iter().flatten().map(String::len).sum();
        let bytes = request.fen.as_ref().map_or(0, String::len) + moves_bytes;
        (bytes <= MAX_KEPT_REQUEST_BYTES).then(|| (request.clone(), max_ms))
    }
}

/// `GET /chess/cloud-eval`'s query, spelled as lichess spells it.
#[derive(Deserialize)]
pub struct CloudEvalQuery {
    fen: String,
    #[serde(rename = "multiPv")]
    multi_pv: Option<u64>,
    /// lichess's variant key: standard chess only (`standard`, or
    /// `fromPosition`, lichess's name for standard chess from a FEN).
    variant: Option<String>,
}

/// The engine settings of this server's configuration.
pub fn engine_config(config: &Config) -> EngineConfig {
    EngineConfig {
        path: config
            .games
            .of::<super::settings::ChessSettings>()
            .stockfish_path
            .clone(),
        count: config.games.of::<super::settings::ChessSettings>().engine_count,
        hash_mib: config.games.of::<super::settings::ChessSettings>().engine_hash_mib,
        queue_wait: std::time::Duration::from_millis(config.search_queue_ms),
        slice: std::time::Duration::from_millis(config.search_slice_ms),
        ..EngineConfig::stockfish()
    }
}

/// The server's one analyzer (engine pool and answer cache), made at its
/// first use.
pub fn analyzer(services: &Services) -> std::sync::Arc<ChessAnalyzer> {
    let config = &services.config;
    services.solvers.of_with(|| {
        ChessAnalyzer::new(
            EnginePool::new(engine_config(config)),
            config.games.of::<super::settings::ChessSettings>().cache_entries,
        )
    })
}

/// The server's one [`BodyCache`], made at its first use.
pub fn body_cache(services: &Services) -> std::sync::Arc<BodyCache> {
    services.solvers.of_with(|| {
        BodyCache::new(
            services
                .config
                .games
                .of::<super::settings::ChessSettings>()
                .cache_entries,
        )
    })
}

impl From<ChessError> for Problem {
    fn from(error: ChessError) -> Self {
        let detail = error.client_detail();
        if matches!(error, ChessError::Engine(_)) {
            tracing::warn!(%error, "a chess search failed");
        }
        let own = matches!(&error, ChessError::Engine(e) if e.crowded_by_own());
        match (error.status(), error.retry_after_secs()) {
            (422, _) => Problem::unprocessable(detail),
            (_, Some(secs)) if own => Problem::too_many_requests(detail, secs),
            (_, Some(secs)) => Problem::unavailable(detail, secs),
            _ => Problem::new(StatusCode::SERVICE_UNAVAILABLE, detail),
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
fn budget_ms(config: &Config, max_ms: Option<u64>, shared: Option<SharedDeadline>) -> Result<u64, Problem> {
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

/// The answer to `POST /chess/move` (and a batch's chess position), as
/// the body sent; each completed depth goes to `lines` when the client
/// streams.
pub async fn analyze(
    services: &Services,
    request: MoveRequest,
    shared: Option<SharedDeadline>,
    lines: Option<Lines>,
) -> Result<Bytes, Problem> {
    // Kept under the request's own budget: an answer cut short by a
    // batch's deadline is not kept.
    let own_ms = budget_ms(&services.config, request.max_ms, None)?;
    let bodies = body_cache(services);
    let kept = match (&bodies.0, &lines) {
        (Some(memo), None) => BodyCache::key(&request, own_ms).map(|key| (memo, key)),
        _ => None,
    };
    if let Some((memo, key)) = &kept {
        if let Some(body) = memo.get(key) {
            return Ok(body);
        }
    }
    let moves = request.moves.clone().unwrap_or_default();
    let state = ChessState::from_fen_and_moves(request.fen.as_deref(), &moves).map_err(ChessError::from)?;
    let mut options = AnalyzeOptions {
        depth: narrow(request.depth),
        multi_pv: narrow(request.multi_pv).unwrap_or(1),
        ..AnalyzeOptions::default()
    }
    .validate()?;
    // The engine before the budget starts: its start-up is not the
    // search's time.
    let analyzer = analyzer(services);
    analyzer.pool().start_one_if_cold().await;
    let max_ms = budget_ms(&services.config, request.max_ms, shared)?;
    options.max_ms = max_ms;
    let limits = SearchLimits::within(Duration::from_millis(max_ms));
    let on_depth = |partial: ChessAnalysis| {
        if let Some(lines) = &lines {
            lines.send(&partial);
        }
    };
    let analysis = analyzer.analyze(&state, &options, &limits, on_depth).await?;
    let body = json_body(&analysis)?;
    // As the analyzer keeps only a search that ran to its end.
    if max_ms == own_ms && !limits.cancel_handle().load(Ordering::Relaxed) {
        if let Some((memo, key)) = kept {
            memo.insert(key, body.clone());
        }
    }
    Ok(body)
}

/// The answer to `GET /chess/cloud-eval`, within the server's default
/// budget.
pub async fn cloud_eval(services: &Services, query: CloudEvalQuery) -> Result<CloudEval, Problem> {
    if let Some(variant) = query
        .variant
        .as_deref()
        .filter(|v| !matches!(*v, "standard" | "fromPosition"))
    {
        let shown: String = variant.chars().take(40).collect();
        return Err(ChessError::BadParameter {
            field: "variant",
            detail: format!("kibitz plays standard chess only (variant \"standard\"), not {shown:?}"),
        }
        .into());
    }
    let state = ChessState::from_fen_and_moves(Some(&query.fen), &[] as &[&str]).map_err(ChessError::from)?;
    let multi_pv = narrow(query.multi_pv).unwrap_or(1);
    if !(1..=MAX_MULTI_PV).contains(&multi_pv) {
        // lichess's name for the parameter.
        return Err(ChessError::BadParameter {
            field: "multiPv",
            detail: format!("must be between 1 and {MAX_MULTI_PV}, got {multi_pv}"),
        }
        .into());
    }
    let analyzer = analyzer(services);
    analyzer.pool().start_one_if_cold().await;
    let max_ms = budget_ms(&services.config, None, None)?;
    let limits = SearchLimits::within(Duration::from_millis(max_ms));
    Ok(analyzer.cloud_eval(&state, multi_pv, max_ms, &limits).await?)
}
