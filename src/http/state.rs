//! What every handler can reach. Cheap to clone: everything is behind `Arc`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::config::Config;
use crate::serve::Services;
use crate::solve::pool::SearchPool;
use crate::solve::solvers::{MemoSizes, Solvers};
use crate::store::Store;

use super::review::ReviewCache;

/// Handlers extract this once per request: one reference count to bump,
/// however many parts the state has (a struct of Arcs cost ~11% of a
/// /healthz request in profiles).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// Everything the handlers share; reached through [`AppState`]. What the
/// games' own endpoints may reach ([`Services`]: the settings, the search
/// pool, the solvers) is reached through it too.
pub struct Shared {
    pub services: Services,
    pub store: Store,
    pub review_cache: Arc<ReviewCache>,
    draining: AtomicBool,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl std::ops::Deref for Shared {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}

impl AppState {
    pub fn new(config: Config, store: Store) -> Self {
        let solvers = Solvers::new(MemoSizes::of(&config));
        crate::registry::prepare(&config, &solvers);
        let search_pool = Arc::new(SearchPool::new(
            config.search_concurrency,
            Duration::from_millis(config.search_queue_ms),
            Duration::from_millis(config.default_max_ms),
            Duration::from_millis(config.search_slice_ms),
        ));
        let review_cache = Arc::new(ReviewCache::new(config.review_cache));
        Self(Arc::new(Shared {
            services: Services {
                config: Arc::new(config),
                search_pool,
                solvers,
            },
            store,
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
