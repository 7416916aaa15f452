//! POST /matches, GET /matches/{id}, POST /matches/{id}/moves.
//!
//! The engine (src/matches) plays; the store keeps. A request loads the
//! match, lets the engine apply the person's move and the AI's and dice's
//! answers on a blocking thread, then saves the result only if nobody moved
//! the match on meanwhile (409 otherwise).

use std::borrow::Cow;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rand::rngs::{OsRng, StdRng};
use rand::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::extract::{ApiJson, ApiQuery};
use super::match_access::{load_authorized_page, token_hash, ID_BYTES};
use super::state::AppState;
use crate::core::problem::Problem;
use crate::matches::read;
use crate::matches::{
    Actor, AiContext, AiSpec, GameKind, HistoryEntry, Match, MatchError, MatchLimits, MatchResult, NewMatch, Status,
};
use crate::store::{timestamp, SaveOutcome, StoredEvent, StoredMatch};

/// Tokens are the secret (ids are public: they appear in URLs).
const TOKEN_BYTES: usize = 32;

/// `?since=N`: only the history entries after ply N.
#[derive(Deserialize, Default)]
pub struct HistorySince {
    #[serde(default)]
    since: u64,
}

#[derive(Deserialize)]
pub struct MoveRequest {
    ply: u64,
    #[serde(rename = "move", deserialize_with = "read::unique_keys")]
    mv: Value,
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

/// The most history entries one answer carries.
fn history_page(state: &AppState) -> u64 {
    state.config.history_page.max(1)
}

fn stamp(entries: Vec<HistoryEntry>, at: &str) -> Vec<StoredEvent> {
    entries
        .into_iter()
        .map(|entry| StoredEvent {
            entry,
            at: at.to_string(),
        })
        .collect()
}

/// The match object of the contract, fields in the contract's order.
#[derive(Serialize)]
struct MatchBody<'a> {
    id: &'a str,
    game: GameKind,
    options: Cow<'a, Value>,
    ai: &'a AiSpec,
    ai_first: bool,
    status: Status,
    ply: u64,
    state: Cow<'a, Value>,
    legal_moves: Option<&'a Vec<Value>>,
    history: Vec<EventBody<'a>>,
    result: Option<MatchResult>,
    created_at: &'a str,
    updated_at: &'a str,
    /// Only in the answer to POST /matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
}

#[derive(Serialize)]
struct EventBody<'a> {
    ply: u64,
    actor: Actor,
    #[serde(rename = "move")]
    mv: &'a Option<Value>,
    roll: Option<u32>,
    at: &'a str,
}

fn match_body<'a>(stored: &'a StoredMatch, token: Option<&'a str>) -> MatchBody<'a> {
    let m = &stored.game;
    MatchBody {
        id: &stored.id,
        game: m.game,
        options: m.shown_options(),
        ai: &m.ai,
        ai_first: m.ai_first,
        status: m.status,
        ply: m.ply,
        state: m.shown_state(),
        legal_moves: m.legal_moves.as_ref(),
        history: stored
            .history
            .iter()
            .map(|e| EventBody {
                ply: e.entry.ply,
                actor: e.entry.actor,
                mv: &e.entry.mv,
                roll: e.entry.roll,
                at: &e.at,
            })
            .collect(),
        result: m.result.clone(),
        created_at: &stored.created_at,
        updated_at: &stored.updated_at,
        token,
    }
}

/// Runs the engine on a blocking thread: an AI move can be a real search,
/// and then (`searches`) waits for a search worker like any search. Work
/// that makes no AI move (a match the person starts) needs no worker.
/// Dice and the AI's random choices come from an OS-seeded generator.
async fn with_ai<T, F>(state: &AppState, searches: bool, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&AiContext, &mut StdRng) -> Result<T, MatchError> + Send + 'static,
{
    let permit = if searches {
        Some(state.search_pool.enter().await?)
    } else {
        None
    };
    let state = state.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let ctx = AiContext {
            solvers: &state.solvers,
            limits: MatchLimits::default(),
        };
        let mut rng = StdRng::from_rng(OsRng).map_err(|e| MatchError::Internal(e.to_string()))?;
        work(&ctx, &mut rng)
    })
    .await
    .map_err(|e| Problem::internal(&e))?
    .map_err(Problem::from)
}

