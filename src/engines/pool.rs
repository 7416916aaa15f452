//! A bounded pool of engine processes.
//!
//! At most `count` processes, started at first use. A search holds a
//! permit and a process for its whole length, so each search has the
//! engine to itself. Permits are shared fairly between clients
//! ([`crate::fair`]): a freed one goes to the waiting client that holds
//! fewest, and a search that has held its permit for `slice` while a
//! poorer client waits is asked to stop early (it answers from its last
//! complete depth). A search that finds every permit taken waits at most
//! `queue_wait` (and never past its own deadline), then gets
//! [`EngineError::Busy`]. A caller that asks many questions (a review)
//! may hold a permit across them: an [`EngineLease`]. A process that errs in any way (dies, hangs,
//! breaks the protocol) is killed and its permit freed: the next search
//! starts a fresh one, so a crash costs only the request it was serving.
//! A search whose future is dropped (the client hung up) leaves its process
//! to a background task that sends `stop`, waits for the engine to settle
//! and returns it to the pool, or kills it.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use super::book::ProcessBook;
use super::uci::{DepthReport, SearchJob, SearchOutput, UciEngine};
use super::{EngineConfig, EngineError};
use crate::fair::{current_client, FairGate, Pass, UNKNOWN_CLIENT};
use crate::solve::limits::SearchLimits;

type OwnedSemaphorePermit = Pass;

/// A permit to use one engine process, held across searches (a review's
/// positions). Dropping it gives the permit back.
#[derive(Debug)]
pub struct EngineLease {
    pass: Pass,
    /// Set when another client waits and this lease should be given up:
    /// the search under way stops early, and the holder should drop the
    /// lease. None: a lease that never yields.
    stop: Option<Arc<AtomicBool>>,
}

impl EngineLease {
    /// True once the pool asked this lease's holder to give it up.
    pub fn asked_to_yield(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether another client waits for an engine now.
    pub fn others_wait(&self) -> bool {
        self.pass.others_wait()
    }

    /// The flag set when the pool asks for the lease back.
    pub fn yield_flag(&self) -> Option<Arc<AtomicBool>> {
        self.stop.clone()
    }
}

/// A search with less time left than this is refused rather than started:
/// it could not even finish the `isready` round trip.
const MIN_SEARCH: Duration = Duration::from_millis(30);

#[derive(Clone)]
pub struct EnginePool {
    inner: Arc<Inner>,
}

struct Inner {
    config: EngineConfig,
    book: ProcessBook,
    permits: FairGate,
    idle: Mutex<Vec<UciEngine>>,
}

impl EnginePool {
    /// A pool for this configuration. Starts no process: the binary is only
    /// looked up, so a server without the engine still starts (and says
    /// [`EnginePool::is_available`] false).
    pub fn new(config: EngineConfig) -> Self {
        let binary = config.resolve();
        let count = config.process_count();
        EnginePool {
            inner: Arc::new(Inner {
                book: ProcessBook::new(binary, count, "kibitz_engine_killed_total"),
                permits: FairGate::new(count, config.slice),
                idle: Mutex::new(Vec::new()),
                config,
            }),
        }
    }

    /// True when the binary was found (it may still fail to start).
    pub fn is_available(&self) -> bool {
        self.inner.book.is_available()
    }

    /// Why there is no engine, in words for a client (how to install it).
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.inner.book.unavailable_reason()
    }

    /// The binary the pool runs.
    pub fn binary(&self) -> Option<&Path> {
        self.inner.book.binary()
    }

    /// The most processes that run at once.
    pub fn size(&self) -> usize {
        self.inner.book.size()
    }

    /// Processes started so far (restarts included).
    pub fn spawned(&self) -> u64 {
        self.inner.book.spawned()
    }

    /// Processes killed so far (crashed, hung or broken).
    pub fn killed(&self) -> u64 {
        self.inner.book.killed()
    }

    /// The process ids of the running engines.
    pub fn live_pids(&self) -> Vec<u32> {
        self.inner.book.live_pids()
    }

    /// Runs one search on a process of its own, within `limits` (deadline,
    /// node cap, cancellation); `on_depth` hears each completed depth.
    pub async fn search(
        &self,
        job: &SearchJob,
        limits: &SearchLimits,
        on_depth: impl FnMut(&DepthReport) + Send,
    ) -> Result<SearchOutput, EngineError> {
        let lease = self.lease(self.wait_within(limits), true).await?;
        self.search_leased(lease, job, limits, on_depth).await.0
    }

    /// A permit within `wait`, for the current client; `yields`: whether
    /// the pool may ask for it back while another client waits.
    pub async fn lease(&self, wait: Duration, yields: bool) -> Result<EngineLease, EngineError> {
        self.inner.book.binary_or_unavailable()?;
        let stop = yields.then(|| Arc::new(AtomicBool::new(false)));
        match self.inner.permits.enter(current_client(), wait, stop.clone()).await {
            Some(pass) => Ok(EngineLease { pass, stop }),
            None => Err(self.busy()),
        }
    }

