//! Reviews: `POST /{game}/review` for a game record, `GET /matches/{id}/review`
//! for a match's own history (the match's token required).
//!
//! The review itself (src/review) replays the record and asks the game's
//! solver about every position under the request's one budget. As for a
//! search, a first try runs inline with a small node budget and is kept if
//! every value came out proved (a game the memo already holds); otherwise
//! the review runs again on the search pool with the whole budget.
//!
//! A finished match's review never changes once every value in it is
//! proved, so its body is kept (bounded, with the token's hash) and served
//! again without reading the database, for as long as the match is kept:
//! the cache answers only while the match is younger than the purge's
//! retention, the same rule the purge applies.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::error::ApiError;
use super::extract::{ApiJson, ApiQuery};
use super::matches::{bearer, load_authorized, token_matches};
use super::review_history::{match_names, match_steps, nine_square_steps, parse, pig_steps};
use super::search::{run_search, SearchBudget};
use super::state::AppState;
use crate::matches::{GameKind, Status};
use crate::review::{
    self, connect_four, ishitori, nine_square, number_square, pig, tictactoe, Review, ReviewError, Step,
};
use crate::solve::limits::SearchLimits;
use crate::solve::memo::BoundedMemo;
use crate::store::{timestamp, StoredMatch};

/// Nodes each position's search may spend in the inline first try...
const INLINE_NODES: u64 = 2_000;
/// ...and the time the whole first try may take on the async thread.
const INLINE_TIME: Duration = Duration::from_millis(1);

/// Finished matches' reviews whose every value is proved.
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

