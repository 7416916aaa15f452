//! The searchers whose memory outlives one search, one per game that has
//! one: a server shares one set between all its requests, an arena run
//! keeps its own. A game's solver is a [`GameSolver`]: built from the
//! sizes at its first use and reached by its type (`solvers.of::<S>()`) by
//! every caller (the endpoints, matches, the arena, reviews), so that no
//! list here names the games.

use std::any::{Any, TypeId};
use std::sync::Arc;

use dashmap::DashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::config::Config;

/// How much each memo may hold.
#[derive(Clone, Copy, Debug)]
pub struct MemoSizes {
    /// Positions remembered by the tic-tac-toe and Number Square searches.
    pub positions: usize,
    /// Bytes of win/loss sequences kept by the subtraction-game solver
    /// (Ishitori).
    pub sequence_bytes: usize,
    /// Each transposition table of a game that searches with one (Connect
    /// Four, Othello: one table each), 16 bytes an entry.
    pub table_entries: usize,
    /// Finished answers kept whole by the games that keep them (tic-tac-toe).
    pub answers: usize,
    /// Threads one search may add while cores are idle (Connect Four).
    pub search_helpers: usize,
}

impl MemoSizes {
    /// What a solver of its own (the arena's) keeps of win/loss sequences.
    pub const DEFAULT_SEQUENCE_BYTES: usize = 64 << 20;

    /// The sizes the server's settings give.
    pub fn of(config: &Config) -> MemoSizes {
        MemoSizes {
            positions: config.memo_capacity,
            sequence_bytes: config.sequence_cache_mib << 20,
            table_entries: config.table_entries,
            answers: config.answer_cache,
            search_helpers: config.search_helpers,
        }
    }
}

/// Solvers by their type. A `TypeId` is already a hash, so it is used as
/// it is: SipHash would cost the hot Pig route's lookup of its tables more
/// than the rest of the lookup.
type ByType = DashMap<TypeId, Arc<dyn Any + Send + Sync>, BuildHasherDefault<TypeIdHasher>>;

#[derive(Default)]
struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= n as u64 ^ (n >> 64) as u64;
    }
}

/// Each solver behind an `Arc`, so that a search can take its own handle
/// onto a blocking thread.
#[derive(Clone)]
pub struct Solvers {
    sizes: MemoSizes,
    /// Each game's solver by its type, built at first use.
    by_type: Arc<ByType>,
    /// The solvers a game built ahead from the server's settings (Pig's
    /// tables), shared with every set made from this one.
    prepared: Arc<ByType>,
}

/// A game's searcher with memory that outlives one search (a memo, a
/// transposition table), built from the configured sizes.
pub trait GameSolver: Send + Sync + 'static {
    fn build(sizes: &MemoSizes) -> Self;
}

impl Solvers {
    pub fn new(sizes: MemoSizes) -> Solvers {
        Solvers {
            sizes,
            by_type: Arc::new(ByType::default()),
            prepared: Arc::new(ByType::default()),
        }
    }

    /// Hands this set a solver built ahead; [`Solvers::of_with`] finds it,
    /// here and in every set made from this one with
    /// [`Solvers::with_sizes`].
    pub fn provide<S: Send + Sync + 'static>(&self, solver: Arc<S>) {
        let key = TypeId::of::<S>();
        let solver: Arc<dyn Any + Send + Sync> = solver;
        self.prepared.insert(key, Arc::clone(&solver));
        self.by_type.insert(key, solver);
    }

    /// A set with memos of its own, of `sizes`, sharing this one's prepared
    /// solvers (an arena run's, beside the server's).
    pub fn with_sizes(&self, sizes: MemoSizes) -> Solvers {
        let by_type = ByType::default();
        for entry in self.prepared.iter() {
            by_type.insert(*entry.key(), Arc::clone(entry.value()));
        }
        Solvers {
            sizes,
            by_type: Arc::new(by_type),
            prepared: Arc::clone(&self.prepared),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes() -> MemoSizes {
        MemoSizes {
            positions: 4,
            sequence_bytes: 1 << 20,
            table_entries: 4,
            answers: 0,
            search_helpers: 0,
        }
    }

    #[test]
    fn each_type_has_one_solver_and_prepared_ones_are_shared_by_derived_sets() {
        struct Built(u32);
        struct Other(u32);
        struct Tables(u32);
        let solvers = Solvers::new(sizes());
        let first = solvers.of_with(|| Built(1));
        assert!(Arc::ptr_eq(&first, &solvers.of_with(|| Built(2))), "built once");
        assert_eq!(solvers.of_with(|| Other(3)).0, 3, "another type, another solver");
        solvers.provide(Arc::new(Tables(4)));
        assert_eq!(solvers.of_with(|| Tables(5)).0, 4, "the prepared one, not a new one");

        let derived = solvers.with_sizes(sizes());
        assert_eq!(derived.of_with(|| Tables(6)).0, 4, "prepared: shared");
        assert_eq!(derived.of_with(|| Built(7)).0, 7, "built: its own");
        assert_eq!(first.0, 1);
    }
}
