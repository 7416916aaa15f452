//! The Pig tables a server keeps in memory.
//!
//! The default tables are pinned: loaded from the data directory at start-up
//! (or solved and written there if missing, corrupt or mismatched) and never
//! evicted. Any other table is solved on first request and kept while the
//! total stays within a byte budget, least recently used out first. Each
//! table has one `OnceCell`, so concurrent first requests solve it once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::OnceCell;

use crate::games::pig::solve::{solve, PigTable};
use crate::games::pig::tables::file;
use crate::games::pig::{PigRules, Variant};

type Slot = Arc<OnceCell<Arc<PigTable>>>;

struct Entry {
    slot: Slot,
    last_used: u64,
}

pub struct PigTables {
    data_dir: PathBuf,
    /// The pinned tables and their slots, also in `entries`: a pinned table is never
    /// evicted, so once it is loaded a request reads it from here without
    /// the lock, the hash or the recency tick.
    pinned_slots: Vec<(PigRules, Slot)>,
    budget_bytes: usize,
    /// The largest goal any request may ask a table for.
    max_goal: u32,
    entries: Mutex<HashMap<PigRules, Entry>>,
    clock: AtomicU64,
    solves: AtomicU64,
    solving: tokio::sync::Semaphore,
}

/// The largest goal when none is set (the server's `--pig-max-goal`
/// default).
pub const DEFAULT_MAX_GOAL: u32 = 200;

/// Tables loaded or solved at the same time, at most.
const CONCURRENT_SOLVES: usize = 2;

#[derive(Debug, thiserror::Error)]
#[error("the table worker stopped before finishing: {0}")]
pub struct TableWorkerError(String);

impl PigTables {
    /// The tables every server has ready: goal 100, six sides, both variants.
    pub fn default_rules() -> Vec<PigRules> {
        Variant::ALL
            .iter()
            .filter_map(|&v| PigRules::new(100, 6, v, 100).ok())
            .collect()
    }

    pub fn new(data_dir: PathBuf, budget_bytes: usize) -> Self {
        let pinned_slots: Vec<(PigRules, Slot)> = Self::default_rules()
            .into_iter()
            .map(|r| (r, Slot::default()))
            .collect();
        let entries = pinned_slots
            .iter()
            .map(|(r, slot)| {
                let entry = Entry {
                    slot: Arc::clone(slot),
                    last_used: 0,
                };
                (*r, entry)
            })
            .collect();
        Self {
            data_dir,
            pinned_slots,
            budget_bytes,
            max_goal: DEFAULT_MAX_GOAL,
            entries: Mutex::new(entries),
            clock: AtomicU64::new(0),
            solves: AtomicU64::new(0),
            solving: tokio::sync::Semaphore::new(CONCURRENT_SOLVES),
        }
    }

    /// These tables, for goals up to `max_goal` (tables grow as goal^3).
    pub fn with_max_goal(mut self, max_goal: u32) -> Self {
        self.max_goal = max_goal;
        self
    }

    /// The largest goal a request may ask a table for.
    pub fn max_goal(&self) -> u32 {
        self.max_goal
    }

    /// How many tables this process has solved (not loaded).
    pub fn solve_count(&self) -> u64 {
        self.solves.load(Ordering::Relaxed)
    }

    fn is_pinned(&self, rules: &PigRules) -> bool {
        self.pinned().any(|r| r == rules)
    }

    fn pinned(&self) -> impl Iterator<Item = &PigRules> {
        self.pinned_slots.iter().map(|(rules, _)| rules)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PigRules, Entry>> {
        // The map is only ever left consistent, so a poisoned lock is usable.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn slot(&self, rules: &PigRules) -> Slot {
        let tick = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.lock();
        let mut added = false;
        let slot = Arc::clone(
            &entries
                .entry(*rules)
                .and_modify(|e| e.last_used = tick)
                .or_insert_with(|| {
                    added = true;
                    Entry {
                        slot: Arc::new(OnceCell::new()),
                        last_used: tick,
                    }
                })
                .slot,
        );
        // The bytes counted only change when a table is added.
        if added {
            self.evict_beyond_budget(&mut entries, rules);
        }
        slot
    }

    fn evict_beyond_budget(&self, entries: &mut HashMap<PigRules, Entry>, keep: &PigRules) {
        loop {
            let unpinned_bytes: usize = entries
                .keys()
                .filter(|r| !self.is_pinned(r))
                .map(PigTable::bytes_for)
                .sum();
            if unpinned_bytes <= self.budget_bytes {
                return;
            }
            let victim = entries
                .iter()
                .filter(|(r, _)| !self.is_pinned(r) && *r != keep)
                .min_by_key(|(_, e)| e.last_used)
                .map(|(r, _)| *r);
            match victim {
                Some(r) => {
                    entries.remove(&r);
                }
                None => return,
            }
        }
    }

    /// A pinned table, once it is loaded.
    pub fn loaded_pinned(&self, rules: &PigRules) -> Option<&Arc<PigTable>> {
        self.pinned_slots
            .iter()
            .find(|(r, _)| r == rules)
            .and_then(|(_, slot)| slot.get())
    }

    /// The table for `rules` if it is in memory now (nothing is solved).
    pub fn cached(&self, rules: &PigRules) -> Option<Arc<PigTable>> {
        if let Some(table) = self.loaded_pinned(rules) {
            return Some(Arc::clone(table));
        }
        let tick = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.lock();
        let entry = entries.get_mut(rules)?;
        let table = entry.slot.get()?;
        entry.last_used = tick;
        Some(Arc::clone(table))
    }

    /// The table for `rules`, loading or solving it if needed (off the async
    /// threads).
    pub async fn get(self: &Arc<Self>, rules: PigRules) -> Result<Arc<PigTable>, TableWorkerError> {
        if let Some(table) = self.loaded_pinned(&rules) {
            return Ok(Arc::clone(table));
        }
        let slot = self.slot(&rules);
        let this = Arc::clone(self);
        slot.get_or_try_init(|| async move {
            // Tables in the making are not yet in the byte budget: bound how
            // many are made at once, so a flood of distinct goals queues
            // instead of exhausting memory.
            let _permit = this
                .solving
                .acquire()
                .await
                .map_err(|e| TableWorkerError(e.to_string()))?;
            let worker = Arc::clone(&this);
            tokio::task::spawn_blocking(move || Arc::new(worker.load_or_solve(&rules)))
                .await
                .map_err(|e| TableWorkerError(e.to_string()))
        })
        .await
        .cloned()
    }

    /// The same, from synchronous code (the CLI, blocking workers).
    pub fn get_blocking(&self, rules: PigRules) -> Arc<PigTable> {
        let slot = self.slot(&rules);
        if let Some(table) = slot.get() {
            return Arc::clone(table);
        }
        // The same bound on concurrent solves as the async path; callers are
        // blocking threads (or none at all, in the CLI), so poll for a permit
        // instead of needing a runtime to wait on.
        let _permit = loop {
            match self.solving.try_acquire() {
                Ok(permit) => break Some(permit),
                Err(tokio::sync::TryAcquireError::Closed) => break None,
                Err(tokio::sync::TryAcquireError::NoPermits) => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    if let Some(table) = slot.get() {
                        return Arc::clone(table);
                    }
                }
            }
        };
        if let Some(table) = slot.get() {
            return Arc::clone(table);
        }
        let table = Arc::new(self.load_or_solve(&rules));
        // Losing a race here only means another caller's equal table is kept.
        let _ = slot.set(Arc::clone(&table));
        table
    }

