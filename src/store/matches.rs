//! Matches and their histories in the database.
//!
//! A match row holds what the next move needs (the game's own record
//! `saved`, AI, status, ply) and what the API shows (options, state, legal
//! moves, result), as JSON text; `match_events` holds the history, one row
//! per ply. A move is saved by one transaction that updates the row only if its
//! ply is still the one the move was computed from, then appends the events:
//! a retried or concurrent request with a stale ply changes nothing.

use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;

use sqlx::AnyConnection;
use sqlx::Connection;

use super::{discard_on_error, Store, StoreError};
use crate::matches::{Actor, AiSpec, HistoryEntry, Match, MatchGames, MatchResult, Status};

/// A history entry with the time it happened (RFC 3339, UTC).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEvent {
    pub entry: HistoryEntry,
    pub at: String,
}

/// A match as stored: the match, its history, and who may play it.
#[derive(Clone, Debug)]
pub struct StoredMatch {
    pub id: String,
    pub token_hash: String,
    pub game: Match,
    pub history: Vec<StoredEvent>,
    pub created_at: String,
    pub updated_at: String,
}

/// What became of a move that was offered for saving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    Saved,
    /// Another request moved the match on first; nothing was written.
    StalePly,
}

/// What a load that checks the token first found.
#[derive(Debug)]
pub enum Access {
    /// No match has this id.
    Missing,
    /// The check refused the match's token: nothing more was read.
    Refused,
    Found(Box<StoredMatch>),
}

/// Rows removed by one purge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    pub finished: u64,
    pub abandoned: u64,
}

fn to_json(value: &impl serde::Serialize) -> String {
    // Plain data (strings, numbers, JSON values): serialising cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

fn ply_column(ply: u64) -> i64 {
    i64::try_from(ply).unwrap_or(i64::MAX)
}

/// The `saved_ply` column: the match's ply where it has a record.
fn saved_ply(m: &Match) -> Option<i64> {
    m.saved.as_ref().map(|_| ply_column(m.ply))
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::InProgress => "in_progress",
        Status::Finished => "finished",
    }
}

fn actor_text(actor: Actor) -> &'static str {
    match actor {
        Actor::Human => "human",
        Actor::Ai => "ai",
        Actor::Dice => "dice",
    }
}

fn corrupt(what: &str, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{what}: {detail}"))
}

fn parse_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| corrupt(what, e))
}

fn unsigned(what: &str, value: i64) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|e| corrupt(what, e))
}

