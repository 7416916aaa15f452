//! Runs CPU-heavy work off the async worker threads, under the request's
//! search budget, timing it per solver.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::StatusCode;
use tracing::Instrument;

use super::pool::SearchPool;
use crate::config::Config;
use crate::core::problem::Problem;
use crate::solve::limits::SearchLimits;

/// Nodes of the quick first try: tens of microseconds, enough for answers
/// the memo already holds.
const QUICK_NODES: u64 = 2_000;

/// How long one search may take: its request's `max_ms` (defaulted and
/// capped by config) and, for a position of a batch, no later than the
/// batch's shared deadline.
#[derive(Clone, Copy, Debug)]
pub struct SearchBudget {
    max_ms: Option<u64>,
    shared: Option<SharedDeadline>,
}

impl SearchBudget {
    /// A request's own `max_ms`, as it was sent.
    pub fn own(max_ms: Option<u64>) -> Self {
        Self { max_ms, shared: None }
    }

    /// Also ends by `shared`, when there is one.
    pub fn within(self, shared: Option<SharedDeadline>) -> Self {
        Self { shared, ..self }
    }
}

/// The one time budget of a batch (POST /analyze): every search of the batch
/// ends by it, and a search that would start after it does not start.
#[derive(Clone, Copy, Debug)]
pub struct SharedDeadline {
    at: Instant,
    budget_ms: u64,
}

impl SharedDeadline {
    pub fn starting_now(budget_ms: u64) -> Self {
        Self {
            at: Instant::now() + Duration::from_millis(budget_ms),
            budget_ms,
        }
    }

    pub fn at(&self) -> Instant {
        self.at
    }

    /// The time left; zero once the deadline has passed.
    pub fn left(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }

    /// The problem of a position whose search could not start in time.
    pub fn ran_out(&self) -> Problem {
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the batch's time budget of {} ms ran out before this position was searched; \
                 send it again, or give the batch a larger max_ms",
                self.budget_ms
            ),
        )
    }
}

/// Which run of [`run_search_cheap_first`] a call of its work is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The quick try under a small node budget (nothing to report on).
    Inline,
    /// The real search with the request's whole budget.
    Pool,
}

/// First tries `work` under a small node budget; if `is_final` says the
/// answer cannot improve (solved, or an error), returns it. Otherwise runs
/// it again with the request's whole budget (the memo is warmer by then).
///
/// The quick try is a lookup: it runs on a blocking thread without a
/// search permit, so a book, table or memo answer never waits for a worker
/// another client holds. Its node budget bounds it (tens of microseconds
/// to a few milliseconds even on a big board), and it never starts after
/// a batch's deadline. Only the real search is admitted to the pool.
pub async fn run_search_cheap_first<T, F>(
    config: &Config,
    pool: &SearchPool,
    solver: &'static str,
    budget: SearchBudget,
    is_final: fn(&T) -> bool,
    work: F,
) -> Result<T, Problem>
where
    T: Send + 'static,
    F: Fn(&SearchLimits, Attempt) -> T + Send + 'static,
{
    let own = Duration::from_millis(config.search_budget_ms(budget.max_ms));
    let limits = match budget.shared {
        None => SearchLimits::within(own),
        Some(shared) if shared.left().is_zero() => return Err(shared.ran_out()),
        Some(shared) => SearchLimits::within(own.min(shared.left())),
    };
    let _stop_if_abandoned = CancelOnDrop(limits.cancel_handle());
    let span = tracing::Span::current();
    let (quick, work) = tokio::task::spawn_blocking(move || {
        let quick = span.in_scope(|| work(&limits.quick(QUICK_NODES), Attempt::Inline));
        (quick, work)
    })
    .await
    .map_err(|e| Problem::internal(&e))?;
    if is_final(&quick) {
        return Ok(quick);
    }
    run_search(config, pool, solver, budget, move |limits| work(limits, Attempt::Pool)).await
}

/// Runs `work` on the blocking pool, once `pool` has a worker free, with limits from the request's `max_ms`
/// (defaulted and capped by config) and a batch's deadline. The tracing span comes along.
///
/// The wait for a worker counts against the budget and is bounded by it.
/// While the search holds its worker, the pool may ask it to yield to
/// another client (see [`SearchPool`]): it then stops early, as if its
/// time had run out, and `work` answers its best so far.
pub async fn run_search<T, F>(
    config: &Config,
    pool: &SearchPool,
    solver: &'static str,
    budget: SearchBudget,
    work: F,
) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&SearchLimits) -> T + Send + 'static,
{
    let own = Duration::from_millis(config.search_budget_ms(budget.max_ms));
    let limits = match budget.shared {
        None => SearchLimits::within(own),
        Some(shared) => {
            let left = shared.left();
            if left.is_zero() {
                return Err(shared.ran_out());
            }
            SearchLimits::within(own.min(left))
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let limits = limits.yielding_to(Arc::clone(&stop));
    let cancel = limits.cancel_handle();
    let span = tracing::Span::current();
    let started = Instant::now();
    // If the client goes away, the handler future is dropped and so is the
    // guard: the search stops. After a normal finish, setting the flag on a
    // search that has already returned does nothing.
    let _stop_if_abandoned = CancelOnDrop(cancel);
    let permit = match pool.enter_within(limits.remaining(), stop).await {
        Ok(permit) => permit,
        Err(busy) => {
            return Err(match budget.shared {
                Some(shared) if shared.left().is_zero() => shared.ran_out(),
                _ => busy,
            })
        }
    };
    let result = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        span.in_scope(|| work(&limits))
    })
    .instrument(tracing::Span::current())
    .await
    .map_err(|e| Problem::internal(&e));
    metrics::histogram!("kibitz_solver_seconds", "solver" => solver).record(started.elapsed().as_secs_f64());
    result
}

struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
