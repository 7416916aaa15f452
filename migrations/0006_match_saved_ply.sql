-- The ply `saved` was written at, beside it: a row whose record is missing
-- or behind (stored before records were kept, or moved by a replica of
-- such a version, which leaves this column as it was) is found without
-- reading its record. NULL in every row written before it existed: each
-- is given its record again from its history once, at start-up.
ALTER TABLE matches ADD COLUMN saved_ply BIGINT;