fn decode_match(row: &AnyRow, games: MatchGames) -> Result<StoredMatch, StoreError> {
    let game: String = row.try_get("game")?;
    let game = games.find(&game).map_err(|e| corrupt("game", e))?;
    let ai: AiSpec = parse_json("ai", &row.try_get::<String, _>("ai")?)?;
    let status = match row.try_get::<String, _>("status")?.as_str() {
        "in_progress" => Status::InProgress,
        "finished" => Status::Finished,
        other => return Err(corrupt("status", other)),
    };
    let result: Option<MatchResult> = match row.try_get::<Option<String>, _>("result")? {
        Some(text) => Some(parse_json("result", &text)?),
        None => None,
    };
    let m = Match {
        game,
        options: parse_json("options", &row.try_get::<String, _>("options")?)?,
        ai,
        ai_first: row.try_get::<i64, _>("ai_first")? != 0,
        status,
        ply: unsigned("ply", row.try_get("ply")?)?,
        state: parse_json("state", &row.try_get::<String, _>("state")?)?,
        saved: row.try_get("saved")?,
        legal_moves: match row.try_get::<Option<String>, _>("legal_moves")? {
            Some(text) => Some(parse_json("legal_moves", &text)?),
            None => None,
        },
        result,
    };
    m.check().map_err(|e| corrupt("match", e))?;
    Ok(StoredMatch {
        id: row.try_get("id")?,
        token_hash: row.try_get("token_hash")?,
        game: m,
        history: Vec::new(),
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn decode_event(row: &AnyRow) -> Result<StoredEvent, StoreError> {
    let actor = match row.try_get::<String, _>("actor")?.as_str() {
        "human" => Actor::Human,
        "ai" => Actor::Ai,
        "dice" => Actor::Dice,
        other => return Err(corrupt("actor", other)),
    };
    let mv: Option<Value> = match row.try_get::<Option<String>, _>("move")? {
        Some(text) => Some(parse_json("move", &text)?),
        None => None,
    };
    let roll = match row.try_get::<Option<i64>, _>("roll")? {
        Some(r) => Some(u32::try_from(r).map_err(|e| corrupt("roll", e))?),
        None => None,
    };
    Ok(StoredEvent {
        entry: HistoryEntry {
            ply: unsigned("ply", row.try_get("ply")?)?,
            actor,
            mv,
            roll,
        },
        at: row.try_get("at")?,
    })
}

impl Store {
    /// Stores a new match with its opening history, all or nothing.
    pub async fn insert_match(
        &self,
        id: &str,
        token_hash: &str,
        m: &Match,
        events: &[StoredEvent],
        now: &str,
    ) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = insert_match_on(&mut conn, id, token_hash, m, events, now).await;
        discard_on_error(&mut conn, result)
    }

    /// The match and its whole history; None when there is no such match.
    pub async fn load_match(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.load_match_since(id, 0).await
    }

    /// The match and the history entries after ply `since`; None when
    /// there is no such match.
    pub async fn load_match_since(&self, id: &str, since: u64) -> Result<Option<StoredMatch>, StoreError> {
        self.load_match_page(id, since, u64::MAX).await
    }

    /// The match and at most `limit` history entries after ply `since`
    /// (the first ones); None when there is no such match.
    pub async fn load_match_page(&self, id: &str, since: u64, limit: u64) -> Result<Option<StoredMatch>, StoreError> {
        Ok(match self.load_match_page_if(id, since, limit, |_| true).await? {
            Access::Found(stored) => Some(*stored),
            Access::Missing | Access::Refused => None,
        })
    }

    /// The same, once `allowed` has accepted the match's stored token hash:
    /// it sees the hash first, so a request with a wrong token costs one
    /// row's read, like an unknown id, not the decoding of the match and
    /// the reading of its history.
    pub async fn load_match_page_if(
        &self,
        id: &str,
        since: u64,
        limit: u64,
        allowed: impl FnOnce(&str) -> bool,
    ) -> Result<Access, StoreError> {
        let row = sqlx::query(
            "SELECT id, game, token_hash, options, ai, ai_first, status, ply, state, legal_moves, result, \
             created_at, updated_at, saved FROM matches WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(Access::Missing);
        };
        if !allowed(&row.try_get::<String, _>("token_hash")?) {
            return Ok(Access::Refused);
        }
        let mut stored = decode_match(&row, self.games)?;
        let events = sqlx::query(
            "SELECT ply, actor, move, roll, at FROM match_events WHERE match_id = $1 AND ply > $2 ORDER BY ply LIMIT $3",
        )
        .bind(id)
        .bind(ply_column(since))
        .bind(ply_column(limit))
        .fetch_all(&self.pool)
        .await?;
        stored.history = events.iter().map(decode_event).collect::<Result<_, _>>()?;
        Ok(Access::Found(Box::new(stored)))
    }

    /// Saves the match after a move, provided its stored ply is still
    /// `expected_ply`; appends the move's events in the same transaction.
    pub async fn save_move(
        &self,
        id: &str,
        expected_ply: u64,
        m: &Match,
        events: &[StoredEvent],
        now: &str,
    ) -> Result<SaveOutcome, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = save_move_on(&mut conn, id, expected_ply, m, events, now).await;
        discard_on_error(&mut conn, result)
    }

    /// The ids of matches without a record at their ply (see
    /// `saved_ply`), at most `limit` of them.
    pub async fn unrecorded_matches(&self, limit: u64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM matches WHERE saved IS NULL OR saved_ply IS NULL OR saved_ply <> ply ORDER BY id LIMIT $1",
        )
        .bind(ply_column(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }

    /// Writes a match's record (with the legal moves and result it gives),
    /// provided its ply is still `m.ply`: false when a move came first.
    pub async fn save_record(&self, id: &str, m: &Match) -> Result<bool, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = sqlx::query(
            "UPDATE matches SET saved = $1, saved_ply = $2, legal_moves = $3, result = $4 WHERE id = $5 AND ply = $6",
        )
        .bind(m.saved.as_deref())
        .bind(saved_ply(m))
        .bind(m.legal_moves.as_ref().map(to_json))
        .bind(m.result.as_ref().map(to_json))
        .bind(id)
        .bind(ply_column(m.ply))
        .execute(&mut *conn)
        .await
        .map(|done| done.rows_affected() == 1)
        .map_err(StoreError::from);
        discard_on_error(&mut conn, result)
    }

    /// Deletes finished matches last changed before `finished_before`, and
    /// matches in progress untouched since `idle_before` (both RFC 3339 UTC
    /// text in the same format as stored, so text order is time order).
    pub async fn purge_matches(&self, finished_before: &str, idle_before: &str) -> Result<Purged, StoreError> {
        let finished = self.purge_where("finished", finished_before).await?;
        let abandoned = self.purge_where("in_progress", idle_before).await?;
        Ok(Purged { finished, abandoned })
    }

    async fn purge_where(&self, status: &str, before: &str) -> Result<u64, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = purge_where_on(&mut conn, status, before).await;
        discard_on_error(&mut conn, result)
    }
}

