//! Stored matches given the record they lack. A row stored before records
//! were kept, or last moved by a replica of such a version, has none at
//! its ply; its history replays to one (`Match::rebuild_record`). Every
//! such row is rewritten once at start-up, after the migrations; a row an
//! older replica moves later is rewritten when it is next played.

use std::time::Instant;

use crate::matches::HistoryEntry;
use crate::solve::solvers::Solvers;
use crate::store::{Store, StoreError, StoredMatch};

/// Rows read and rewritten at a time.
const BATCH: u64 = 256;

/// What a start-up rewrite did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rewritten {
    pub rewritten: u64,
    /// Rows whose history does not replay to their state (logged, left
    /// as they are: their next move answers 500).
    pub failed: u64,
}

/// The match's whole history, as the replay reads it.
pub fn entries(stored: &StoredMatch) -> Vec<HistoryEntry> {
    stored.history.iter().map(|event| event.entry.clone()).collect()
}

/// Rewrites every row without a record at its ply, each from its history.
pub async fn rewrite_unrecorded(store: &Store, solvers: &Solvers) -> Result<Rewritten, StoreError> {
    let started = Instant::now();
    let mut done = Rewritten::default();
    let mut failed_ids = std::collections::HashSet::new();
    loop {
        let ids = store.unrecorded_matches(BATCH + failed_ids.len() as u64).await?;
        let fresh: Vec<String> = ids.into_iter().filter(|id| !failed_ids.contains(id)).collect();
        if fresh.is_empty() {
            break;
        }
        for id in fresh {
            let Some(mut stored) = store.load_match(&id).await? else {
                continue; // purged meanwhile
            };
            let history = entries(&stored);
            let solvers = solvers.clone();
            let rebuilt =
                tokio::task::spawn_blocking(move || stored.game.rebuild_record(&history, &solvers).map(|()| stored))
                    .await;
            match rebuilt {
                Ok(Ok(stored)) => {
                    // False when a move came first: it wrote a record.
                    store.save_record(&id, &stored.game).await?;
                    done.rewritten += 1;
                }
                Ok(Err(error)) => {
                    tracing::error!(match_id = %id, %error, "a stored match's history does not replay; left as it is");
                    failed_ids.insert(id);
                    done.failed += 1;
                }
                Err(error) => {
                    tracing::error!(match_id = %id, %error, "rebuilding a stored match's record failed");
                    failed_ids.insert(id);
                    done.failed += 1;
                }
            }
        }
    }
    if done != Rewritten::default() {
        tracing::info!(
            rewritten = done.rewritten,
            failed = done.failed,
            ms = started.elapsed().as_millis() as u64,
            "stored matches given their records"
        );
    }
    Ok(done)
}
