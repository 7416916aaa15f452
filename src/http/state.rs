//! What every handler can reach. Cheap to clone: everything is behind `Arc`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::pool::SearchPool;
use crate::config::Config;
use crate::solve::solvers::{MemoSizes, Solvers};
use crate::store::Store;
use crate::tables::cache::PigTables;

use super::review::ReviewCache;
use super::tictactoe::AnswerCache;

/// Handlers extract this once per request: one reference count to bump,
/// however many parts the state has (a struct of Arcs cost ~11% of a
/// /healthz request in profiles).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// Everything the handlers share; reached through [`AppState`].
pub struct Shared {
    pub config: Arc<Config>,
    pub store: Store,
    pub solvers: Solvers,
    pub search_pool: Arc<SearchPool>,
    pub tictactoe_answers: Arc<AnswerCache>,
    pub review_cache: Arc<ReviewCache>,
    draining: AtomicBool,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(config: Config, pig_tables: Arc<PigTables>, store: Store) -> Self {
        let solvers = Solvers::new(
            pig_tables,
            MemoSizes {
                positions: config.memo_capacity,
                ishitori_entries: config.ishitori_cache_entries,
                connect_four_entries: config.connect_four_table_entries,
            },
        );
        let search_pool = Arc::new(SearchPool::new(
            config.search_concurrency,
            Duration::from_millis(config.search_queue_ms),
        ));
        let tictactoe_answers = Arc::new(AnswerCache::new(config.tictactoe_answer_cache));
        let review_cache = Arc::new(ReviewCache::new(config.review_cache));
        Self(Arc::new(Shared {
            config: Arc::new(config),
            store,
            solvers,
            search_pool,
            tictactoe_answers,
            review_cache,
            draining: AtomicBool::new(false),
        }))
    }

    /// From now on /readyz answers 503 so that load balancers stop sending.
    pub fn start_draining(&self) {
        self.0.draining.store(true, Ordering::Release);
    }

    pub fn is_draining(&self) -> bool {
        self.0.draining.load(Ordering::Acquire)
    }
}
