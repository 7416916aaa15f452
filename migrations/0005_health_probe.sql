-- One row that /readyz writes on every probe: a database that answers
-- reads but cannot write (a full disk) is not ready.
CREATE TABLE health_probe (id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL);