    /// A permit at once, if one is free and nobody waits; it yields to
    /// another client that waits.
    pub fn try_lease(&self) -> Option<EngineLease> {
        self.inner.book.binary()?;
        let stop = Arc::new(AtomicBool::new(false));
        let pass = self
            .inner
            .permits
            .try_enter(current_client(), Some(Arc::clone(&stop)))?;
        Some(EngineLease { pass, stop: Some(stop) })
    }

    /// The longest a search waits for a process.
    pub fn queue_wait(&self) -> Duration {
        self.inner.config.queue_wait
    }

    /// How long a search within `limits` may wait for a process: at most
    /// the pool's wait, and never so long that it could not start.
    pub fn wait_within(&self, limits: &SearchLimits) -> Duration {
        self.inner
            .config
            .queue_wait
            .min(limits.remaining().saturating_sub(MIN_SEARCH))
    }

    /// [`EnginePool::search`] under `lease`; gives the lease back when the
    /// process is free again (None when it is still settling, or the
    /// search could not start one in time).
    pub async fn search_leased(
        &self,
        lease: EngineLease,
        job: &SearchJob,
        limits: &SearchLimits,
        mut on_depth: impl FnMut(&DepthReport) + Send,
    ) -> (Result<SearchOutput, EngineError>, Option<EngineLease>) {
        let binary = match self.inner.book.binary_or_unavailable() {
            Ok(binary) => binary,
            Err(e) => return (Err(e), Some(lease)),
        };
        let EngineLease { pass: permit, stop } = lease;
        let limits = match &stop {
            Some(stop) => limits.clone().yielding_to(Arc::clone(stop)),
            None => limits.clone(),
        };
        let limits = &limits;
        let config = &self.inner.config;
        // A lease that never yields (a review's) waits for a process to
        // start however little time its search has left: the search then
        // goes to depth 1 at least, which is better than no answer.
        let start_wait = match stop {
            Some(_) => limits.remaining().saturating_sub(MIN_SEARCH),
            None => config.handshake_timeout + config.ready_timeout,
        };
        let (engine, permit) = match self.take_idle(job.session) {
            Some(engine) => (engine, permit),
            None => match self.start_within(&binary, permit, start_wait).await {
                Ok(started) => started,
                Err(e) => return (Err(e), None),
            },
        };
        let mut checkout = Checkout {
            pool: Arc::clone(&self.inner),
            engine: Some(engine),
            permit: Some(permit),
        };
        let ready_timeout = config.ready_timeout.min(limits.remaining() + config.stop_grace);
        let result = match checkout.engine.as_mut() {
            Some(engine) => match engine.prepare(job, ready_timeout).await {
                Ok(()) => {
                    engine
                        .search(job, limits, config.answer_wait, config.stop_grace, &mut on_depth)
                        .await
                }
                Err(e) => Err(e),
            },
            None => Err(EngineError::Protocol("no engine checked out".into())),
        };
        if let Err(e) = &result {
            tracing::warn!(error = %e, "engine failed; killing it, the next search starts a fresh one");
            checkout.kill().await;
        }
        let lease = checkout.give_back().map(|pass| EngineLease { pass, stop });
        (result, lease)
    }

    fn busy(&self) -> EngineError {
        metrics::counter!("kibitz_engine_busy_total").increment(1);
        EngineError::Busy {
            engines: self.inner.book.size(),
            held: self.inner.permits.held_by(current_client()),
            retry_after_secs: 1,
        }
    }

    /// Starts a process for a search that holds `permit`. Starting takes a
    /// while (Stockfish loads its network: about 0.25 s on this project's
    /// machines), so it runs as a task of its own: a search whose time runs
    /// out first is refused as busy, and the task puts the new process in
    /// the pool when it is ready. The permit travels with the process until
    /// then, so the processes never outnumber the permits.
    async fn start_within(
        &self,
        binary: &Path,
        permit: OwnedSemaphorePermit,
        wait: Duration,
    ) -> Result<(UciEngine, OwnedSemaphorePermit), EngineError> {
        let (tx, rx) = oneshot::channel();
        let pool = self.clone();
        let binary = binary.to_path_buf();
        tokio::spawn(async move {
            let started = pool.spawn(&binary).await.map(|engine| (engine, permit));
            // Nobody waits any more: the process joins the idle ones.
            if let Err(Ok((engine, _permit))) = tx.send(started) {
                pool.inner.put_back(engine);
            }
        });
        match tokio::time::timeout(wait, rx).await {
            Ok(Ok(started)) => started,
            Ok(Err(_)) => Err(EngineError::Spawn("the start-up task ended without an answer".into())),
            Err(_) => Err(self.busy()),
        }
    }

    /// Starts processes up to the pool's size ahead of the first searches
    /// (optional: without it they start at first use). Returns how many
    /// are idle afterwards.
    pub async fn warm_up(&self) -> Result<usize, EngineError> {
        let binary = self.inner.book.binary_or_unavailable()?;
        // Holding every free permit, the idle processes should number as
        // many: each busy process holds one of the others.
        let mut held = Vec::new();
        while let Some(permit) = self.inner.permits.try_enter(UNKNOWN_CLIENT, None) {
            held.push(permit);
        }
        let idle = self.inner.idle.lock().map(|i| i.len()).unwrap_or(0);
        for _ in idle..held.len() {
            let engine = self.spawn(&binary).await?;
            self.inner.put_back(engine);
        }
        drop(held);
        Ok(self.inner.idle.lock().map(|i| i.len()).unwrap_or(0))
    }

