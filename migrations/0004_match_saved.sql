-- The game's own record of a match (JSON text: its typed options, the
-- person's seat and every move from the opening, dice included), from which
-- the next move rebuilds the game. NULL in rows written before it existed:
-- those are still read from `options` and `state`.
ALTER TABLE matches ADD COLUMN saved TEXT;
