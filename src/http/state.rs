//! What every handler can reach. Cheap to clone: everything is behind `Arc`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::config::Config;
use crate::store::Store;
use crate::tables::cache::PigTables;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pig_tables: Arc<PigTables>,
    pub store: Store,
    draining: Arc<AtomicBool>,
}

impl AppState {
    pub fn new(config: Config, pig_tables: Arc<PigTables>, store: Store) -> Self {
        Self {
            config: Arc::new(config),
            pig_tables,
            store,
            draining: Arc::new(AtomicBool::new(false)),
        }
    }

    /// From now on /readyz answers 503 so that load balancers stop sending.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Release);
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }
}
