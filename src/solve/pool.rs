//! The bounded pool that expensive searches run in.
//!
//! Each search holds a permit for as long as its blocking thread works, so
//! at most `concurrency` searches use the CPU at once. A request that finds
//! every permit taken waits briefly, then gets 503 with Retry-After: a flood
//! of long searches queues at the door instead of starving cheap lookups
//! (Pig decisions and cached answers never enter the pool).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::cores;
use crate::core::problem::Problem;

/// A search's place in the pool, and its core counted as busy (so that no
/// other search takes it for a helper thread), until dropped.
#[derive(Debug)]
pub struct SearchPermit {
    _permit: OwnedSemaphorePermit,
    _core: cores::Busy,
}

pub struct SearchPool {
    permits: Arc<Semaphore>,
    concurrency: usize,
    queue_wait: Duration,
}

impl SearchPool {
    /// `concurrency` 0 means one search per CPU.
    pub fn new(concurrency: usize, queue_wait: Duration) -> Self {
        let concurrency = if concurrency == 0 {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        } else {
            concurrency
        };
        Self {
            permits: Arc::new(Semaphore::new(concurrency)),
            concurrency,
            queue_wait,
        }
    }

    /// A permit to search, or 503 once the wait is over.
    pub async fn enter(&self) -> Result<SearchPermit, Problem> {
        self.enter_within(self.queue_wait).await
    }

    /// The same with a shorter wait (a search of a batch waits no longer
    /// than the batch's time left).
    pub async fn enter_within(&self, wait: Duration) -> Result<SearchPermit, Problem> {
        match tokio::time::timeout(wait, Arc::clone(&self.permits).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(SearchPermit {
                _permit: permit,
                _core: cores::searching(),
            }),
            _ => {
                metrics::counter!("kibitz_search_rejected_total").increment(1);
                Err(Problem::unavailable(
                    format!(
                        "all {} search workers are busy; try again in a moment",
                        self.concurrency
                    ),
                    1,
                ))
            }
        }
    }

    /// How long a search waits for a worker before it is refused.
    pub fn queue_wait(&self) -> Duration {
        self.queue_wait
    }

    pub fn busy(&self) -> usize {
        self.concurrency - self.permits.available_permits()
    }

    pub fn concurrency(&self) -> usize {
        self.concurrency
    }
}