    /// Loads every pinned table; true once all are in memory.
    pub async fn load_defaults(self: &Arc<Self>) -> Result<(), TableWorkerError> {
        for &rules in self.pinned() {
            self.get(rules).await?;
        }
        Ok(())
    }

    pub fn defaults_ready(&self) -> bool {
        self.pinned_slots.iter().all(|(_, slot)| slot.initialized())
    }

    /// (tables in memory, bytes they take).
    pub fn memory(&self) -> (usize, usize) {
        let entries = self.lock();
        let ready: Vec<usize> = entries
            .values()
            .filter_map(|e| e.slot.get().map(|t| t.size_in_bytes()))
            .collect();
        (ready.len(), ready.iter().sum())
    }

    fn load_or_solve(&self, rules: &PigRules) -> PigTable {
        if !self.is_pinned(rules) {
            return self.solve_now(rules);
        }
        let path = file::path_in(&self.data_dir, rules);
        let started = Instant::now();
        match file::load(&path, rules) {
            Ok(table) => {
                let seconds = started.elapsed().as_secs_f64();
                metrics::histogram!("kibitz_pig_table_load_seconds").record(seconds);
                tracing::info!(path = %path.display(), seconds, "loaded Pig table");
                return table;
            }
            Err(file::TableFileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                tracing::info!(path = %path.display(), "no Pig table file yet; solving it")
            }
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "Pig table unusable; solving it again")
            }
        }
        let table = self.solve_now(rules);
        match file::save(&path, &table) {
            Ok(()) => tracing::info!(path = %path.display(), "wrote Pig table"),
            Err(error) => {
                tracing::error!(path = %path.display(), %error, "could not write Pig table; serving it from memory")
            }
        }
        table
    }

    fn solve_now(&self, rules: &PigRules) -> PigTable {
        let started = Instant::now();
        let table = solve(rules);
        let seconds = started.elapsed().as_secs_f64();
        self.solves.fetch_add(1, Ordering::Relaxed);
        metrics::histogram!("kibitz_solver_seconds", "solver" => "pig").record(seconds);
        tracing::info!(?rules, seconds, "solved Pig table");
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(goal: i64) -> PigRules {
        PigRules::new(goal, 6, Variant::Standard, 200).unwrap()
    }

    #[tokio::test]
    async fn concurrent_first_requests_solve_a_table_once() {
        let dir = std::env::temp_dir().join(format!("kibitz-cache-{}", std::process::id()));
        let tables = Arc::new(PigTables::new(dir, 1 << 30));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let t = Arc::clone(&tables);
                tokio::spawn(async move { t.get(rules(40)).await.map(|t| t.win_probability(0, 0, 0)) })
            })
            .collect();
        let mut values = Vec::new();
        for h in handles {
            values.push(h.await.unwrap().unwrap());
        }
        assert!(values.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(tables.solve_count(), 1);
    }

    #[tokio::test]
    async fn the_cache_stays_within_its_byte_budget() {
        let dir = std::env::temp_dir().join("kibitz-cache-budget");
        let budget = PigTable::bytes_for(&rules(30)) * 2;
        let tables = Arc::new(PigTables::new(dir, budget));
        for goal in 20..=30 {
            tables.get(rules(goal)).await.unwrap();
            assert!(tables.memory().1 <= budget, "goal {goal}: {:?}", tables.memory());
        }
        // The most recent table is still there: asking again solves nothing.
        let before = tables.solve_count();
        tables.get(rules(30)).await.unwrap();
        assert_eq!(tables.solve_count(), before);
    }
}
