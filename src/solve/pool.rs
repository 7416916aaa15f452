//! The bounded pool that expensive searches run in.
//!
//! Each search holds a permit for as long as its blocking thread works, so
//! at most `concurrency` searches use the CPU at once. Permits are shared
//! fairly between clients ([`crate::fair`]): a freed permit goes to the
//! waiting client that holds fewest, and a search that has held its permit
//! for `slice` while a poorer client waits is asked to stop early (it
//! answers its best so far). A request waits at most its own budget (and
//! at most `queue_wait`), then gets 503 with Retry-After. Lookups (Pig
//! decisions, cached answers, the quick first try of a search) never
//! enter the pool.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::cores;
use crate::core::problem::Problem;
use crate::fair::{current_client, FairGate, Pass};

/// A search's place in the pool, and its core counted as busy (so that no
/// other search takes it for a helper thread), until dropped.
#[derive(Debug)]
pub struct SearchPermit {
    _pass: Pass,
    _core: cores::Busy,
}

pub struct SearchPool {
    gate: FairGate,
    queue_wait: Duration,
    default_wait: Duration,
}

impl SearchPool {
    /// `concurrency` 0 means one search per CPU. A search waits at most
    /// `queue_wait` for a permit (and never past its budget); work without
    /// a budget of its own (a match's move, a Pig table) waits at most
    /// `default_wait` (the default budget). A search yields its permit to
    /// a poorer client after `slice`.
    pub fn new(concurrency: usize, queue_wait: Duration, default_wait: Duration, slice: Duration) -> Self {
        let concurrency = if concurrency == 0 {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        } else {
            concurrency
        };
        Self {
            gate: FairGate::new(concurrency, slice),
            queue_wait,
            default_wait: default_wait.min(queue_wait),
        }
    }

    /// A permit for bounded work that cannot stop early (it is never asked
    /// to yield), or 503 once the default wait is over.
    pub async fn enter(&self) -> Result<SearchPermit, Problem> {
        self.admit(self.default_wait, None).await
    }

    /// A permit within `wait` (a request's budget; at most the pool's
    /// longest wait) for a search that stops early once `stop` is set.
    pub async fn enter_within(&self, wait: Duration, stop: Arc<AtomicBool>) -> Result<SearchPermit, Problem> {
        self.admit(wait.min(self.queue_wait), Some(stop)).await
    }

    async fn admit(&self, wait: Duration, stop: Option<Arc<AtomicBool>>) -> Result<SearchPermit, Problem> {
        match self.gate.enter(current_client(), wait, stop).await {
            Some(pass) => Ok(SearchPermit {
                _pass: pass,
                _core: cores::searching(),
            }),
            None => {
                metrics::counter!("kibitz_search_rejected_total").increment(1);
                let held = self.gate.held_by(current_client());
                if held > 0 {
                    return Err(Problem::too_many_requests(
                        format!(
                            "this client's own requests hold {held} of the {} search workers: send fewer at \
                             once, or try again in a moment",
                            self.gate.capacity()
                        ),
                        1,
                    ));
                }
                Err(Problem::unavailable(
                    format!(
                        "all {} search workers stayed busy for as long as this request could wait; \
                         try again in a moment",
                        self.gate.capacity()
                    ),
                    1,
                ))
            }
        }
    }

    /// The longest a search waits for a worker before it is refused.
    pub fn queue_wait(&self) -> Duration {
        self.queue_wait
    }

    pub fn busy(&self) -> usize {
        self.gate.busy()
    }

    pub fn concurrency(&self) -> usize {
        self.gate.capacity()
    }
}
