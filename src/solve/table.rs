//! A transposition table shared by every search of the server, fixed in
//! size and lock-free.
//!
//! Each slot is written without a lock
//! ([`LocklessSlot`](crate::solve::slot::LocklessSlot)): a slot torn by two
//! writers at once reads as a miss. Cheap entries and costly ones live in
//! two tables (see [`FAR_MIN_DEPTH`]). Slots come in pairs: the first keeps
//! the entry that cost the most to find (by its `depth`: plies searched
//! below it), the second takes whatever the first does not, so a saturated
//! table still holds the expensive results near the root and the recent
//! ones near the leaves. Keys are the games' own 64-bit keys; a game whose
//! key is its exact position (Connect Four up to 56 bits of grid) can never
//! read another position's entry. The table is allocated at its first use.

use std::sync::OnceLock;

use super::slot::LocklessSlot as Slot;

/// How a stored value bounds the position's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the stored one.
    Lower,
    /// The true value is at most the stored one.
    Upper,
}

/// What a search learned about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: i16,
    pub bound: Bound,
    /// Plies searched below the position (for a search without a horizon,
    /// the plies left to the end of the game): what the entry is worth.
    pub depth: u8,
    /// The move that proved a lower bound, as its index in the position's
    /// move list; [`NO_MOVE`] when none did.
    pub best: u8,
}

pub const NO_MOVE: u8 = u8::MAX;

/// Set in every stored entry, so an empty slot (all zeros) never matches.
const PRESENT: u64 = 1 << 40;

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.value as u16) | bound << 16 | u64::from(self.depth) << 24 | u64::from(self.best) << 32 | PRESENT
    }

    fn unpack(data: u64) -> Option<Entry> {
        if data & PRESENT == 0 {
            return None;
        }
        let bound = match (data >> 16) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            value: data as u16 as i16,
            bound,
            depth: (data >> 24) as u8,
            best: (data >> 32) as u8,
        })
    }
}

/// Entries that took fewer plies than this live in a small table that
/// stays in the CPU's cache; the big table holds the costly ones. Near the
/// leaves, where most probes happen, a probe into a table of hundreds of
/// megabytes is a cache miss that costs more than the search it saves:
/// on the Connect Four benchmark (8 to 14 stones) the split searches 25%
/// more nodes at twice the speed.
const FAR_MIN_DEPTH: u8 = 20;
/// 1 MiB: within a core's L2 cache.
const NEAR_ENTRIES: usize = 1 << 16;

pub struct SharedTable {
    capacity: usize,
    slots: OnceLock<Box<[Slot]>>,
    shift: u32,
    near: OnceLock<Box<[Slot]>>,
    near_shift: u32,
    far_depth: u8,
}

impl SharedTable {
    /// Room for `entries` positions, rounded down to a power of two (at
    /// least 1024); 16 bytes each.
    /// Plus a small table of [`NEAR_ENTRIES`] for the cheap entries.
    pub fn new(entries: usize) -> SharedTable {
        let capacity = entries.max(1024).checked_next_power_of_two().map_or(1 << 62, |p| {
            if p > entries.max(1024) {
                p / 2
            } else {
                p
            }
        });
        let near = capacity.min(NEAR_ENTRIES);
        SharedTable {
            capacity,
            slots: OnceLock::new(),
            shift: 64 - capacity.trailing_zeros(),
            near: OnceLock::new(),
            near_shift: 64 - near.trailing_zeros(),
            far_depth: FAR_MIN_DEPTH,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn slots(&self) -> &[Slot] {
        self.slots
            .get_or_init(|| (0..self.capacity).map(|_| Slot::default()).collect())
    }

    /// The pair of slots `key` may live in.
    #[inline(always)]
    fn pair(&self, key: u64) -> &[Slot] {
        // Fibonacci hashing: the high bits of the product mix every key bit.
        let index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize & !1;
        let slots = self.slots();
        &slots[index..index + 2]
    }

    #[inline(always)]
    fn near_pair(&self, key: u64) -> &[Slot] {
        let index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.near_shift) as usize & !1;
        let slots = self
            .near
            .get_or_init(|| (0..1usize << (64 - self.near_shift)).map(|_| Slot::default()).collect());
        &slots[index..index + 2]
    }

    #[inline(always)]
    fn pair_for(&self, key: u64, depth: u8) -> &[Slot] {
        if depth >= self.far_depth {
            self.pair(key)
        } else {
            self.near_pair(key)
        }
    }

    #[inline(always)]
    fn read(slot: &Slot, key: u64) -> Option<Entry> {
        Entry::unpack(slot.data_for(key)?)
    }

    #[inline]
    pub fn get(&self, key: u64, depth: u8) -> Option<Entry> {
        let pair = self.pair_for(key, depth);
        Self::read(&pair[0], key).or_else(|| Self::read(&pair[1], key))
    }

    #[inline]
    pub fn put(&self, key: u64, entry: Entry) {
        let pair = self.pair_for(key, entry.depth);
        let kept = &pair[0];
        let (kept_key, kept_data) = kept.load();
        let worth_keeping = Entry::unpack(kept_data).is_some_and(|old| old.depth > entry.depth);
        let slot = if kept_key == key || !worth_keeping {
            kept
        } else {
            &pair[1]
        };
        slot.store(key, entry.pack());
    }

    /// Slots in use (a scan: for tests and statistics, not hot paths).
    pub fn used(&self) -> usize {
        self.slots
            .get()
            .map_or(0, |slots| slots.iter().filter(|s| s.data() & PRESENT != 0).count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u8) -> Entry {
        Entry {
            value: -i16::from(depth),
            bound: Bound::Upper,
            depth,
            best: 3,
        }
    }

    #[test]
    fn an_entry_comes_back_as_it_was_stored_and_other_keys_miss() {
        let table = SharedTable::new(1024);
        for depth in [9, 40] {
            table.put(42, entry(depth));
            assert_eq!(table.get(42, depth), Some(entry(depth)));
            assert_eq!(table.get(43, depth), None);
            // The empty position's key is 0: an empty slot must not match it.
            assert_eq!(table.get(0, depth), None);
        }
    }

    #[test]
    fn capacity_is_a_power_of_two_not_above_the_request() {
        assert_eq!(SharedTable::new(5000).capacity(), 4096);
        assert_eq!(SharedTable::new(4096).capacity(), 4096);
        assert_eq!(SharedTable::new(1).capacity(), 1024);
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let table = SharedTable::new(1024);
        table.put(7, entry(30));
        // Another writer's data lands without its check word.
        table.pair(7)[0].tear(entry(31).pack());
        assert_eq!(table.get(7, 30), None);
    }

    #[test]
    fn a_deep_entry_survives_shallower_ones_that_share_its_slots() {
        let table = SharedTable::new(1024);
        table.put(1, entry(40));
        let same_pair: Vec<u64> = (2..100_000u64)
            .filter(|&k| std::ptr::eq(table.pair(k).as_ptr(), table.pair(1).as_ptr()))
            .take(3)
            .collect();
        assert_eq!(same_pair.len(), 3);
        for &k in &same_pair {
            table.put(k, entry(25));
        }
        assert_eq!(table.get(1, 40), Some(entry(40)));
        assert_eq!(table.get(same_pair[2], 25), Some(entry(25)));
        assert_eq!(table.get(same_pair[0], 25), None);
    }
}
