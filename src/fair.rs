//! Fair admission to the costly things (search workers, engine processes),
//! shared between clients.
//!
//! A client is the address the rate limiter sees (the peer, or behind a
//! trusted proxy the last X-Forwarded-For entry). A middleware puts it in
//! a task-local ([`as_client`]) for the whole request, so the pools learn
//! it without every handler passing it on; work that outlives the request's
//! task (a streamed body) keeps it with [`keep_client`].
//!
//! A [`FairGate`] has `capacity` places. A place that comes free goes to
//! the waiting client that holds the fewest places (first come, first
//! served among equals), so a client with many requests queued cannot
//! starve one with a single request. And a long holder yields: when a
//! client waits that holds fewer places than another client, the other
//! client's oldest place that registered a stop flag is asked to stop
//! once it has held its place for `slice` (a search stops early and
//! answers its best so far, like one whose time ran out). Places without
//! a stop flag (short, bounded work) are never asked. Waiting is bounded
//! by the caller (a request's own budget).

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

tokio::task_local! {
    static CLIENT: IpAddr;
}

/// The client of work that runs outside any request (start-up, tests that
/// call a handler directly): all such work counts as one client.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

/// The client the current task works for.
pub fn current_client() -> IpAddr {
    CLIENT.try_with(|c| *c).unwrap_or(UNKNOWN_CLIENT)
}

/// Runs `work` on behalf of `client`.
pub async fn as_client<F: Future>(client: IpAddr, work: F) -> F::Output {
    CLIENT.scope(client, work).await
}

/// `work`, kept on behalf of the current client wherever it is polled (a
/// streamed body is polled after the request's handler has returned).
pub fn keep_client<F: Future>(work: F) -> tokio::task::futures::TaskLocalFuture<IpAddr, F> {
    CLIENT.scope(current_client(), work)
}

/// A bounded set of places, handed out fairly between clients.
pub struct FairGate {
    shared: Arc<Shared>,
}

struct Shared {
    capacity: usize,
    slice: Duration,
    book: Mutex<Book>,
}

#[derive(Default)]
struct Book {
    free: usize,
    next_id: u64,
    holders: Vec<Holder>,
    waiting: Vec<Waiter>,
}

struct Holder {
    id: u64,
    client: IpAddr,
    since: Instant,
    stop: Option<Arc<AtomicBool>>,
    /// Already asked to stop: no longer counted as the client's.
    asked: bool,
}

struct Waiter {
    id: u64,
    client: IpAddr,
    stop: Option<Arc<AtomicBool>>,
    grant: oneshot::Sender<()>,
    /// Some other place was asked to yield for this waiter.
    claimed: bool,
}

/// A place in the gate, or a place in its queue until granted; dropping it
/// gives the place up (or leaves the queue).
#[derive(Debug)]
pub struct Pass {
    shared: Arc<Shared>,
    id: u64,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FairGate").field("capacity", &self.capacity).finish()
    }
}

impl FairGate {
    /// `capacity` places (at least one); a holder yields to a poorer
    /// client after `slice`.
    pub fn new(capacity: usize, slice: Duration) -> Self {
        let capacity = capacity.max(1);
        FairGate {
            shared: Arc::new(Shared {
                capacity,
                slice,
                book: Mutex::new(Book {
                    free: capacity,
                    ..Book::default()
                }),
            }),
        }
    }

    pub fn capacity(&self) -> usize {
        self.shared.capacity
    }

    /// Places `client` holds now: a client refused while it held some was
    /// crowded out by its own requests.
    pub fn held_by(&self, client: IpAddr) -> usize {
        self.shared.lock().holders.iter().filter(|h| h.client == client).count()
    }

    /// Places taken now.
    pub fn busy(&self) -> usize {
        self.shared.capacity - self.shared.lock().free
    }

    /// A place at once, if one is free and nobody waits.
    pub fn try_enter(&self, client: IpAddr, stop: Option<Arc<AtomicBool>>) -> Option<Pass> {
        let mut book = self.shared.lock();
        if book.free == 0 || !book.waiting.is_empty() {
            return None;
        }
        let id = book.take_id();
        book.hold(id, client, stop);
        Some(Pass {
            shared: Arc::clone(&self.shared),
            id,
        })
    }

