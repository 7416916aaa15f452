//! A bounded pool of gnubg processes, shared fairly between clients.
//!
//! Written beside `crate::engines::pool` rather than generalizing it: that
//! pool is built around UCI's search life cycle (options at start-up,
//! `ucinewgame`/`isready` before each search, `stop` and a best-so-far
//! answer when a client waits or goes away, a session's hash kept), none
//! of which a gnubg question has. A question is one line out and one line
//! back, which gnubg cannot interrupt, so this pool keeps only the shared
//! parts: [`crate::fair::FairGate`] for the permits (a freed process goes
//! to the waiting client holding fewest; questions are short and bounded
//! by their budget, so none is asked to yield), the binary looked up like
//! the chess engines', processes started at first use, and a process that
//! errs in any way (dies, hangs, answers garbage or past its deadline, or
//! is abandoned mid-question by a client that hung up) killed, the next
//! question starting a fresh one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;

use super::process::GnubgProcess;
use super::protocol::{
    plies_for_budget, request, CubeDecision, Evaluation, MoveAnalysis, Situation, Strength, MAX_PLIES,
};
use super::GnubgError;
use crate::engines::{EngineConfig, EngineError, ProcessBook};
use crate::fair::{current_client, FairGate, Pass, UNKNOWN_CLIENT};
use crate::solve::limits::SearchLimits;

/// The bridge script, shipped inside the kibitz binary and written to a
/// private directory at first use (gnubg runs Python from a file only).
const BRIDGE: &str = include_str!("bridge.py");

/// What the error says when there is no gnubg.
pub const INSTALL_HINT: &str =
    "GNU Backgammon is not installed: install gnubg: apt-get install gnubg (Debian/Ubuntu; it goes to /usr/games/gnubg)";

#[derive(Clone, Debug)]
pub struct GnubgConfig {
    /// An explicit binary; None: `gnubg` on PATH, then /usr/games and the
    /// other places Debian-like systems put games.
    pub path: Option<PathBuf>,
    /// Processes at most; 0 means one per available core (as for chess).
    pub count: usize,
    /// How long a question waits for a free process before `Busy` (never
    /// past its own deadline).
    pub queue_wait: Duration,
    /// Bound on a new process's start, up to the bridge's `ready`.
    pub start_timeout: Duration,
    /// How long past its budget an answer may come before the process is
    /// declared hung and killed: the most a response overruns its budget
    /// on gnubg's account. The depth is chosen to fit the budget
    /// ([`plies_for_budget`]), so this only catches the unusual position.
    pub answer_grace: Duration,
}

impl Default for GnubgConfig {
    fn default() -> Self {
        GnubgConfig {
            path: None,
            count: 0,
            queue_wait: Duration::from_secs(10),
            start_timeout: Duration::from_secs(10),
            answer_grace: Duration::from_secs(5),
        }
    }
}

impl GnubgConfig {
    /// The number of processes this configuration allows.
    pub fn process_count(&self) -> usize {
        self.engine_config().process_count()
    }

    /// The binary to run, or the reason there is none (how to install it).
    pub fn resolve(&self) -> Result<PathBuf, String> {
        self.engine_config().resolve()
    }

    /// The chess engines' configuration, for their lookup of the binary
    /// and their process count (the same rules for both).
    fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            program: "gnubg".to_string(),
            path: self.path.clone(),
            count: self.count,
            install_hint: INSTALL_HINT.to_string(),
            ..EngineConfig::stockfish()
        }
    }
}

#[derive(Clone)]
pub struct GnubgPool {
    inner: Arc<Inner>,
}

struct Inner {
    config: GnubgConfig,
    book: ProcessBook,
    permits: FairGate,
    idle: Mutex<Vec<GnubgProcess>>,
    files: OnceLock<Result<BridgeFiles, String>>,
}

/// The private directory holding `bridge.py` (and gnubg's preferences, so
/// that it writes nothing to the service's home); removed with the pool.
struct BridgeFiles {
    dir: PathBuf,
    script: PathBuf,
}

