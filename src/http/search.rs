//! Runs CPU-heavy work off the async worker threads, under the request's
//! search budget, timing it per solver.

use std::time::{Duration, Instant};

use tracing::Instrument;

use super::error::ApiError;
use super::pool::SearchPool;
use crate::config::Config;
use crate::solve::limits::SearchLimits;

/// Nodes a search may spend inline on the async thread before it is moved to
/// the blocking pool: tens of microseconds, enough for answers the memo or
/// cache already holds, too little to starve other requests.
const INLINE_NODES: u64 = 2_000;

/// First tries `work` inline under a small node budget; if `is_final` says
/// the answer cannot improve (solved, or an error), returns it without the
/// cost of a thread handoff. Otherwise runs it again on the blocking pool
/// with the request's whole budget (the memo is warmer by then).
pub async fn run_search_cheap_first<T, F>(
    config: &Config,
    pool: &SearchPool,
    solver: &'static str,
    max_ms: Option<u64>,
    is_final: fn(&T) -> bool,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: Fn(&SearchLimits) -> T + Send + 'static,
{
    let started = Instant::now();
    let budget = Duration::from_millis(config.search_budget_ms(max_ms));
    let quick = work(&SearchLimits::within(budget).with_max_nodes(INLINE_NODES));
    if is_final(&quick) {
        metrics::histogram!("kibitz_solver_seconds", "solver" => solver).record(started.elapsed().as_secs_f64());
        return Ok(quick);
    }
    run_search(config, pool, solver, max_ms, work).await
}

/// Runs `work` on the blocking pool, once `pool` has a worker free, with limits from the request's `max_ms`
/// (defaulted and capped by config). The tracing span comes along.
pub async fn run_search<T, F>(
    config: &Config,
    pool: &SearchPool,
    solver: &'static str,
    max_ms: Option<u64>,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&SearchLimits) -> T + Send + 'static,
{
    let budget = Duration::from_millis(config.search_budget_ms(max_ms));
    let limits = SearchLimits::within(budget);
    let cancel = limits.cancel_handle();
    let span = tracing::Span::current();
    let started = Instant::now();
    // If the client goes away, the handler future is dropped and so is the
    // guard: the search stops. After a normal finish, setting the flag on a
    // search that has already returned does nothing.
    let _stop_if_abandoned = CancelOnDrop(cancel);
    let permit = pool.enter().await?;
    let result = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        span.in_scope(|| work(&limits))
    })
    .instrument(tracing::Span::current())
    .await
    .map_err(|e| ApiError::internal(&e));
    metrics::histogram!("kibitz_solver_seconds", "solver" => solver).record(started.elapsed().as_secs_f64());
    result
}

struct CancelOnDrop(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
