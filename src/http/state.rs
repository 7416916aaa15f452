//! What every handler can reach. Cheap to clone: everything is behind `Arc`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::pool::SearchPool;
use crate::config::Config;
use crate::solve::connect_four::ConnectFourSolver;
use crate::solve::ishitori::{SolverConfig, SubtractionSolver};
use crate::solve::number_square::NumberSquareSolver;
use crate::solve::tictactoe::TicTacToeSolver;
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
    pub pig_tables: Arc<PigTables>,
    pub store: Store,
    pub tictactoe: Arc<TicTacToeSolver>,
    pub ishitori: Arc<SubtractionSolver>,
    pub number_square: Arc<NumberSquareSolver>,
    pub connect_four: Arc<ConnectFourSolver>,
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
        let tictactoe = Arc::new(TicTacToeSolver::new(config.memo_capacity));
        let ishitori = Arc::new(SubtractionSolver::new(SolverConfig {
            short_cache_capacity: config.ishitori_cache_entries,
            ..SolverConfig::default()
        }));
        let number_square = Arc::new(NumberSquareSolver::new(config.memo_capacity));
        let connect_four = Arc::new(ConnectFourSolver::new(config.connect_four_table_entries));
        let search_pool = Arc::new(SearchPool::new(
            config.search_concurrency,
            Duration::from_millis(config.search_queue_ms),
        ));
        let tictactoe_answers = Arc::new(AnswerCache::new(config.tictactoe_answer_cache));
        let review_cache = Arc::new(ReviewCache::new(config.review_cache));
        Self(Arc::new(Shared {
            config: Arc::new(config),
            pig_tables,
            store,
            tictactoe,
            ishitori,
            number_square,
            connect_four,
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
