//! What every pool of external processes keeps track of, whatever it
//! speaks to them: the binary (or why there is none, in words for a
//! client), the most processes it runs, and those started, killed and
//! running. Shared by the UCI engines' pool and gnubg's.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::EngineError;

#[derive(Debug)]
pub struct ProcessBook {
    binary: Result<PathBuf, String>,
    count: usize,
    live_pids: Mutex<Vec<u32>>,
    spawned: AtomicU64,
    killed: AtomicU64,
    /// The counter a kill increments (one per kind of pool).
    killed_metric: &'static str,
}

impl ProcessBook {
    /// The book of a pool of at most `count` processes of `binary`.
    pub fn new(binary: Result<PathBuf, String>, count: usize, killed_metric: &'static str) -> Self {
        ProcessBook {
            binary,
            count,
            live_pids: Mutex::new(Vec::new()),
            spawned: AtomicU64::new(0),
            killed: AtomicU64::new(0),
            killed_metric,
        }
    }

    /// True when the binary was found (it may still fail to start).
    pub fn is_available(&self) -> bool {
        self.binary.is_ok()
    }

    /// Why there is no binary, in words for a client (how to install it).
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.binary.as_ref().err().map(String::as_str)
    }

    /// The binary the pool runs.
    pub fn binary(&self) -> Option<&Path> {
        self.binary.as_ref().ok().map(PathBuf::as_path)
    }

    /// The binary, or [`EngineError::Unavailable`] saying how to install it.
    pub fn binary_or_unavailable(&self) -> Result<PathBuf, EngineError> {
        self.binary.clone().map_err(EngineError::Unavailable)
    }

    /// The most processes that run at once.
    pub fn size(&self) -> usize {
        self.count
    }

    /// Processes started so far (restarts included).
    pub fn spawned(&self) -> u64 {
        self.spawned.load(Ordering::Relaxed)
    }

    /// Processes killed so far (crashed, hung, broken or abandoned).
    pub fn killed(&self) -> u64 {
        self.killed.load(Ordering::Relaxed)
    }

    /// The process ids of the running processes.
    pub fn live_pids(&self) -> Vec<u32> {
        self.live_pids.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// Counts a process started, and remembers its id.
    pub fn started(&self, pid: Option<u32>) {
        self.spawned.fetch_add(1, Ordering::Relaxed);
        if let (Some(pid), Ok(mut pids)) = (pid, self.live_pids.lock()) {
            pids.push(pid);
        }
    }

    /// Counts a process killed and forgets it.
    pub fn record_kill(&self, pid: Option<u32>) {
        self.killed.fetch_add(1, Ordering::Relaxed);
        metrics::counter!(self.killed_metric).increment(1);
        self.forget(pid);
    }

    /// Forgets a process that is gone.
    pub fn forget(&self, pid: Option<u32>) {
        if let (Some(pid), Ok(mut pids)) = (pid, self.live_pids.lock()) {
            pids.retain(|p| *p != pid);
        }
    }
}