    /// A place for `client` within `wait`, or None once the wait is over.
    /// `stop` is the flag set to ask the holder to yield (None: never).
    pub async fn enter(&self, client: IpAddr, wait: Duration, stop: Option<Arc<AtomicBool>>) -> Option<Pass> {
        let (pass, granted) = {
            let mut book = self.shared.lock();
            let id = book.take_id();
            let pass = Pass {
                shared: Arc::clone(&self.shared),
                id,
            };
            if book.free > 0 && book.waiting.is_empty() {
                book.hold(id, client, stop);
                return Some(pass);
            }
            let (grant, granted) = oneshot::channel();
            book.waiting.push(Waiter {
                id,
                client,
                stop,
                grant,
                claimed: false,
            });
            book.dispatch();
            self.shared.preempt_for(&mut book, id);
            (pass, granted)
        };
        // Dropped on time-out, the pass leaves the queue, or gives back a
        // place granted meanwhile.
        match tokio::time::timeout(wait, granted).await {
            Ok(Ok(())) => Some(pass),
            _ => None,
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Book> {
        // The book stays consistent at every unlock: a panic elsewhere
        // while it was held leaves nothing half done.
        self.book.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Asks a place of a richer client to yield to waiter `id`.
    fn preempt_for(self: &Arc<Self>, book: &mut Book, id: u64) {
        let Some(waiter) = book.waiting.iter().position(|w| w.id == id) else {
            return;
        };
        let client = book.waiting[waiter].client;
        let claim = book.counted(client) + book.waiting.iter().filter(|w| w.client == client && w.claimed).count();
        // The richest other client with a place that can yield.
        let victim = book
            .holders
            .iter()
            .enumerate()
            .filter(|(_, h)| h.client != client && !h.asked && h.stop.is_some())
            .max_by_key(|(_, h)| (book.counted(h.client), std::cmp::Reverse(h.since)))
            .map(|(i, h)| (i, book.counted(h.client)));
        let Some((index, richness)) = victim else {
            return;
        };
        if richness <= claim {
            return;
        }
        // Its oldest place.
        let victim_client = book.holders[index].client;
        let Some(holder) = book
            .holders
            .iter_mut()
            .filter(|h| h.client == victim_client && !h.asked && h.stop.is_some())
            .min_by_key(|h| h.since)
        else {
            return;
        };
        holder.asked = true;
        book.waiting[waiter].claimed = true;
        let (holder_id, at) = (holder.id, holder.since + self.slice);
        metrics::counter!("kibitz_admission_yields_total").increment(1);
        if at <= Instant::now() {
            book.ask_to_stop(holder_id);
            return;
        }
        let shared = Arc::clone(self);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                tokio::time::sleep_until(at.into()).await;
                shared.ask_to_stop(holder_id);
            });
        }
    }

    fn ask_to_stop(&self, id: u64) {
        self.lock().ask_to_stop(id);
    }

    fn release(&self, id: u64) {
        let mut book = self.lock();
        if let Some(index) = book.holders.iter().position(|h| h.id == id) {
            book.holders.swap_remove(index);
            book.free += 1;
            book.dispatch();
        } else {
            book.waiting.retain(|w| w.id != id);
        }
    }
}

