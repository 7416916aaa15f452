//! Optional per-client rate limit (off by default): a token bucket per
//! client address (GCRA, from the governor crate), answering 429 with
//! Retry-After. Health and metrics endpoints are never limited, so probes
//! keep working under a flood.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::error::ApiError;

/// Forget idle clients every this many requests, so the table of buckets
/// stays as small as the set of recently active clients.
const SWEEP_EVERY: u64 = 4096;

pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    trust_forwarded: bool,
    seen: AtomicU64,
}

impl RateLimit {
    /// None when `per_sec` is 0 (no limit).
    pub fn new(per_sec: u32, burst: u32, trust_forwarded: bool) -> Option<Arc<Self>> {
        let per_sec = NonZeroU32::new(per_sec)?;
        let burst = NonZeroU32::new(burst).unwrap_or(per_sec);
        Some(Arc::new(Self {
            limiter: RateLimiter::keyed(Quota::per_second(per_sec).allow_burst(burst)),
            clock: DefaultClock::default(),
            trust_forwarded,
            seen: AtomicU64::new(0),
        }))
    }

    /// The client: the peer address, or behind a trusted proxy the address
    /// it appended last to X-Forwarded-For (earlier entries are the
    /// client's own claims and could be forged).
    fn client(&self, request: &Request) -> IpAddr {
        if self.trust_forwarded {
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
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
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

fn is_exempt(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

pub async fn limit(State(limit): State<Arc<RateLimit>>, request: Request, next: Next) -> Response {
    if is_exempt(request.uri().path()) {
        return next.run(request).await;
    }
    match limit.check(limit.client(&request)) {
        Ok(()) => next.run(request).await,
        Err(retry_after_secs) => {
            metrics::counter!("kibitz_rate_limited_total").increment(1);
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests from this client; slow down and retry after the time given",
            )
            .with_retry_after(retry_after_secs)
            .into_response()
        }
    }
}
