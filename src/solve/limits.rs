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
}

impl SearchLimits {
    /// A search that may run for `budget` from now.
    pub fn within(budget: Duration) -> Self {
        Self {
            deadline: Instant::now() + budget,
            max_nodes: u64::MAX,
            cancelled: Arc::new(AtomicBool::new(false)),
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
        }
    }

    /// A quick first try within this budget: the same deadline and
    /// cancellation, at most `nodes` nodes.
    pub fn quick(&self, nodes: u64) -> SearchLimits {
        SearchLimits {
            deadline: self.deadline,
            max_nodes: self.max_nodes.min(nodes),
            cancelled: Arc::clone(&self.cancelled),
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

    /// True once the deadline has passed, the node budget is spent, or the
    /// search was cancelled. Cheap enough to call every few thousand nodes.
    pub fn exhausted(&self, nodes: u64) -> bool {
        nodes >= self.max_nodes || self.cancelled.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}
