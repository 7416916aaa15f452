//! A concurrent memo shared by all requests, bounded in size.
//!
//! Two generations of `DashMap`: new entries go to the young one; when it is
//! full, it becomes the old one and the previous old one is dropped. A hit in
//! the old generation is copied back into the young one, so positions that
//! keep being asked about survive. Memory stays below two generations' worth
//! of entries however many distinct positions the clients send.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use dashmap::DashMap;

type Generation<K, V> = Arc<DashMap<K, V>>;

pub struct BoundedMemo<K, V> {
    generations: RwLock<(Generation<K, V>, Generation<K, V>)>,
    per_generation: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    pub entries: usize,
    pub capacity: usize,
    pub hits: u64,
    pub misses: u64,
}

impl<K: Eq + Hash + Clone, V: Clone> BoundedMemo<K, V> {
    /// `capacity` is the most entries kept at once (at least 2).
    pub fn new(capacity: usize) -> Self {
        let per_generation = (capacity / 2).max(1);
        Self {
            generations: RwLock::new((Arc::new(DashMap::new()), Arc::new(DashMap::new()))),
            per_generation,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn current(&self) -> (Generation<K, V>, Generation<K, V>) {
        // A poisoned lock only means another thread panicked mid-swap; the
        // maps themselves are still consistent, so keep using them.
        let guard = self.generations.read().unwrap_or_else(|e| e.into_inner());
        (Arc::clone(&guard.0), Arc::clone(&guard.1))
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let (young, old) = self.current();
        if let Some(v) = young.get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some(v.clone());
        }
        if let Some(v) = old.get(key).map(|v| v.clone()) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            self.insert_into(&young, key.clone(), v.clone());
            return Some(v);
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        None
    }

    pub fn insert(&self, key: K, value: V) {
        let (young, _) = self.current();
        self.insert_into(&young, key, value);
    }

    fn insert_into(&self, young: &Generation<K, V>, key: K, value: V) {
        young.insert(key, value);
        if young.len() >= self.per_generation {
            let dropped = {
                let mut guard = self.generations.write().unwrap_or_else(|e| e.into_inner());
                // Another thread may have rotated already.
                if Arc::ptr_eq(&guard.0, young) {
                    let retired = std::mem::replace(&mut guard.0, Arc::new(DashMap::new()));
                    Some(std::mem::replace(&mut guard.1, retired))
                } else {
                    None
                }
            };
            // Freeing a large generation takes a while: not under the lock.
            drop(dropped);
        }
    }

    pub fn stats(&self) -> MemoStats {
        let (young, old) = self.current();
        MemoStats {
            entries: young.len() + old.len(),
            capacity: self.per_generation * 2,
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_holds_more_than_its_capacity() {
        let memo = BoundedMemo::new(100);
        for i in 0..10_000u32 {
            memo.insert(i, i * 2);
            assert!(memo.stats().entries <= 100, "entries {}", memo.stats().entries);
        }
        assert_eq!(memo.get(&9_999), Some(19_998));
        assert_eq!(memo.get(&0), None);
    }

    #[test]
    fn an_old_entry_that_is_read_survives_the_next_rotation() {
        let memo = BoundedMemo::new(10);
        memo.insert(1u32, 1u32);
        for i in 100..104 {
            memo.insert(i, i);
        }
        // 1 now sits in the old generation; reading it promotes it.
        assert_eq!(memo.get(&1), Some(1));
        for i in 200..203 {
            memo.insert(i, i);
        }
        assert_eq!(memo.get(&1), Some(1));
        let stats = memo.stats();
        assert_eq!(stats.hits, 2);
    }
}
