//! The database: connection, migrations, health. The only place SQL lives.
//!
//! One `AnyPool` serves both back ends (SQLite by default, PostgreSQL for
//! replicas); the migrations are written in SQL both understand.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::matches::MatchGames;
use sqlx::any::{install_default_drivers, AnyPoolOptions};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Executor};
use thiserror::Error;

pub mod matches;

pub use matches::{Access, Purged, SaveOutcome, StoredEvent, StoredMatch};

/// Times as stored and shown: RFC 3339 in UTC with milliseconds, one fixed
/// width, so that comparing the text compares the times.
pub fn timestamp(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Passes `result` on; after a failure the connection is closed instead of
/// going back to the pool. SQLite keeps a transaction open when its COMMIT
/// fails (a full disk), and sqlx then counts the connection as still inside
/// it: every later `begin` on it only opens a savepoint, so writes it
/// "commits" are never seen by another connection, and its write lock
/// answers every other writer "database is locked". A fresh connection is
/// cheap; such a one must never be reused.
pub(crate) fn discard_on_error<T>(
    conn: &mut PoolConnection<Any>,
    result: Result<T, StoreError>,
) -> Result<T, StoreError> {
    if let Err(error) = &result {
        tracing::warn!(%error, "a database connection failed its work; closing it rather than reusing it");
        conn.close_on_drop();
    }
    result
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Whether the database answered that a table does not exist: its schema
/// is gone (PostgreSQL's `undefined_table`, SQLite's "no such table").
fn names_a_missing_table(error: &sqlx::Error) -> bool {
    let sqlx::Error::Database(error) = error else {
        return false;
    };
    error.code().as_deref() == Some("42P01") || error.message().starts_with("no such table")
}

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database URL must start with sqlite: or postgres:// (got \"{0}\")")]
    UnsupportedUrl(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("database schema is not ready yet")]
    NotMigrated,
    /// Stored data that does not decode: a bug or a hand edit, not an outage.
    #[error("stored data is not valid: {0}")]
    Corrupt(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgresql",
        }
    }
}

#[derive(Clone)]
pub struct Store {
    /// The games a stored match may be of (its `game` column is an id).
    games: MatchGames,
    pool: AnyPool,
    backend: Backend,
    migrated: Arc<AtomicBool>,
}

impl Store {
    /// Prepares a pool without connecting: a database that is down at
    /// start-up must not keep the stateless endpoints from serving.
    pub fn connect_lazy(url: &str, games: MatchGames) -> Result<Self, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::UnsupportedUrl(url.to_string()));
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 10 })
            .acquire_timeout(Duration::from_secs(3))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never wait for the writer; a committed
                        // move survives the process being killed.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect_lazy(url)?;
        Ok(Self {
            games,
            pool,
            backend,
            migrated: Arc::new(AtomicBool::new(false)),
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Applies pending migrations. On PostgreSQL sqlx holds an advisory lock
    /// meanwhile, so replicas starting together apply them exactly once.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        MIGRATOR.run(&self.pool).await?;
        self.migrated.store(true, Ordering::Release);
        Ok(())
    }

    /// Keeps trying to migrate until it works (the database may come up
    /// after the service does).
    pub async fn migrate_until_ready(&self) {
        let mut wait = Duration::from_millis(200);
        loop {
            match self.migrate().await {
                Ok(()) => {
                    tracing::info!(backend = self.backend.as_str(), "database ready");
                    return;
                }
                Err(error) => {
                    tracing::warn!(%error, retry_in_ms = wait.as_millis() as u64, "database not ready");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    /// Ok when the schema is in place and the database takes a write now:
    /// one that answers reads but cannot write (a full disk) is not ready.
    /// A database found without its schema (dropped and created again
    /// while the server ran) gets the migrations again, so that readiness
    /// comes back with the database.
    pub async fn check(&self) -> Result<(), StoreError> {
        if !self.migrated.load(Ordering::Acquire) {
            return Err(StoreError::NotMigrated);
        }
        match self.probe().await {
            Err(StoreError::Database(error)) if names_a_missing_table(&error) => {
                tracing::warn!(%error, "the database lost its schema: migrating it again");
                self.migrate().await?;
                self.probe().await
            }
            result => result,
        }
    }

    /// Writes the one row of `health_probe`.
    async fn probe(&self) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = sqlx::query(
            "INSERT INTO health_probe (id, checked_at) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
        )
        .bind(timestamp(chrono::Utc::now()))
        .execute(&mut *conn)
        .await
        .map(|_| ())
        .map_err(StoreError::from);
        discard_on_error(&mut conn, result)
    }

    /// Deletes matches past their retention, now and then every
    /// `interval`, for as long as the server runs. Each replica may run it:
    /// the deletes are idempotent.
    pub async fn purge_matches_forever(&self, finished_for: Duration, idle_for: Duration, interval: Duration) {
        loop {
            let now = chrono::Utc::now();
            let before = |age: Duration| {
                let age = chrono::Duration::from_std(age).unwrap_or(chrono::Duration::MAX);
                timestamp(
                    now.checked_sub_signed(age)
                        .unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC),
                )
            };
            match self.purge_matches(&before(finished_for), &before(idle_for)).await {
                Ok(purged) if purged != Purged::default() => {
                    tracing::info!(
                        finished = purged.finished,
                        abandoned = purged.abandoned,
                        "purged old matches"
                    )
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "purging old matches failed; will retry"),
            }
            tokio::time::sleep(interval.max(Duration::from_millis(100))).await;
        }
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}
