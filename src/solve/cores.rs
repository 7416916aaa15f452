//! Which cores are searching: a search that can use a second thread takes
//! one only while a core is idle, so that one request on an idle machine
//! gets both cores and many requests at once still get one each.
//!
//! Every search that holds a pool permit counts as one busy core (see
//! [`super::pool`]), and every helper thread as another; a helper is
//! granted while the busy count is below the machine's cores.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

static BUSY: AtomicUsize = AtomicUsize::new(0);

fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A core counted as busy until this is dropped.
#[derive(Debug)]
pub struct Busy(());

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The calling thread searches: its core is busy whatever the others do.
pub fn searching() -> Busy {
    BUSY.fetch_add(1, Ordering::AcqRel);
    Busy(())
}

/// A core for a helper thread, if one is idle.
pub fn spare() -> Option<Busy> {
    BUSY.fetch_update(Ordering::AcqRel, Ordering::Acquire, |busy| {
        (busy < cores()).then_some(busy + 1)
    })
    .ok()
    .map(|_| Busy(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_are_granted_only_while_a_core_is_idle() {
        // Other tests' searches may hold cores meanwhile; hold them all here
        // and every helper is refused.
        let held: Vec<Busy> = std::iter::from_fn(spare).take(1024).collect();
        assert!(!held.is_empty() && held.len() <= cores());
        assert!(spare().is_none());
        let searcher = searching();
        assert!(spare().is_none());
        drop(searcher);
        drop(held);
    }
}