impl Book {
    /// Sets the stop flag of place `id` if it is still held and another
    /// client still waits.
    fn ask_to_stop(&self, id: u64) {
        let Some(holder) = self.holders.iter().find(|h| h.id == id) else {
            return;
        };
        if self.waiting.iter().any(|w| w.client != holder.client) {
            if let Some(stop) = &holder.stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn hold(&mut self, id: u64, client: IpAddr, stop: Option<Arc<AtomicBool>>) {
        self.free -= 1;
        self.holders.push(Holder {
            id,
            client,
            since: Instant::now(),
            stop,
            asked: false,
        });
    }

    /// Places `client` holds and has not been asked to give up.
    fn counted(&self, client: IpAddr) -> usize {
        self.holders.iter().filter(|h| h.client == client && !h.asked).count()
    }

    /// Free places to the waiters of the clients holding fewest.
    fn dispatch(&mut self) {
        while self.free > 0 && !self.waiting.is_empty() {
            let next = (0..self.waiting.len())
                .min_by_key(|&i| (self.counted(self.waiting[i].client), i))
                .unwrap_or(0);
            let waiter = self.waiting.remove(next);
            if waiter.grant.send(()).is_ok() {
                self.hold(waiter.id, waiter.client, waiter.stop);
            }
        }
    }
}

impl Pass {
    /// Whether a client other than this place's holder waits for a place:
    /// work made of short steps (a review's positions) gives its place
    /// back between steps then, without waiting to be asked.
    pub fn others_wait(&self) -> bool {
        let book = self.shared.lock();
        let Some(holder) = book.holders.iter().find(|h| h.id == self.id) else {
            return false;
        };
        book.waiting.iter().any(|w| w.client != holder.client)
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        self.shared.release(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
    }

    #[tokio::test]
    async fn a_freed_place_goes_to_the_client_holding_fewest() {
        let gate = FairGate::new(2, Duration::from_secs(60));
        let a1 = gate.try_enter(ip(1), None).unwrap();
        let _a2 = gate.try_enter(ip(1), None).unwrap();
        assert!(gate.try_enter(ip(2), None).is_none());
        let wait = Duration::from_secs(5);
        let a3 = tokio::spawn({
            let shared = Arc::clone(&gate.shared);
            async move { FairGate { shared }.enter(ip(1), wait, None).await.is_some() }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let b = tokio::spawn({
            let shared = Arc::clone(&gate.shared);
            async move { FairGate { shared }.enter(ip(2), wait, None).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(a1);
        // B came later but holds nothing: it gets the place.
        let b = b.await.unwrap();
        assert!(b.is_some());
        assert!(!a3.is_finished());
        drop(b);
        assert!(a3.await.unwrap());
        assert_eq!(gate.busy(), 1);
    }

    #[tokio::test]
    async fn a_long_holder_is_asked_to_yield_to_a_waiting_client_after_its_slice() {
        let gate = FairGate::new(2, Duration::from_millis(50));
        let stops: Vec<_> = (0..2).map(|_| Arc::new(AtomicBool::new(false))).collect();
        let _a1 = gate.try_enter(ip(1), Some(Arc::clone(&stops[0]))).unwrap();
        let _a2 = gate.try_enter(ip(1), Some(Arc::clone(&stops[1]))).unwrap();
        // A's own third search asks nothing of A.
        assert!(gate.enter(ip(1), Duration::from_millis(10), None).await.is_none());
        assert!(!stops[0].load(Ordering::Relaxed) && !stops[1].load(Ordering::Relaxed));
        // B waits: one of A's places (not both) is asked to stop after the slice.
        assert!(gate.enter(ip(2), Duration::from_millis(100), None).await.is_none());
        let asked = stops.iter().filter(|s| s.load(Ordering::Relaxed)).count();
        assert_eq!(asked, 1);
    }

    #[tokio::test]
    async fn a_holder_learns_that_another_client_waits_not_its_own_requests() {
        let gate = FairGate::new(1, Duration::from_secs(60));
        let a = gate.try_enter(ip(1), None).unwrap();
        assert!(!a.others_wait());
        let own = tokio::spawn({
            let shared = Arc::clone(&gate.shared);
            async move { FairGate { shared }.enter(ip(1), Duration::from_millis(100), None).await }
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        assert!(!a.others_wait(), "its own client's request is not another client");
        assert!(matches!(own.await, Ok(None)));
        let other = tokio::spawn({
            let shared = Arc::clone(&gate.shared);
            async move { FairGate { shared }.enter(ip(2), Duration::from_secs(5), None).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(a.others_wait());
        drop(a);
        assert!(matches!(other.await, Ok(Some(_))));
    }

    #[tokio::test]
    async fn a_client_with_the_only_place_yields_to_another_on_a_single_place_gate() {
        let gate = FairGate::new(1, Duration::from_millis(0));
        let stop = Arc::new(AtomicBool::new(false));
        let a = gate.try_enter(ip(1), Some(Arc::clone(&stop))).unwrap();
        let b = tokio::spawn({
            let shared = Arc::clone(&gate.shared);
            async move { FairGate { shared }.enter(ip(2), Duration::from_secs(5), None).await }
        });
        for _ in 0..100 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(stop.load(Ordering::Relaxed));
        drop(a);
        assert!(b.await.unwrap().is_some());
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_leaves_no_place_taken() {
        let gate = FairGate::new(1, Duration::from_secs(60));
        let a = gate.try_enter(ip(1), None).unwrap();
        assert!(gate.enter(ip(2), Duration::from_millis(10), None).await.is_none());
        drop(a);
        assert_eq!(gate.busy(), 0);
        assert!(gate.try_enter(ip(2), None).is_some());
    }

    #[tokio::test]
    async fn the_client_follows_the_task() {
        assert_eq!(current_client(), UNKNOWN_CLIENT);
        let seen = as_client(ip(9), async { keep_client(async { current_client() }).await }).await;
        assert_eq!(seen, ip(9));
    }
}
