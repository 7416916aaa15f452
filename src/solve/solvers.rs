//! The searchers whose memory outlives one search, one per game that has
//! one: a server shares one set between all its requests, an arena run
//! keeps its own. A game's solver is a [`GameSolver`]: built from the
//! sizes at its first use and reached by its type (`solvers.of::<S>()`) by
//! every caller (the endpoints, matches, the arena, reviews), so that no
//! list here names the games.

use std::any::{Any, TypeId};
use std::sync::Arc;

use dashmap::DashMap;

use crate::games::pig::tables::cache::PigTables;

/// How much each memo may hold.
#[derive(Clone, Copy, Debug)]
pub struct MemoSizes {
    /// Positions remembered by the tic-tac-toe and Number Square searches.
    pub positions: usize,
    /// Win/loss sequences kept by the subtraction-game solver (Ishitori)
    /// for short positions.
    pub sequence_entries: usize,
    /// Each transposition table of a game that searches with one (Connect
    /// Four, Othello: one table each), 16 bytes an entry.
    pub table_entries: usize,
    /// Finished answers kept whole by the games that keep them (tic-tac-toe).
    pub answers: usize,
}

impl MemoSizes {
    /// What a solver of its own (the arena's) keeps of win/loss sequences.
    pub const DEFAULT_SEQUENCE_ENTRIES: usize = 1024;
}

/// Each solver behind an `Arc`, so that a search can take its own handle
/// onto a blocking thread.
#[derive(Clone)]
pub struct Solvers {
    pub pig_tables: Arc<PigTables>,
    sizes: MemoSizes,
    /// Each game's solver by its type, built at first use.
    by_type: Arc<DashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

/// A game's searcher with memory that outlives one search (a memo, a
/// transposition table), built from the configured sizes.
pub trait GameSolver: Send + Sync + 'static {
    fn build(sizes: &MemoSizes) -> Self;
}

impl Solvers {
    pub fn new(pig_tables: Arc<PigTables>, sizes: MemoSizes) -> Solvers {
        Solvers {
            pig_tables,
            sizes,
            by_type: Arc::new(DashMap::new()),
        }
    }

    /// The solver of type `S`: the one this set already has, or a new one
    /// built now (two first uses at once keep the same one).
    pub fn of<S: GameSolver>(&self) -> Arc<S> {
        self.of_with(|| S::build(&self.sizes))
    }

    /// The solver of type `S`, built by `build` at its first use: for a
    /// solver made from more than the memo sizes (an engine pool from the
    /// server's settings).
    pub fn of_with<S: Send + Sync + 'static>(&self, build: impl Fn() -> S) -> Arc<S> {
        let key = TypeId::of::<S>();
        if let Some(found) = self
            .by_type
            .get(&key)
            .and_then(|s| Arc::clone(s.value()).downcast::<S>().ok())
        {
            return found;
        }
        let entry = self
            .by_type
            .entry(key)
            .or_insert_with(|| Arc::new(build()) as Arc<dyn Any + Send + Sync>);
        match Arc::clone(entry.value()).downcast::<S>() {
            Ok(solver) => solver,
            // Unreachable: the key is the type's own id.
            Err(_) => Arc::new(build()),
        }
    }
}
