-- +goose Up
-- The retention job's clock guard (docs/RETENTION.md): when it does not
-- trust the clock to delete time records it says so here, for the console
-- to show, and an admin who confirms that the clock is right leaves an
-- audit record that lets the job delete up to the date she saw.

-- One row per restaurant while the guard holds the time records back.
CREATE TABLE retention_holds (
    restaurant_id      TEXT PRIMARY KEY REFERENCES restaurants(id),
    reason             TEXT NOT NULL CHECK (reason IN ('clock_ahead', 'cutoff_jump')),
    since              TEXT NOT NULL,
    checked_at         TEXT NOT NULL,
    newest_record      TEXT,
    delete_before      TEXT NOT NULL,
    last_delete_before TEXT
);

-- Who confirmed the clock, when, and up to which date time records may
-- go: kept for good (it proves why records were deleted).
CREATE TABLE retention_confirmations (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    confirmed_by  TEXT NOT NULL REFERENCES users(id),
    confirmed_at  TEXT NOT NULL,
    reason        TEXT NOT NULL,
    delete_before TEXT NOT NULL,
    newest_record TEXT
);
CREATE INDEX retention_confirmations_restaurant ON retention_confirmations(restaurant_id, delete_before);

-- +goose Down
DROP TABLE retention_confirmations;
DROP TABLE retention_holds;
