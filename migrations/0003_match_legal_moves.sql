-- The person's legal moves while the match waits for them (JSON text; NULL
-- once it is finished, and in rows written before this column existed).
ALTER TABLE matches ADD COLUMN legal_moves TEXT;
