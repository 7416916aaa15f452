//! Who may see and move a match: its bearer token, checked against the
//! stored hash, and the match loaded only for the request that holds it.
//! Shared by the match routes and the match review.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::state::AppState;
use crate::core::problem::Problem;
use crate::store::{Access, StoredMatch};

/// Ids are public (they appear in URLs); tokens are the secret.
pub const ID_BYTES: usize = 16;

/// What the store keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The bearer token of the request; 401 when there is none.
pub fn bearer(headers: &HeaderMap) -> Result<&str, Problem> {
    let missing = || {
        Problem::new(
            StatusCode::UNAUTHORIZED,
            "this match needs its token: send \"Authorization: Bearer <token>\" with the token from POST /matches",
        )
        .with_header(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
    };
    let value = headers.get(header::AUTHORIZATION).ok_or_else(missing)?;
    let value = value.to_str().map_err(|_| missing())?;
    let (scheme, token) = value.split_once(' ').ok_or_else(missing)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(missing());
    }
    Ok(token)
}

/// The answer to a token that does not hash to the stored hash.
fn forbidden() -> Problem {
    Problem::new(StatusCode::FORBIDDEN, "the token does not belong to this match")
}

/// True when `token` hashes to `stored_hash` (compared in constant time).
pub fn token_matches(stored_hash: &str, token: &str) -> bool {
    let offered = token_hash(token);
    bool::from(offered.as_bytes().ct_eq(stored_hash.as_bytes()))
}

/// Plies the AI and the dice may add after the person's last move within
/// the cap (a Pig turn of many rolls): a match's whole history is at most
/// the cap plus this.
const REPLY_PLIES: u64 = 1_000;

/// The match with its whole history (for a review), when that history is
/// within the match length cap: a longer one (kept from before the cap, or
/// from a larger one) is refused, not read into memory.
pub async fn load_authorized(state: &AppState, id: &str, headers: &HeaderMap) -> Result<StoredMatch, Problem> {
    let most = state.config.match_max_plies.saturating_add(REPLY_PLIES);
    let stored = load_authorized_page(state, id, headers, 0, most).await?;
    if stored.game.ply > most {
        return Err(Problem::unprocessable(format!(
            "this match has {} plies, more than this server reviews ({most}: match_max_plies, KIBITZ_MATCH_MAX_PLIES, \
             plus the AI's replies)",
            stored.game.ply
        )));
    }
    Ok(stored)
}

/// Loads the match the request names, with at most `limit` history
/// entries after ply `since`, once its token is checked: the token is
/// compared with the stored hash before the match is decoded or its
/// history read, so a wrong token costs what an unknown id does.
pub async fn load_authorized_page(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    since: u64,
    limit: u64,
) -> Result<StoredMatch, Problem> {
    let token = bearer(headers)?;
    let not_found = || Problem::new(StatusCode::NOT_FOUND, format!("no match with id {:?}", truncate(id)));
    if !is_match_id(id) {
        return Err(not_found());
    }
    match state
        .store
        .load_match_page_if(id, since, limit, |hash| token_matches(hash, token))
        .await?
    {
        Access::Found(stored) => Ok(*stored),
        Access::Missing => Err(not_found()),
        Access::Refused => Err(forbidden()),
    }
}

fn is_match_id(id: &str) -> bool {
    id.len() == ID_BYTES * 2 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}