pub async fn create(State(state): State<AppState>, ApiJson(request): ApiJson<NewMatch>) -> Result<Response, Problem> {
    // The AI moves at creation only when it moves first.
    let searches = request.ai_first == Some(true);
    let (m, entries) = with_ai(&state, searches, move |ctx, rng| {
        Match::create(crate::registry::MATCH_GAMES, &request, ctx, rng)
    })
    .await?;
    let id = random_hex(ID_BYTES);
    let token = random_hex(TOKEN_BYTES);
    let now = timestamp(chrono::Utc::now());
    let history = stamp(entries, &now);
    state
        .store
        .insert_match(&id, &token_hash(&token), &m, &history, &now)
        .await?;
    let stored = StoredMatch {
        id,
        token_hash: String::new(),
        game: m,
        history,
        created_at: now.clone(),
        updated_at: now,
    };
    let location = format!("/matches/{}", stored.id);
    let mut response = (StatusCode::CREATED, Json(match_body(&stored, Some(&token)))).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&location) {
        headers.insert(header::LOCATION, value);
    }
    // The answer carries the match's secret: no cache keeps it.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

pub async fn get_match(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<HistorySince>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let stored = load_authorized_page(&state, &id, &headers, query.since, history_page(&state)).await?;
    Ok(Json(match_body(&stored, None)).into_response())
}

pub async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<HistorySince>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Response, Problem> {
    let page = history_page(&state);
    let mut stored = load_authorized_page(&state, &id, &headers, query.since, page).await?;
    let offered_ply = request.ply;
    let stale = |current: u64| {
        Problem::new(
            StatusCode::CONFLICT,
            format!("ply {offered_ply} is not the match's current ply {current}; reload the match and send its ply"),
        )
        .with_kind("stale-ply")
    };
    if request.ply != stored.game.ply {
        return Err(stale(stored.game.ply));
    }
    // Some games never end by themselves (Ishitori taking 1 from 2^64-1):
    // a match stops growing at the cap, so that its answers and its review
    // stay bounded.
    let max_plies = state.config.match_max_plies;
    if stored.game.status == Status::InProgress && stored.game.ply >= max_plies {
        return Err(Problem::unprocessable(format!(
            "this match has reached {} plies, this server's limit (match_max_plies, KIBITZ_MATCH_MAX_PLIES); \
             start a new match",
            stored.game.ply
        ))
        .with_kind("match-too-long"));
    }
    let before = stored.game.clone();
    let expected_ply = before.ply;
    // A row without a record at its ply (an older replica moved it) gets
    // one from its whole history first.
    let unrecorded_history = if before.has_record() {
        None
    } else {
        let whole = state.store.load_match(&id).await?;
        Some(whole.as_ref().map(crate::records::entries).unwrap_or_default())
    };
    let (after, entries) = with_ai(&state, true, move |ctx, rng| {
        let mut m = before;
        if let Some(history) = &unrecorded_history {
            m.rebuild_record(history, ctx.solvers)?;
        }
        let entries = m.play(&request.mv, ctx, rng)?;
        Ok((m, entries))
    })
    .await?;
    let now = timestamp(chrono::Utc::now());
    let events = stamp(entries, &now);
    match state.store.save_move(&id, expected_ply, &after, &events, &now).await? {
        SaveOutcome::Saved => {}
        SaveOutcome::StalePly => {
            // Another request won the race; say where the match is now.
            let current = state.store.load_match(&id).await?.map_or(expected_ply, |m| m.game.ply);
            return Err(stale(current));
        }
    }
    stored.game = after;
    // The page loaded ran from `since` to the ply before the move unless it
    // was full: the new entries continue it, up to the page's size.
    stored.history.extend(events);
    stored.history.truncate(usize::try_from(page).unwrap_or(usize::MAX));
    stored.updated_at = now;
    Ok(Json(match_body(&stored, None)).into_response())
}
