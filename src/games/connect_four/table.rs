//! Connect Four's own transposition table, after the strongest public
//! solver (ChristopheSteininger/c4): each entry keeps the column that
//! proved its bound, so the next search of the position tries it first,
//! and entries live in two-slot buckets of one cache line's half where the
//! first slot keeps the entry that took the most search (nodes below it,
//! as a power of two) and the second takes whatever the first does not. A
//! saturated table so keeps the hard-won results near the root and the
//! recent ones near the leaves; the table outlives requests, so old results
//! must not lock it either, hence the second slot that always takes the
//! newest entry. The bucket of a position is fetched into the cache while
//! its children are generated ([`Table::prefetch`]).
//!
//! Each slot is written without a lock
//! ([`LocklessSlot`](crate::solve::slot::LocklessSlot)): a slot torn by two
//! writers at once reads as a miss. Keys are the positions themselves (see
//! `search::key`), so an entry can never answer for another position on
//! grids up to 56 bits.
//!
//! Cheap entries (few plies left) live in a small table that stays in the
//! core's cache; a probe of them into the big table costs a cache miss for
//! a search that is cheaper than the miss (measured when the generic table
//! introduced the split: twice the speed for 25% more nodes).

use std::sync::OnceLock;

use crate::solve::slot::LocklessSlot as Slot;

pub use crate::solve::table::Bound;

/// What a search learned about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: i8,
    pub bound: Bound,
    /// The column that proved a lower bound (or the best found), or
    /// [`NO_COLUMN`].
    pub best: u8,
    /// Log2 of the nodes searched below the position, plus one: what the
    /// entry is worth keeping.
    pub work: u8,
}

pub const NO_COLUMN: u8 = 15;

/// Set in every stored entry, so an empty slot (all zeros) never matches.
const PRESENT: u64 = 1 << 24;

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.value as u8)
            | bound << 8
            | u64::from(self.best & 15) << 12
            | u64::from(self.work & 63) << 16
            | PRESENT
    }

    fn unpack(data: u64) -> Option<Entry> {
        if data & PRESENT == 0 {
            return None;
        }
        let bound = match (data >> 8) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            value: data as u8 as i8,
            bound,
            best: ((data >> 12) & 15) as u8,
            work: ((data >> 16) & 63) as u8,
        })
    }
}

/// Positions with fewer plies left than this go to the small table. 20
/// (the generic table's) searched 12% more nodes on the benchmark than 16
/// with the search's own cutoffs, 12 was slower (more misses in memory),
/// and everything in the small table searched 20% more.
const FAR_MIN_PLIES: u32 = 16;
/// Buckets of the small table: 1 MiB, within a core's L2 cache.
const NEAR_BUCKETS: usize = 1 << 15;

/// Small tables, one per searching thread of an analysis (the lane a
/// search names; threads beyond share the last): shared, the two cores'
/// writes to the same lines made two threads slower than one.
pub const LANES: usize = 4;

/// Two slots, aligned so that a bucket never straddles two cache lines.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Slot; 2]);

pub struct Table {
    /// Slots (two per bucket).
    capacity: usize,
    far: OnceLock<Box<[Bucket]>>,
    shift: u32,
    near: [OnceLock<Box<[Bucket]>>; LANES],
    near_shift: u32,
}

