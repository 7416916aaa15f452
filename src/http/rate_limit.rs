//! Per-client limits: a token bucket per client address (GCRA, from the
//! governor crate), answering 429 with Retry-After. The request rate limit
//! is optional (off by default); health and metrics endpoints are never
//! limited by it, so probes keep working under a flood. The quota on match
//! creation is on by default: every match is kept for up to 30 days, so
//! without it one client could fill the disk.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::core::problem::Problem;

/// Forget idle clients every this many requests, so the table of buckets
/// stays as small as the set of recently active clients.
const SWEEP_EVERY: u64 = 4096;

pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    trust_forwarded: bool,
    seen: AtomicU64,
    /// The 429's detail: what the client did too often.
    detail: &'static str,
}

impl RateLimit {
    /// None when `per_sec` is 0 (no limit).
    pub fn new(per_sec: u32, burst: u32, trust_forwarded: bool) -> Option<Arc<Self>> {
        let per_sec = NonZeroU32::new(per_sec)?;
        let burst = NonZeroU32::new(burst).unwrap_or(per_sec);
        Some(Self::with_quota(
            Quota::per_second(per_sec).allow_burst(burst),
            trust_forwarded,
            "too many requests from this client; slow down and retry after the time given",
        ))
    }

    /// The quota on match creation: `per_hour` per client, `burst` at once
    /// (0: `per_hour`); None when `per_hour` is 0 (no quota).
    pub fn match_quota(per_hour: u32, burst: u32, trust_forwarded: bool) -> Option<Arc<Self>> {
        let per_hour = NonZeroU32::new(per_hour)?;
        let burst = NonZeroU32::new(burst).unwrap_or(per_hour);
        Some(Self::with_quota(
            Quota::per_hour(per_hour).allow_burst(burst),
            trust_forwarded,
            "this client has created too many matches lately; finish or reuse one, or retry after the time given",
        ))
    }

    fn with_quota(quota: Quota, trust_forwarded: bool, detail: &'static str) -> Arc<Self> {
        Arc::new(Self {
            limiter: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
            trust_forwarded,
            seen: AtomicU64::new(0),
            detail,
        })
    }

    fn client(&self, request: &Request) -> IpAddr {
        client_address(request, self.trust_forwarded)
    }

    fn check(&self, client: IpAddr) -> Result<(), u64> {
        if self.seen.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
        }
        self.limiter
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()).as_secs().max(1))
    }
}

/// The client: the peer address, or behind a trusted proxy the address it
/// appended last to X-Forwarded-For (earlier entries are the client's own
/// claims and could be forged). The rate limits and the fair admission to
/// search workers and engines ([`crate::fair`]) key on it.
pub fn client_address(request: &Request, trust_forwarded: bool) -> IpAddr {
    if trust_forwarded {
        let forwarded = request
            .headers()
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|ip| ip.trim().parse().ok());
        if let Some(ip) = forwarded {
            return ip;
        }
    }
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(crate::fair::UNKNOWN_CLIENT, |c| c.0.ip())
}

/// Runs the request on behalf of its client (see [`crate::fair`]): every
/// search and engine call it makes is admitted as that client's.
pub async fn as_client(State(trust_forwarded): State<bool>, request: Request, next: Next) -> Response {
    let client = client_address(&request, trust_forwarded);
    crate::fair::as_client(client, next.run(request)).await
}

fn is_exempt(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

pub async fn limit(State(limit): State<Arc<RateLimit>>, request: Request, next: Next) -> Response {
    if is_exempt(request.uri().path()) {
        return next.run(request).await;
    }
    limit_all(State(limit), request, next).await
}

/// The same for every request it sees (a route's own quota).
pub async fn limit_all(State(limit): State<Arc<RateLimit>>, request: Request, next: Next) -> Response {
    match limit.check(limit.client(&request)) {
        Ok(()) => next.run(request).await,
        Err(retry_after_secs) => {
            metrics::counter!("kibitz_rate_limited_total").increment(1);
            Problem::new(StatusCode::TOO_MANY_REQUESTS, limit.detail)
                .with_retry_after(retry_after_secs)
                .into_response()
        }
    }
}