    /// Starts one process when none is idle and fewer than the pool's size
    /// run, and waits for it (at most the handshake's bound). A search
    /// that found no process would spend its budget on the start-up (about
    /// 0.3 s) and, under a small `max_ms`, be refused: callers that would
    /// rather answer late once than refuse call this before their budget
    /// starts. Errors are left for the search to meet.
    pub async fn start_one_if_cold(&self) {
        let Ok(binary) = self.inner.book.binary_or_unavailable() else {
            return;
        };
        let idle = self.inner.idle.lock().map(|i| i.len()).unwrap_or(0);
        let live = self.inner.book.live_pids().len();
        if idle > 0 || live >= self.inner.book.size() {
            return;
        }
        let Some(permit) = self.inner.permits.try_enter(UNKNOWN_CLIENT, None) else {
            return;
        };
        let pool = self.clone();
        // A task of its own, so that a caller that goes away does not
        // leave a half-started process behind.
        let start = tokio::spawn(async move {
            if let Ok(engine) = pool.spawn(&binary).await {
                pool.inner.put_back(engine);
            }
            drop(permit);
        });
        let _ = start.await;
    }

    fn take_idle(&self, session: Option<u64>) -> Option<UciEngine> {
        let mut idle = self.inner.idle.lock().ok()?;
        // The process that served this session keeps its hash: prefer it.
        let index = session
            .and_then(|s| idle.iter().position(|e| e.session() == Some(s)))
            .or_else(|| idle.len().checked_sub(1))?;
        Some(idle.swap_remove(index))
    }

    async fn spawn(&self, binary: &Path) -> Result<UciEngine, EngineError> {
        let config = &self.inner.config;
        let mut engine = UciEngine::spawn(binary, config.dialect, config.handshake_timeout).await?;
        self.inner.book.started(engine.pid());
        let setup = async {
            if engine.has_option("Hash") {
                engine.set_option("Hash", &config.hash_mib.to_string()).await?;
            }
            if engine.has_option("Threads") {
                engine.set_option("Threads", &config.threads.to_string()).await?;
            }
            for (name, value) in &config.options {
                engine.set_option(name, value).await?;
            }
            engine.sync(config.ready_timeout).await
        };
        match setup.await {
            Ok(()) => {
                tracing::info!(pid = engine.pid(), name = engine.name(), "engine started");
                Ok(engine)
            }
            Err(e) => {
                self.inner.book.forget(engine.pid());
                engine.kill().await;
                Err(e)
            }
        }
    }
}

impl Inner {
    /// Counts a process killed (crashed, hung, broken) and forgets it.
    fn record_kill(&self, pid: Option<u32>) {
        self.book.record_kill(pid);
    }

    fn put_back(&self, engine: UciEngine) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(engine);
        }
    }
}

/// A process lent to one search, with its permit. Dropped with the process
/// idle, it goes back to the pool; dropped mid-command (the search's future
/// was dropped), a background task recovers or kills it.
struct Checkout {
    pool: Arc<Inner>,
    engine: Option<UciEngine>,
    permit: Option<OwnedSemaphorePermit>,
}

impl Checkout {
    /// The permit back, with the process idle again (or killed), for the
    /// next search of the same holder; None while the process settles.
    fn give_back(mut self) -> Option<OwnedSemaphorePermit> {
        match self.engine.take() {
            None => self.permit.take(),
            Some(engine) if engine.is_idle() => {
                self.pool.put_back(engine);
                self.permit.take()
            }
            Some(engine) => {
                // Drop settles it in the background, holding the permit.
                self.engine = Some(engine);
                None
            }
        }
    }

    async fn kill(&mut self) {
        if let Some(engine) = self.engine.take() {
            self.pool.record_kill(engine.pid());
            engine.kill().await;
        }
        // The permit goes with the checkout's drop: the next search may
        // start a process only once this one is gone.
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        if engine.is_idle() {
            self.pool.put_back(engine);
            return;
        }
        let pool = Arc::clone(&self.pool);
        let permit = self.permit.take();
        let grace = pool.config.stop_grace;
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // No runtime to finish the job: the process dies with `engine`
            // (kill_on_drop).
            pool.record_kill(engine.pid());
            return;
        };
        runtime.spawn(async move {
            // Holding the permit: until this settles, the process is not
            // free for anyone else.
            let _permit = permit;
            match engine.recover(grace, pool.config.ready_timeout).await {
                Ok(()) => pool.put_back(engine),
                Err(e) => {
                    tracing::warn!(error = %e, "an abandoned search did not stop; killing its engine");
                    pool.record_kill(engine.pid());
                    engine.kill().await;
                }
            }
        });
    }
}
