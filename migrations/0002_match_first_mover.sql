-- Who moved first (1: the AI), shown in the match object. BIGINT rather
-- than BOOLEAN so that SQLite and PostgreSQL read it the same way.
ALTER TABLE matches ADD COLUMN ai_first BIGINT NOT NULL DEFAULT 0;