fn json_body(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn serialise(review: &Review) -> Result<Bytes, ApiError> {
    serde_json::to_vec(review)
        .map(Bytes::from)
        .map_err(|e| ApiError::internal(&e))
}

/// A stateless record's error: the client's.
fn record_error(error: ReviewError) -> ApiError {
    ApiError::unprocessable(error.to_string())
}

/// A stored match that does not replay is the server's fault; a match too
/// big to review is not.
fn stored_error(error: ReviewError) -> ApiError {
    match error {
        ReviewError::Unavailable(_) => ApiError::unprocessable(error.to_string()),
        other => ApiError::internal(&format!("the stored match does not replay: {other}")),
    }
}

/// Runs `work` inline with a small node budget (`quick`), and again on the
/// search pool with the whole budget if the quick try did not prove every
/// value (it answers None then).
async fn run_review<F>(state: &AppState, max_ms: Option<u64>, work: F) -> Result<Result<Review, ReviewError>, ApiError>
where
    F: Fn(&SearchLimits, bool) -> Result<Option<Review>, ReviewError> + Send + Sync + 'static,
{
    let budget = Duration::from_millis(state.config.search_budget_ms(max_ms));
    let quick = SearchLimits::within(budget.min(INLINE_TIME)).with_max_nodes(INLINE_NODES);
    match work(&quick, true) {
        Ok(Some(review)) => return Ok(Ok(review)),
        Err(e) => return Ok(Err(e)),
        Ok(None) => {}
    }
    let full = run_search(
        &state.config,
        &state.search_pool,
        "review",
        SearchBudget::own(max_ms),
        move |limits| work(limits, false),
    )
    .await?;
    Ok(full.and_then(|r| r.ok_or_else(|| ReviewError::Unavailable("the review did not finish".to_string()))))
}

#[derive(Deserialize)]
pub struct TicTacToeRecord {
    #[serde(default)]
    options: Option<tictactoe::Options>,
    moves: Vec<tictactoe::CellMove>,
    max_ms: Option<u64>,
}

#[derive(Deserialize)]
pub struct ConnectFourRecord {
    #[serde(default)]
    options: Option<connect_four::Options>,
    moves: Vec<connect_four::ColumnMove>,
    max_ms: Option<u64>,
}

#[derive(Deserialize)]
pub struct IshitoriRecord {
    #[serde(default)]
    options: Option<ishitori::Options>,
    moves: Vec<ishitori::TakeMove>,
    max_ms: Option<u64>,
}

#[derive(Deserialize)]
pub struct PigRecord {
    #[serde(default)]
    options: Option<pig::Options>,
    moves: Vec<pig::RecordMove>,
}

#[derive(Deserialize)]
pub struct ReviewQuery {
    max_ms: Option<u64>,
}

async fn review_tictactoe(
    state: &AppState,
    options: tictactoe::Options,
    steps: Vec<Step<tictactoe::CellMove>>,
    names: [&'static str; 2],
    max_ms: Option<u64>,
) -> Result<Result<Review, ReviewError>, ApiError> {
    let solver = Arc::clone(&state.solvers.tictactoe);
    run_review(state, max_ms, move |limits, quick| {
        tictactoe::review(&solver, &options, &steps, names, limits, quick)
    })
    .await
}

async fn review_connect_four(
    state: &AppState,
    options: connect_four::Options,
    steps: Vec<Step<connect_four::ColumnMove>>,
    names: [&'static str; 2],
    max_ms: Option<u64>,
) -> Result<Result<Review, ReviewError>, ApiError> {
    let solver = Arc::clone(&state.solvers.connect_four);
    run_review(state, max_ms, move |limits, quick| {
        connect_four::review(&solver, &options, &steps, names, limits, quick)
    })
    .await
}

async fn review_ishitori(
    state: &AppState,
    options: ishitori::Options,
    steps: Vec<Step<ishitori::TakeMove>>,
    names: [&'static str; 2],
    max_ms: Option<u64>,
) -> Result<Result<Review, ReviewError>, ApiError> {
    // Cheap to check first: an illegal record never waits for a worker.
    if let Err(e) = ishitori::validate(&options, &steps, names) {
        return Ok(Err(e));
    }
    let solver = Arc::clone(&state.solvers.ishitori);
    let full = run_search(
        &state.config,
        &state.search_pool,
        "review",
        SearchBudget::own(max_ms),
        move |limits| ishitori::review(&solver, &options, &steps, names, limits),
    )
    .await?;
    Ok(full)
}

async fn review_pig(
    state: &AppState,
    options: pig::Options,
    steps: Vec<Step<pig::Decision>>,
    names: [&'static str; 2],
) -> Result<Result<Review, ReviewError>, ApiError> {
    let rules = match options.rules(state.config.pig_max_goal) {
        Ok(rules) => rules,
        Err(e) => return Ok(Err(e)),
    };
    if let Err(e) = pig::validate(&rules, &steps, names) {
        return Ok(Err(e));
    }
    let table = state.solvers.pig_tables.get(rules).await?;
    Ok(pig::review(&table, &steps, names))
}

async fn review_number_square(
    state: &AppState,
    options: number_square::Options,
    steps: Vec<Step<number_square::TileMove>>,
    names: [&'static str; 2],
    max_ms: Option<u64>,
) -> Result<Result<Review, ReviewError>, ApiError> {
    // Cheap to check first: a match whose deal was not recorded never
    // waits for a worker.
    if let Err(e) = number_square::start(&options) {
        return Ok(Err(e));
    }
    let solver = Arc::clone(&state.solvers.number_square);
    run_review(state, max_ms, move |limits, quick| {
        number_square::review(&solver, &options, &steps, names, limits, quick)
    })
    .await
}

/// Nine Square is never proved but at the very end: no quick first try,
/// the whole budget on the search pool.
async fn review_nine_square(
    state: &AppState,
    steps: Vec<Step<nine_square::Turn>>,
    names: [&'static str; 2],
    max_ms: Option<u64>,
) -> Result<Result<Review, ReviewError>, ApiError> {
    run_search(
        &state.config,
        &state.search_pool,
        "review",
        SearchBudget::own(max_ms),
        move |limits| nine_square::review(&steps, names, limits),
    )
    .await
}

pub async fn tictactoe_review(
    State(state): State<AppState>,
    ApiJson(record): ApiJson<TicTacToeRecord>,
) -> Result<Response, ApiError> {
    let steps = Step::numbered(record.moves);
    let options = record.options.unwrap_or_default();
    let review = review_tictactoe(&state, options, steps, review::XO, record.max_ms)
        .await?
        .map_err(record_error)?;
    Ok(json_body(serialise(&review)?))
}

pub async fn connect_four_review(
    State(state): State<AppState>,
    ApiJson(record): ApiJson<ConnectFourRecord>,
) -> Result<Response, ApiError> {
    let steps = Step::numbered(record.moves);
    let options = record.options.unwrap_or_default();
    let review = review_connect_four(&state, options, steps, review::XO, record.max_ms)
        .await?
        .map_err(record_error)?;
    Ok(json_body(serialise(&review)?))
}

pub async fn ishitori_review(
    State(state): State<AppState>,
    ApiJson(record): ApiJson<IshitoriRecord>,
) -> Result<Response, ApiError> {
    let steps = Step::numbered(record.moves);
    let options = record.options.unwrap_or_default();
    let review = review_ishitori(&state, options, steps, review::AB, record.max_ms)
        .await?
        .map_err(record_error)?;
    Ok(json_body(serialise(&review)?))
}

pub async fn pig_review(
    State(state): State<AppState>,
    ApiJson(record): ApiJson<PigRecord>,
) -> Result<Response, ApiError> {
    let steps = pig::steps(record.moves).map_err(record_error)?;
    let options = record.options.unwrap_or_default();
    let review = review_pig(&state, options, steps, review::AB)
        .await?
        .map_err(record_error)?;
    Ok(json_body(serialise(&review)?))
}

/// The review of a stored match, by its game.
async fn review_stored(state: &AppState, stored: &StoredMatch, max_ms: Option<u64>) -> Result<Review, ApiError> {
    let names = match_names(stored);
    let options = &stored.game.options;
    let result = match stored.game.game {
        GameKind::Tictactoe => {
            let steps = match_steps(stored, names)?;
            review_tictactoe(state, parse(options, "options")?, steps, names, max_ms).await?
        }
        GameKind::ConnectFour => {
            let steps = match_steps(stored, names)?;
            review_connect_four(state, parse(options, "options")?, steps, names, max_ms).await?
        }
        GameKind::Ishitori => {
            let steps = match_steps(stored, names)?;
            review_ishitori(state, parse(options, "options")?, steps, names, max_ms).await?
        }
        GameKind::Pig => {
            let steps = pig_steps(stored, names)?;
            review_pig(state, parse(options, "options")?, steps, names).await?
        }
        GameKind::NumberSquare => {
            let steps = match_steps(stored, names)?;
            review_number_square(state, parse(options, "options")?, steps, names, max_ms).await?
        }
        GameKind::NineSquare => {
            let steps = nine_square_steps(stored, names)?;
            review_nine_square(state, steps, names, max_ms).await?
        }
    };
    result.map_err(stored_error)
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
) -> Result<Response, ApiError> {
    if let Some(cache) = &state.review_cache.bodies {
        let token = bearer(&headers)?;
        if let Some(hit) = cache.get(&id) {
            if still_kept(&state, &hit.updated_at) {
                return if token_matches(&hit.token_hash, token) {
                    Ok(json_body(hit.body))
                } else {
                    Err(ApiError::new(
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
        if review.exact && stored.game.status == Status::Finished {
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
