//! One table entry written without a lock, for the transposition tables
//! that several search threads share: two 64-bit words, the entry's data
//! and the key XOR the data. A reader takes the slot only if the key it
//! asks for equals the XOR of what it read, so a slot torn by two writers
//! at once reads as a miss rather than as a wrong entry (Hyatt's lockless
//! hashing). What the data word means is the table's own business.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
pub struct LocklessSlot {
    check: AtomicU64,
    data: AtomicU64,
}

impl LocklessSlot {
    /// The data stored under `key`, if the slot holds it whole.
    #[inline(always)]
    pub fn data_for(&self, key: u64) -> Option<u64> {
        let (held, data) = self.load();
        (held == key).then_some(data)
    }

    /// The key and the data the slot holds (a torn slot's key matches no
    /// position asked for).
    #[inline(always)]
    pub fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        (self.check.load(Ordering::Relaxed) ^ data, data)
    }

    /// The data word alone, whatever key it is under (for counting slots
    /// in use).
    #[inline(always)]
    pub fn data(&self) -> u64 {
        self.data.load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub fn store(&self, key: u64, data: u64) {
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    /// As another writer's data landing without its check word would.
    #[cfg(test)]
    pub fn tear(&self, data: u64) {
        self.data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_answers_its_own_key_only_and_a_torn_one_none() {
        let slot = LocklessSlot::default();
        slot.store(42, 7);
        assert_eq!(slot.data_for(42), Some(7));
        assert_eq!(slot.data_for(43), None);
        assert_eq!(slot.load(), (42, 7));
        slot.tear(8);
        assert_eq!(slot.data_for(42), None);
        assert_eq!(slot.data(), 8);
    }
}