impl BridgeFiles {
    fn create() -> Result<Self, String> {
        use std::os::unix::fs::DirBuilderExt;
        let base = std::env::temp_dir();
        // A fresh name each try: an existing directory (another user's, in
        // a shared /tmp) is never written into.
        for _ in 0..8 {
            let dir = base.join(format!(
                "kibitz-gnubg-{}-{:016x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => {
                    let script = dir.join("bridge.py");
                    std::fs::write(&script, BRIDGE).map_err(|e| format!("writing {}: {e}", script.display()))?;
                    return Ok(BridgeFiles { dir, script });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("creating {}: {e}", dir.display())),
            }
        }
        Err(format!("no fresh directory for gnubg's bridge in {}", base.display()))
    }
}

impl Drop for BridgeFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl GnubgPool {
    /// A pool for this configuration. Starts no process: the binary is
    /// only looked up, so a server without gnubg still starts (and says
    /// [`GnubgPool::is_available`] false).
    pub fn new(config: GnubgConfig) -> Self {
        let binary = config.resolve();
        let count = config.process_count();
        GnubgPool {
            inner: Arc::new(Inner {
                book: ProcessBook::new(binary, count, "kibitz_gnubg_killed_total"),
                // Never asked to yield (no stop flags): the slice is unused.
                permits: FairGate::new(count, Duration::from_secs(1)),
                idle: Mutex::new(Vec::new()),
                files: OnceLock::new(),
                config,
            }),
        }
    }

    /// True when gnubg was found (it may still fail to start).
    pub fn is_available(&self) -> bool {
        self.inner.book.is_available()
    }

    /// Why there is no gnubg, in words for a client (how to install it).
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.inner.book.unavailable_reason()
    }

    /// The binary, the bound and the processes started, killed and running.
    pub fn processes(&self) -> &ProcessBook {
        &self.inner.book
    }

    /// Every legal play for `dice` in `situation`, ranked, each with its
    /// equity and chances. The depth is the strength's, at most what
    /// `limits` affords.
    pub async fn moves(
        &self,
        situation: &Situation,
        dice: [u8; 2],
        strength: &Strength,
        limits: &SearchLimits,
    ) -> Result<MoveAnalysis, GnubgError> {
        self.call("move", situation, Some(dice), strength, limits).await
    }

    /// gnubg's cube decision for the side on roll, before rolling.
    pub async fn cube(
        &self,
        situation: &Situation,
        strength: &Strength,
        limits: &SearchLimits,
    ) -> Result<CubeDecision, GnubgError> {
        self.call("cube", situation, None, strength, limits).await
    }

    /// The position's value for the side on roll, before rolling.
    pub async fn evaluate(
        &self,
        situation: &Situation,
        strength: &Strength,
        limits: &SearchLimits,
    ) -> Result<Evaluation, GnubgError> {
        self.call("evaluate", situation, None, strength, limits).await
    }

    /// Starts processes up to the pool's size ahead of the first questions
    /// (optional: without it they start at first use). Returns how many
    /// are idle afterwards.
    pub async fn warm_up(&self) -> Result<usize, GnubgError> {
        let binary = self.inner.book.binary_or_unavailable()?;
        // Holding every free permit, the idle processes should number as
        // many: each busy process holds one of the others.
        let mut held = Vec::new();
        while let Some(permit) = self.inner.permits.try_enter(UNKNOWN_CLIENT, None) {
            held.push(permit);
        }
        let idle = self.inner.idle.lock().map(|i| i.len()).unwrap_or(0);
        for _ in idle..held.len() {
            let process = self.spawn(&binary).await?;
            self.inner.put_back(process);
        }
        drop(held);
        Ok(self.inner.idle.lock().map(|i| i.len()).unwrap_or(0))
    }

    async fn call<T: Answered>(
        &self,
        op: &str,
        situation: &Situation,
        dice: Option<[u8; 2]>,
        strength: &Strength,
        limits: &SearchLimits,
    ) -> Result<T, GnubgError> {
        let binary = self.inner.book.binary_or_unavailable()?;
        let wait = self.inner.config.queue_wait.min(limits.remaining());
        // No stop flag: a question cannot be interrupted, and it is short.
        let Some(pass) = self.inner.permits.enter(current_client(), wait, None).await else {
            return Err(self.busy());
        };
        let mut checkout = Checkout {
            pool: Arc::clone(&self.inner),
            process: None,
            _pass: pass,
        };
        let process = match self.inner.take_idle() {
            Some(process) => process,
            None => self.spawn(&binary).await?,
        };
        let process = checkout.process.insert(process);
        // Chosen once the process is in hand: the time spent waiting and
        // starting is the budget's too.
        let plies = strength
            .plies
            .unwrap_or(MAX_PLIES)
            .min(MAX_PLIES)
            .min(plies_for_budget(limits.remaining()));
        let question = request(0, op, situation, plies, strength.noise, dice);
        let deadline = Instant::now() + limits.remaining() + self.inner.config.answer_grace;
        let answer = process.ask(question, deadline).await;
        let parsed = answer.and_then(|value| {
            let mut answer = serde_json::from_value::<T>(value)
                .map_err(|e| EngineError::Protocol(format!("gnubg's {op} answer has the wrong shape: {e}")))?;
            answer.check().map_err(EngineError::Protocol)?;
            answer.set_plies(plies);
            Ok(answer)
        });
        if let Err(GnubgError::Engine(e)) = &parsed {
            tracing::warn!(error = %e, "gnubg failed; killing it, the next question starts a fresh one");
            checkout.kill().await;
        }
        parsed
    }

    fn busy(&self) -> GnubgError {
        metrics::counter!("kibitz_gnubg_busy_total").increment(1);
        EngineError::Busy {
            engines: self.inner.book.size(),
            held: self.inner.permits.held_by(current_client()),
            retry_after_secs: 1,
        }
        .into()
    }

    async fn spawn(&self, binary: &Path) -> Result<GnubgProcess, GnubgError> {
        let files = self
            .inner
            .files
            .get_or_init(BridgeFiles::create)
            .as_ref()
            .map_err(|e| EngineError::Spawn(e.clone()))?;
        let process = GnubgProcess::spawn(binary, &files.script, &files.dir, self.inner.config.start_timeout).await?;
        self.inner.book.started(process.pid());
        tracing::info!(pid = process.pid(), version = process.version(), "gnubg started");
        Ok(process)
    }
}

