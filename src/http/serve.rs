//! Accepting and serving connections, with every bound a hostile client
//! could otherwise push on.
//!
//! `axum::serve` gives hyper no timer, so a client that sends its headers a
//! byte at a time, or keeps a connection idle, holds a socket (and up to
//! ~400 KB of buffered headers) for ever. Here hyper's HTTP/1 server runs
//! with tokio's timer and:
//!
//! - a header timeout: a request's line and headers must arrive within it,
//!   and hyper starts the same clock when a keep-alive connection falls
//!   idle, so it is the idle limit too (nginx: `client_header_timeout`,
//!   `keepalive_timeout`);
//! - a cap on the size and the number of a request's headers (431 beyond);
//! - a cap on open connections, kept below the process's open-file limit.
//!   When every slot is taken, or the kernel has no file descriptor left,
//!   the connection idle the longest (no request in flight: a keep-alive
//!   one, or one still sending its headers) is closed to make room, as
//!   nginx reuses its "reusable" connections: a flood of slow connections
//!   cannot keep a fresh client from being answered.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use http_body::Body as _;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// File descriptors left to the rest of the process (database, tables,
/// logs) when the connection cap is fitted under the open-file limit.
const RESERVED_FDS: u64 = 64;

/// hyper's own bound on the number of a request's headers.
const HYPER_MAX_HEADERS: usize = 100;

/// The connection bounds, from [`crate::config::Config`].
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub max_header_bytes: usize,
    pub max_headers: usize,
}

impl ConnectionLimits {
    pub fn from_config(config: &crate::config::Config) -> Self {
        Self {
            max_connections: config.max_connections.max(1),
            header_timeout: Duration::from_millis(config.header_timeout_ms.max(1)),
            max_header_bytes: config.max_header_bytes.max(1024),
            max_headers: config.max_headers.max(8),
        }
    }

    /// The cap, lowered to fit under the open-file limit so that the
    /// kernel's limit is never what refuses a client.
    fn effective_max_connections(&self) -> usize {
        match open_file_limit() {
            Some(limit) => {
                let fitting = usize::try_from(limit.saturating_sub(RESERVED_FDS).max(1)).unwrap_or(usize::MAX);
                if fitting < self.max_connections {
                    tracing::warn!(
                        configured = self.max_connections,
                        open_file_limit = limit,
                        used = fitting,
                        "max_connections lowered to fit under the open-file limit (ulimit -n)"
                    );
                }
                fitting.min(self.max_connections)
            }
            None => self.max_connections,
        }
    }
}

/// The soft RLIMIT_NOFILE, where there is one.
#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given, which lives on
    // this stack frame for the whole call.
    let status = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (status == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

/// One open connection, as the accept loop sees it.
struct Open {
    /// Requests being answered on it (their response bodies included).
    in_flight: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

/// The open connections, oldest first (ids grow with each accept).
#[derive(Default)]
struct Connections {
    open: Mutex<BTreeMap<u64, Open>>,
}

impl Connections {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Open>> {
        // Entries are inserted and removed whole: a poisoned map is usable.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the oldest connection without a request in flight to close;
    /// false when every connection is answering one.
    fn close_oldest_idle(&self) -> bool {
        let mut open = self.lock();
        let oldest = open
            .iter()
            .find(|(_, c)| c.in_flight.load(Ordering::Acquire) == 0)
            .map(|(id, _)| *id);
        match oldest.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                // A stored permit: the task sees it even if not waiting yet.
                connection.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Counts a request in flight on its connection until its response body is
/// done with.
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn enter(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(count))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `router` on `listener` until `signal` completes, then lets the
/// connections finish their requests (the caller bounds that wait).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    signal: impl Future<Output = ()> + Send + 'static,
) {
    let max_connections = limits.effective_max_connections();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits.max_header_bytes);
    // hyper parses up to its own bound of 100 headers on the stack; any
    // other bound costs a heap allocation per request (about 5%, says its
    // documentation), so it is only set when asked for.
    if limits.max_headers != HYPER_MAX_HEADERS {
        builder.max_headers(limits.max_headers);
    }
    let builder = Arc::new(builder);
    let slots = Arc::new(Semaphore::new(max_connections));
    let connections = Arc::new(Connections::default());
    let graceful = GracefulShutdown::new();
    let mut signal = std::pin::pin!(signal);
    let mut next_id = 0u64;
    let mut last_warning: Option<Instant> = None;
    let mut warn = |what: &str| {
        // Once a minute at most: a flood must not flood the log too.
        if last_warning.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
            last_warning = Some(Instant::now());
            tracing::warn!(
                max_connections,
                "{what}: closing the longest-idle connections to make room"
            );
        }
    };
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut signal => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) if out_of_descriptors(&error) => {
                warn("no file descriptor left for a new connection");
                if !connections.close_oldest_idle() {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                // Let the closed connection's task release its socket.
                tokio::task::yield_now().await;
                continue;
            }
            // The client gave up before it was accepted: nothing to do.
            Err(_) => continue,
        };
        // A slot is taken once a client is there, not before: taken ahead,
        // the last slot would close an idle connection (the newest one, as
        // likely as not, before its request was read) for a client that
        // may never come.
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                warn("every connection slot is taken");
                connections.close_oldest_idle();
                tokio::select! {
                    slot = Arc::clone(&slots).acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => break,
                    },
                    () = &mut signal => break,
                }
            }
        };
        next_id += 1;
        spawn_connection(
            next_id,
            stream,
            peer,
            router.clone(),
            Arc::clone(&builder),
            Arc::clone(&connections),
            &graceful,
            slot,
        );
    }
    drop(listener);
    graceful.shutdown().await;
}

#[allow(clippy::too_many_arguments)]
fn spawn_connection(
    id: u64,
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    builder: Arc<http1::Builder>,
    connections: Arc<Connections>,
    graceful: &GracefulShutdown,
    slot: OwnedSemaphorePermit,
) {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let close = Arc::new(Notify::new());
    connections.lock().insert(
        id,
        Open {
            in_flight: Arc::clone(&in_flight),
            close: Arc::clone(&close),
        },
    );
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let guard = InFlight::enter(&in_flight);
        let router = router.clone();
        async move {
            let response = match router.oneshot(request.map(Body::new)).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            // A streamed answer (NDJSON) is in flight until its last line
            // is written: the guard goes with its body. An answer of known
            // size is handed to hyper whole, and wrapping every body would
            // cost an allocation per request.
            if response.body().size_hint().exact().is_some() {
                drop(guard);
                return Ok::<_, Infallible>(response);
            }
            Ok(response.map(|body| {
                Body::new(body.map_frame(move |frame| {
                    let _held = &guard;
                    frame
                }))
            }))
        }
    });
    let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
    metrics::gauge!("kibitz_connections_open").increment(1.0);
    tokio::spawn(async move {
        let reason = tokio::select! {
            result = connection => match result {
                Ok(()) => None,
                Err(error) if error.is_timeout() => Some("header_timeout"),
                Err(error) if error.is_parse_too_large() => Some("headers_too_large"),
                Err(_) => None,
            },
            () = close.notified() => Some("evicted"),
        };
        if let Some(reason) = reason {
            metrics::counter!("kibitz_connections_closed_total", "reason" => reason).increment(1);
        }
        connections.lock().remove(&id);
        metrics::gauge!("kibitz_connections_open").decrement(1.0);
        drop(slot);
    });
}

/// EMFILE or ENFILE (the same numbers on every Unix).
fn out_of_descriptors(error: &std::io::Error) -> bool {
    matches!(error.raw_os_error(), Some(23 | 24))
}