/// The bucket index of `key` among `1 << (64 - shift)`: Fibonacci hashing,
/// whose high bits mix every bit of the key.
#[inline(always)]
fn index(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

impl Table {
    /// Room for `entries` positions, rounded down to a power of two (at
    /// least 1024), 16 bytes each; plus the small table's 64 Ki entries.
    /// Memory is taken at the first use.
    pub fn new(entries: usize) -> Table {
        let entries = entries.max(1024);
        let capacity = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        let buckets = capacity / 2;
        let near = buckets.min(NEAR_BUCKETS);
        Table {
            capacity,
            far: OnceLock::new(),
            shift: 64 - buckets.trailing_zeros(),
            near: Default::default(),
            near_shift: 64 - near.trailing_zeros(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn far(&self) -> &[Bucket] {
        self.far
            .get_or_init(|| (0..1usize << (64 - self.shift)).map(|_| Bucket::default()).collect())
    }

    fn near(&self, lane: usize) -> &[Bucket] {
        self.near[lane.min(LANES - 1)].get_or_init(|| {
            (0..1usize << (64 - self.near_shift))
                .map(|_| Bucket::default())
                .collect()
        })
    }

    #[inline(always)]
    fn bucket(&self, lane: usize, key: u64, plies_left: u32) -> &Bucket {
        if plies_left >= FAR_MIN_PLIES {
            &self.far()[index(key, self.shift)]
        } else {
            &self.near(lane)[index(key, self.near_shift)]
        }
    }

    /// Starts loading the bucket of a far position into the cache, so the
    /// probe that follows the move generation does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64, plies_left: u32) {
        if plies_left >= FAR_MIN_PLIES {
            prefetch(&self.far()[index(key, self.shift)]);
        }
    }

    #[inline(always)]
    fn read(slot: &Slot, key: u64) -> Option<Entry> {
        Entry::unpack(slot.data_for(key)?)
    }

    #[inline]
    pub fn get(&self, lane: usize, key: u64, plies_left: u32) -> Option<Entry> {
        let [first, second] = &self.bucket(lane, key, plies_left).0;
        Self::read(first, key).or_else(|| Self::read(second, key))
    }

    /// Stores `entry`: over the position's own slot if it has one (an
    /// exact entry is kept, nothing can add to it), else in the first slot
    /// if it took at least the work of the one there (which moves to the
    /// second), else in the second.
    #[inline]
    pub fn put(&self, lane: usize, key: u64, plies_left: u32, entry: Entry) {
        let [first, second] = &self.bucket(lane, key, plies_left).0;
        let data = entry.pack();
        let (first_key, first_data) = first.load();
        let (second_key, second_data) = second.load();
        let own = if first_key == key {
            Some((first, first_data))
        } else if second_key == key {
            Some((second, second_data))
        } else {
            None
        };
        if let Some((slot, old)) = own {
            if Entry::unpack(old).is_some_and(|old| old.bound == Bound::Exact) && entry.bound != Bound::Exact {
                return;
            }
            slot.store(key, data);
            return;
        }
        match Entry::unpack(first_data) {
            Some(old) if old.work > entry.work => second.store(key, data),
            Some(_) => {
                second.store(first_key, first_data);
                first.store(key, data);
            }
            None => first.store(key, data),
        }
    }

    /// Slots in use (a scan: for tests and statistics, not hot paths).
    pub fn used(&self) -> usize {
        self.far.get().map_or(0, |buckets| {
            buckets
                .iter()
                .flat_map(|b| b.0.iter())
                .filter(|s| s.data() & PRESENT != 0)
                .count()
        })
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch<T>(target: &T) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SSE is in the x86-64 baseline; a prefetch never faults, whatever the
    // address, and here it is a live reference.
    unsafe { _mm_prefetch::<_MM_HINT_T0>((target as *const T).cast::<i8>()) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch<T>(_target: &T) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(work: u8, value: i8) -> Entry {
        Entry {
            value,
            bound: Bound::Upper,
            best: 3,
            work,
        }
    }

    #[test]
    fn an_entry_comes_back_as_it_was_stored_and_other_keys_miss() {
        let table = Table::new(1024);
        for plies in [9, 40] {
            for value in [-21, 0, 18] {
                table.put(0, 42, plies, entry(7, value));
                assert_eq!(table.get(0, 42, plies), Some(entry(7, value)));
            }
            assert_eq!(table.get(0, 43, plies), None);
            // The empty position's key is 0: an empty slot must not match it.
            assert_eq!(table.get(0, 0, plies), None);
        }
    }

    #[test]
    fn capacity_is_a_power_of_two_not_above_the_request() {
        assert_eq!(Table::new(5000).capacity(), 4096);
        assert_eq!(Table::new(4096).capacity(), 4096);
        assert_eq!(Table::new(1).capacity(), 1024);
    }

    #[test]
    fn the_costliest_entry_survives_cheaper_ones_that_share_its_bucket() {
        let table = Table::new(1024);
        let shift = table.shift;
        table.put(0, 1, 40, entry(30, 1));
        let same: Vec<u64> = (2..1_000_000u64)
            .filter(|&k| index(k, shift) == index(1, shift))
            .take(3)
            .collect();
        assert_eq!(same.len(), 3);
        for &k in &same {
            table.put(0, k, 40, entry(10, 2));
        }
        assert_eq!(table.get(0, 1, 40), Some(entry(30, 1)));
        assert_eq!(table.get(0, same[2], 40), Some(entry(10, 2)));
        assert_eq!(table.get(0, same[0], 40), None);
        // A costlier one takes the first slot and moves the old one along.
        table.put(0, same[0], 40, entry(40, 3));
        assert_eq!(table.get(0, same[0], 40), Some(entry(40, 3)));
        assert_eq!(table.get(0, 1, 40), Some(entry(30, 1)));
    }

    #[test]
    fn an_exact_entry_is_not_replaced_by_a_bound_on_the_same_position() {
        let table = Table::new(1024);
        let exact = Entry {
            bound: Bound::Exact,
            ..entry(5, 4)
        };
        table.put(0, 9, 30, exact);
        table.put(0, 9, 30, entry(6, 2));
        assert_eq!(table.get(0, 9, 30), Some(exact));
    }
}
