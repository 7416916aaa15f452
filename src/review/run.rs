//! How a review runs: a first try with a small node budget, kept if every
//! value came out proved (a game the memo already holds); otherwise the
//! review runs again with the request's whole budget. Both on the search
//! pool.

use std::time::Duration;

use super::{Review, ReviewError};
use crate::config::Config;
use crate::core::problem::Problem;
use crate::solve::limits::SearchLimits;
use crate::solve::pool::SearchPool;
use crate::solve::run::{run_search, SearchBudget};

/// Nodes each position's search may spend in the quick first try...
const QUICK_NODES: u64 = 2_000;
/// ...and the time the whole first try may take.
const QUICK_TIME: Duration = Duration::from_millis(1);

/// Runs `work` on the search pool with a small node budget (`quick`), and
/// again with the whole budget if the quick try did not prove every value
/// (it answers None then). Both tries run on the pool, under its admission
/// and the request's deadline: none of a review's CPU work is done on the
/// async threads.
pub async fn run_review<F>(
    config: &Config,
    search_pool: &SearchPool,
    max_ms: Option<u64>,
    work: F,
) -> Result<Result<Review, ReviewError>, Problem>
where
    F: Fn(&SearchLimits, bool) -> Result<Option<Review>, ReviewError> + Send + Sync + 'static,
{
    let full = run_search(
        config,
        search_pool,
        "review",
        SearchBudget::own(max_ms),
        move |limits| {
            let quick = limits.slice(QUICK_TIME).with_max_nodes(QUICK_NODES);
            match work(&quick, true) {
                Ok(None) => work(limits, false),
                settled => settled,
            }
        },
    )
    .await?;
    Ok(full.and_then(|r| r.ok_or_else(|| ReviewError::Unavailable("the review did not finish".to_string()))))
}
