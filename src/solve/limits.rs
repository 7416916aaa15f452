//! How long and how far a search may go. Every search checks these, so no
//! request can run past its time budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct SearchLimits {
    deadline: Instant,
    max_nodes: u64,
    cancelled: Arc<AtomicBool>,
    /// Flags that also stop the search, without cancelling the request:
    /// the admission's request to yield a worker or an engine to another
    /// client (see [`crate::fair`]).
    yields: Vec<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// A search that may run for `budget` from now.
    pub fn within(budget: Duration) -> Self {
        Self {
            deadline: Instant::now() + budget,
            max_nodes: u64::MAX,
            cancelled: Arc::new(AtomicBool::new(false)),
            yields: Vec::new(),
        }
    }

    /// Also stop after this many nodes (benchmarks and tests use it to be
    /// repeatable regardless of machine speed).
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// A share of this budget: the same node cap and cancellation, a
    /// deadline at most `budget` from now (never past this one's). A review
    /// hands each position a slice of the request's one budget.
    pub fn slice(&self, budget: Duration) -> SearchLimits {
        SearchLimits {
            deadline: self.deadline.min(Instant::now() + budget),
            max_nodes: self.max_nodes,
            cancelled: Arc::clone(&self.cancelled),
            yields: self.yields.clone(),
        }
    }

    /// A quick first try within this budget: the same deadline and
    /// cancellation, at most `nodes` nodes.
    pub fn quick(&self, nodes: u64) -> SearchLimits {
        SearchLimits {
            deadline: self.deadline,
            max_nodes: self.max_nodes.min(nodes),
            cancelled: Arc::clone(&self.cancelled),
            yields: self.yields.clone(),
        }
    }

    /// Time left before the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    pub fn max_nodes(&self) -> u64 {
        self.max_nodes
    }

    /// A handle the caller keeps to stop the search early (e.g. when the
    /// client disconnects or the server drains).
    pub fn cancel_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// The same limits, also stopped (early, with the best so far) once
    /// `flag` is set: the flag an admission sets to have the search yield
    /// its worker or engine.
    pub fn yielding_to(mut self, flag: Arc<AtomicBool>) -> Self {
        self.yields.push(flag);
        self
    }

    /// True when the search was cancelled or asked to yield: its answer is
    /// weaker than its budget would give, and no cache keeps it.
    pub fn stopped_early(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed) || self.yielded()
    }

    /// True when the search was asked to yield.
    pub fn yielded(&self) -> bool {
        self.yields.iter().any(|y| y.load(Ordering::Relaxed))
    }

    /// True once the deadline has passed, the node budget is spent, or the
    /// search was cancelled or asked to yield. Cheap enough to call every
    /// few thousand nodes.
    pub fn exhausted(&self, nodes: u64) -> bool {
        nodes >= self.max_nodes
            || self.cancelled.load(Ordering::Relaxed)
            || Instant::now() >= self.deadline
            || self.yielded()
    }
}
