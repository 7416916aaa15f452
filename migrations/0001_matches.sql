-- Matches against the AI (see the Matches section of the API contract).
-- Portable SQL: the same file runs on SQLite and PostgreSQL. Times are
-- RFC 3339 text; structured parts are JSON text, owned by src/matches.

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    -- SHA-256 of the bearer token; the token itself is never stored.
    token_hash  TEXT NOT NULL,
    options     TEXT NOT NULL,
    ai          TEXT NOT NULL,
    status      TEXT NOT NULL,
    -- Number of history entries; a move must name it, so a retried request
    -- (stale ply) is refused instead of applied twice.
    ply         BIGINT NOT NULL,
    state       TEXT NOT NULL,
    result      TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- Retention purges finished and idle matches by age.
CREATE INDEX matches_status_updated ON matches (status, updated_at);

-- Every move and every die, in order.
CREATE TABLE match_events (
    match_id  TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply       BIGINT NOT NULL,
    actor     TEXT NOT NULL,
    move      TEXT,
    roll      BIGINT,
    at        TEXT NOT NULL,
    PRIMARY KEY (match_id, ply)
);
