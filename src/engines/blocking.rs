//! The engine pool from synchronous code: the match AI and the arena play
//! their moves on blocking threads (`spawn_blocking`, the CLI's own
//! thread), while the pool's searches are futures on tokio (its processes'
//! pipes and timers belong to a runtime).
//!
//! On a thread of the blocking pool the runtime that spawned it is found
//! and the search runs on it (`Handle::block_on` is made for exactly that
//! thread). Without any runtime (`kibitz arena` from the command line, a
//! plain `#[test]`) one small runtime of this module's is used, the same
//! every time: the engine processes it starts stay tied to it, so a
//! runtime made per move would leave them with dead pipes.

use std::future::Future;
use std::sync::OnceLock;

use tokio::runtime::{Handle, Runtime};

/// The runtime of callers that have none; None if it could not be built.
fn own_runtime() -> Option<&'static Runtime> {
    static RUNTIME: OnceLock<Option<Runtime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("kibitz-engines")
                .enable_all()
                .build()
                .ok()
        })
        .as_ref()
}

/// Runs `future` to its end from synchronous code; None when no runtime
/// could be had. Must not be called on a runtime's worker thread (an
/// async task): tokio refuses that with a panic rather than let it stall
/// the workers. Every caller here is on a blocking thread.
pub fn block_on<F: Future>(future: F) -> Option<F::Output> {
    match Handle::try_current() {
        Ok(handle) => Some(handle.block_on(future)),
        Err(_) => own_runtime().map(|runtime| runtime.block_on(future)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_runtime_the_modules_own_runs_timers() {
        let slept = block_on(async {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            7
        });
        assert_eq!(slept, Some(7));
    }

    #[tokio::test]
    async fn on_a_blocking_thread_the_callers_runtime_runs_it() {
        let answer = tokio::task::spawn_blocking(|| {
            block_on(async {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                tokio::spawn(async { 41 }).await.map(|n| n + 1).ok()
            })
        })
        .await
        .ok()
        .flatten()
        .flatten();
        assert_eq!(answer, Some(42));
    }
}
