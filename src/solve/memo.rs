//! A concurrent memo shared by all requests, bounded in size.
//!
//! Two generations of `DashMap`: new entries go to the young one; when it is
//! full, it becomes the old one and the previous old one is dropped. A hit in
//! the old generation is copied back into the young one, so positions that
//! keep being asked about survive. Memory stays below two generations' worth
//! of entries however many distinct positions the clients send.
//!
//! "Full" counts entries ([`BoundedMemo::new`]) or bytes
//! ([`BoundedMemo::by_bytes`]): a memo whose values differ widely in size
//! (a written-out answer, a periodic sequence) is bounded by the bytes its
//! entries really hold, so that `--memory-mib` holds whatever is asked.

use std::hash::Hash;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use dashmap::DashMap;

/// One generation: its entries and what they weigh together.
struct Generation<K, V> {
    map: DashMap<K, V>,
    weight: AtomicUsize,
}

impl<K: Eq + Hash, V> Generation<K, V> {
    fn new() -> Arc<Self> {
        Arc::new(Generation {
            map: DashMap::new(),
            weight: AtomicUsize::new(0),
        })
    }
}

/// How a generation's fill is counted.
#[derive(Clone, Copy)]
enum Weight<K, V> {
    /// Each entry is 1.
    Entries,
    /// Each entry is the bytes it holds: what the function says its key
    /// and value hold on the heap, plus its slot in the hash table.
    Bytes(fn(&K, &V) -> usize),
}

impl<K, V> Weight<K, V> {
    fn of(&self, key: &K, value: &V) -> usize {
        match self {
            Weight::Entries => 1,
            // The slot counted twice: a table grown by doubling is up to
            // half empty.
            Weight::Bytes(heap_bytes) => heap_bytes(key, value).saturating_add(2 * size_of::<(K, V)>()),
        }
    }
}

/// The young generation and the old one.
type Generations<K, V> = (Arc<Generation<K, V>>, Arc<Generation<K, V>>);

pub struct BoundedMemo<K, V> {
    generations: RwLock<Generations<K, V>>,
    /// A generation is full at this weight (entries or bytes).
    per_generation: usize,
    weight: Weight<K, V>,
    hits: AtomicU64,
    misses: AtomicU64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    pub entries: usize,
    /// The most entries kept (for a memo bounded by bytes: the bytes).
    pub capacity: usize,
    pub hits: u64,
    pub misses: u64,
}

impl<K: Eq + Hash + Clone, V: Clone> BoundedMemo<K, V> {
    /// `capacity` is the most entries kept at once (at least 2).
    pub fn new(capacity: usize) -> Self {
        Self::weighed(capacity, Weight::Entries)
    }

    /// At most `bytes` held by the entries at once, each weighing what
    /// `heap_bytes` says its key and value hold on the heap plus its slot
    /// in the hash table. An entry heavier than half the budget (one
    /// generation) is not kept.
    pub fn by_bytes(bytes: usize, heap_bytes: fn(&K, &V) -> usize) -> Self {
        Self::weighed(bytes, Weight::Bytes(heap_bytes))
    }

    fn weighed(capacity: usize, weight: Weight<K, V>) -> Self {
        Self {
            generations: RwLock::new((Generation::new(), Generation::new())),
            per_generation: (capacity / 2).max(1),
            weight,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn current(&self) -> Generations<K, V> {
        // A poisoned lock only means another thread panicked mid-swap; the
        // maps themselves are still consistent, so keep using them.
        let guard = self.generations.read().unwrap_or_else(|e| e.into_inner());
        (Arc::clone(&guard.0), Arc::clone(&guard.1))
    }

    pub fn get(&self, key: &K) -> Option<V> {
        let (young, old) = self.current();
        if let Some(v) = young.map.get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some(v.clone());
        }
        if let Some(v) = old.map.get(key).map(|v| v.clone()) {
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

    fn insert_into(&self, young: &Arc<Generation<K, V>>, key: K, value: V) {
        let weight = self.weight.of(&key, &value);
        if weight > self.per_generation {
            return;
        }
        // Rotated before the entry goes in, so that no generation ever
        // weighs more than its share.
        let young = if young.weight.load(Ordering::Relaxed) + weight > self.per_generation {
            self.rotate(young)
        } else {
            Arc::clone(young)
        };
        young.weight.fetch_add(weight, Ordering::Relaxed);
        if let Some(replaced) = young.map.insert(key.clone(), value) {
            young
                .weight
                .fetch_sub(self.weight.of(&key, &replaced), Ordering::Relaxed);
        }
    }

    /// The full young generation becomes the old one (the old one is
    /// dropped); returns the young generation now in place.
    fn rotate(&self, full: &Arc<Generation<K, V>>) -> Arc<Generation<K, V>> {
        let (young, dropped) = {
            let mut guard = self.generations.write().unwrap_or_else(|e| e.into_inner());
            // Another thread may have rotated already.
            let dropped = Arc::ptr_eq(&guard.0, full).then(|| {
                let retired = std::mem::replace(&mut guard.0, Generation::new());
                std::mem::replace(&mut guard.1, retired)
            });
            (Arc::clone(&guard.0), dropped)
        };
        // Freeing a large generation takes a while: not under the lock.
        drop(dropped);
        young
    }

    pub fn stats(&self) -> MemoStats {
        let (young, old) = self.current();
        MemoStats {
            entries: young.map.len() + old.map.len(),
            capacity: self.per_generation * 2,
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    /// What the entries weigh together (entries or bytes).
    pub fn weight(&self) -> usize {
        let (young, old) = self.current();
        young.weight.load(Ordering::Relaxed) + old.weight.load(Ordering::Relaxed)
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

    #[test]
    fn a_memo_bounded_by_bytes_counts_what_each_entry_holds() {
        let memo = BoundedMemo::by_bytes(100_000, |_, v: &Vec<u8>| v.capacity());
        for i in 0..1_000u32 {
            memo.insert(i, vec![0; 1_000 + i as usize]);
            assert!(memo.weight() <= 100_000, "{} bytes", memo.weight());
        }
        // Each entry weighs its vector and its slot: about 2 KiB here.
        let entries = memo.stats().entries;
        assert!((20..=50).contains(&entries), "{entries} entries");
        assert!(memo.weight() > 45_000, "{} bytes", memo.weight());
        assert!(memo.get(&999).is_some_and(|v| v.len() == 1_999));
        // Heavier than a generation: not kept at all.
        memo.insert(5_000, vec![0; 60_000]);
        assert_eq!(memo.get(&5_000), None);
    }
}