async fn insert_events(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    events: &[StoredEvent],
) -> Result<(), StoreError> {
    for event in events {
        sqlx::query("INSERT INTO match_events (match_id, ply, actor, move, roll, at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(id)
            .bind(ply_column(event.entry.ply))
            .bind(actor_text(event.entry.actor))
            .bind(event.entry.mv.as_ref().map(to_json))
            .bind(event.entry.roll.map(i64::from))
            .bind(&event.at)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Stores a new match with its opening history, in one transaction on `conn`.
async fn insert_match_on(
    conn: &mut AnyConnection,
    id: &str,
    token_hash: &str,
    m: &Match,
    events: &[StoredEvent],
    now: &str,
) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    sqlx::query(
        "INSERT INTO matches (id, game, token_hash, options, ai, ai_first, status, ply, state, legal_moves, \
         result, created_at, updated_at, saved, saved_ply) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
    )
    .bind(id)
    .bind(m.game.as_str())
    .bind(token_hash)
    .bind(to_json(&m.options))
    .bind(to_json(&m.ai))
    .bind(i64::from(m.ai_first))
    .bind(status_text(m.status))
    .bind(ply_column(m.ply))
    .bind(to_json(&m.state))
    .bind(m.legal_moves.as_ref().map(to_json))
    .bind(m.result.as_ref().map(to_json))
    .bind(now)
    .bind(now)
    .bind(m.saved.as_deref())
    .bind(saved_ply(m))
    .execute(&mut *tx)
    .await?;
    insert_events(&mut tx, id, events).await?;
    tx.commit().await?;
    Ok(())
}

/// Saves a move in one transaction on `conn` (see [`Store::save_move`]).
async fn save_move_on(
    conn: &mut AnyConnection,
    id: &str,
    expected_ply: u64,
    m: &Match,
    events: &[StoredEvent],
    now: &str,
) -> Result<SaveOutcome, StoreError> {
    let mut tx = conn.begin().await?;
    let updated = sqlx::query(
        "UPDATE matches SET status = $1, ply = $2, state = $3, legal_moves = $4, result = $5, updated_at = $6, \
         saved = $7, saved_ply = $8 WHERE id = $9 AND ply = $10",
    )
    .bind(status_text(m.status))
    .bind(ply_column(m.ply))
    .bind(to_json(&m.state))
    .bind(m.legal_moves.as_ref().map(to_json))
    .bind(m.result.as_ref().map(to_json))
    .bind(now)
    .bind(m.saved.as_deref())
    .bind(saved_ply(m))
    .bind(id)
    .bind(ply_column(expected_ply))
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(SaveOutcome::StalePly);
    }
    insert_events(&mut tx, id, events).await?;
    tx.commit().await?;
    Ok(SaveOutcome::Saved)
}

async fn purge_where_on(conn: &mut AnyConnection, status: &str, before: &str) -> Result<u64, StoreError> {
    let mut tx = conn.begin().await?;
    sqlx::query(
        "DELETE FROM match_events WHERE match_id IN \
         (SELECT id FROM matches WHERE status = $1 AND updated_at < $2)",
    )
    .bind(status)
    .bind(before)
    .execute(&mut *tx)
    .await?;
    let removed = sqlx::query("DELETE FROM matches WHERE status = $1 AND updated_at < $2")
        .bind(status)
        .bind(before)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(removed)
}