impl Inner {
    fn take_idle(&self) -> Option<GnubgProcess> {
        self.idle.lock().ok()?.pop()
    }

    fn put_back(&self, process: GnubgProcess) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(process);
        }
    }
}

/// What the pool needs of an answer type beyond reading it.
trait Answered: DeserializeOwned {
    /// What serde cannot say about a well-formed answer.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// The depth the pool asked for (the bridge does not repeat it).
    fn set_plies(&mut self, plies: u8);
}

impl Answered for MoveAnalysis {
    fn check(&self) -> Result<(), String> {
        // Without a legal move the bridge sends the empty play: an empty
        // list is a broken answer.
        if self.plays.is_empty() {
            return Err("a move answer without a play".into());
        }
        Ok(())
    }

    fn set_plies(&mut self, plies: u8) {
        self.plies = plies;
    }
}

impl Answered for CubeDecision {
    fn set_plies(&mut self, plies: u8) {
        self.plies = plies;
    }
}

impl Answered for Evaluation {
    fn set_plies(&mut self, plies: u8) {
        self.plies = plies;
    }
}

/// A process lent to one question, with its permit. Dropped with the
/// process idle, it goes back to the pool; dropped mid-question (the
/// caller's future was dropped), the process is killed: gnubg cannot be
/// interrupted, and a fresh one starts in about 0.15 s.
struct Checkout {
    pool: Arc<Inner>,
    process: Option<GnubgProcess>,
    // Dropped after `process` is dealt with: the permit comes free once
    // the process is back or gone.
    _pass: Pass,
}

impl Checkout {
    async fn kill(&mut self) {
        if let Some(process) = self.process.take() {
            self.pool.book.record_kill(process.pid());
            process.kill().await;
        }
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let Some(process) = self.process.take() else {
            return;
        };
        if process.is_idle() {
            self.pool.put_back(process);
        } else {
            // `kill_on_drop` ends it as `process` goes out of scope.
            self.pool.book.record_kill(process.pid());
        }
    }
}
