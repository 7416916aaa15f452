//! Reviews: `POST /{game}/review` for a game record, `GET /matches/{id}/review`
//! for a match's own history (the match's token required).
//!
//! The review itself (src/review) replays the record and asks the game's
//! solver about every position under the request's one budget. As for a
//! search, a first try runs with a small node budget and is kept if every
//! value came out proved (a game the memo already holds); otherwise the
//! review runs again with the whole budget. Both run on the search pool
//! under one permit: replaying a long record costs real CPU even when every
//! value is in the memo, and an async thread must not pay it.
//!
//! A finished match's review never changes once every value in it is
//! proved, so its body is kept (bounded, with the token's hash) and served
//! again without reading the database, for as long as the match is kept:
//! the cache answers only while the match is younger than the purge's
//! retention, the same rule the purge applies.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::extract::ApiQuery;
use super::games::{self, review_body as json_body};
use super::match_access::{bearer, load_authorized, token_matches};
use super::state::AppState;
use crate::core::problem::Problem;
use crate::matches::Status;
use crate::review::Review;
use crate::serve::json_body as serialise;
use crate::solve::memo::BoundedMemo;

use crate::store::{timestamp, StoredMatch};

/// Finished matches' reviews whose every value is proved.
/// The largest review body the cache keeps.
pub const MAX_CACHED_REVIEW_BYTES: usize = 256 * 1024;

pub struct ReviewCache {
    bodies: Option<BoundedMemo<String, CachedReview>>,
}

#[derive(Clone)]
struct CachedReview {
    token_hash: String,
    updated_at: String,
    body: Bytes,
}

impl ReviewCache {
    /// Holds at most `capacity` reviews (none when 0).
    pub fn new(capacity: usize) -> ReviewCache {
        ReviewCache {
            bodies: (capacity > 0).then(|| BoundedMemo::new(capacity.max(2))),
        }
    }
}

#[derive(Deserialize)]
pub struct ReviewQuery {
    max_ms: Option<u64>,
}

/// The review of a stored match, by its game.
async fn review_stored(state: &AppState, stored: &StoredMatch, max_ms: Option<u64>) -> Result<Review, Problem> {
    match games::review_stored_match(stored.game.game.as_str(), state, stored, max_ms) {
        Some(review) => review.await,
        None => Err(Problem::internal(&format!("no review for {}", stored.game.game))),
    }
}

/// True while a finished match last changed at `updated_at` is still kept.
fn still_kept(state: &AppState, updated_at: &str) -> bool {
    let retention = i64::try_from(state.config.match_retention_secs)
        .ok()
        .and_then(chrono::TimeDelta::try_seconds);
    match retention.and_then(|r| chrono::Utc::now().checked_sub_signed(r)) {
        Some(cutoff) => updated_at >= timestamp(cutoff).as_str(),
        // A retention beyond the calendar: kept for ever.
        None => true,
    }
}

pub async fn match_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ReviewQuery>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    if let Some(cache) = &state.review_cache.bodies {
        let token = bearer(&headers)?;
        if let Some(hit) = cache.get(&id) {
            if still_kept(&state, &hit.updated_at) {
                return if token_matches(&hit.token_hash, token) {
                    Ok(json_body(hit.body))
                } else {
                    Err(Problem::new(
                        StatusCode::FORBIDDEN,
                        "the token does not belong to this match",
                    ))
                };
            }
        }
    }
    let stored = load_authorized(&state, &id, &headers).await?;
    let review = review_stored(&state, &stored, query.max_ms).await?;
    let body = serialise(&review)?;
    if let Some(cache) = &state.review_cache.bodies {
        // A long match's review (up to ~1.4 MB at the length cap) is not
        // kept: the cache's bound in bytes is its entries times this.
        if review.exact && stored.game.status == Status::Finished && body.len() <= MAX_CACHED_REVIEW_BYTES {
            let entry = CachedReview {
                token_hash: stored.token_hash.clone(),
                updated_at: stored.updated_at.clone(),
                body: body.clone(),
            };
            cache.insert(stored.id.clone(), entry);
        }
    }
    Ok(json_body(body))
}
