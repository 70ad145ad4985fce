-- +goose Up
-- Retention and the erasure of staff who left (docs/RETENTION.md).

-- When the user's personal data was erased (GDPR art. 17): the row stays
-- for the time records, payroll and receipts that name it.
ALTER TABLE users ADD COLUMN erased_at TEXT;

-- The audit record of an erasure: who erased whom, when, and when the name
-- was pseudonymised once the time records' period ended. Ids only, never
-- the erased data.
CREATE TABLE user_erasures (
    id               TEXT PRIMARY KEY,
    restaurant_id    TEXT NOT NULL REFERENCES restaurants(id),
    user_id          TEXT NOT NULL UNIQUE REFERENCES users(id),
    erased_by        TEXT NOT NULL REFERENCES users(id),
    erased_at        TEXT NOT NULL,
    pseudonymised_at TEXT
);
CREATE INDEX user_erasures_open ON user_erasures(restaurant_id) WHERE pseudonymised_at IS NULL;

-- Final deliveries go after notification_keep_days, by their last change.
CREATE INDEX notification_deliveries_updated ON notification_deliveries(updated_at)
    WHERE status IN ('delivered', 'failed', 'cancelled');

-- Corrections stay append-only, except that the retention job may delete
-- one made before the cutoff it records in kv (per restaurant, in the same
-- transaction: the end of the time records' retention period) when its
-- entry is gone or goes too: the entry ended before the cutoff and no
-- correction of it was made on or after it.
DROP TRIGGER time_entry_corrections_no_delete;
-- +goose StatementBegin
CREATE TRIGGER time_entry_corrections_no_delete BEFORE DELETE ON time_entry_corrections
WHEN NOT (
    old.at < coalesce((SELECT value FROM kv WHERE key = 'retention.time_records_before.' || old.restaurant_id), '')
    AND NOT EXISTS (SELECT 1 FROM time_entries e WHERE e.id = old.time_entry_id
        AND (e.clock_out IS NULL OR e.clock_out >= (SELECT value FROM kv WHERE key = 'retention.time_records_before.' || old.restaurant_id)))
    AND NOT EXISTS (SELECT 1 FROM time_entry_corrections c WHERE c.time_entry_id = old.time_entry_id
        AND c.at >= (SELECT value FROM kv WHERE key = 'retention.time_records_before.' || old.restaurant_id))
)
BEGIN
    SELECT RAISE(ABORT, 'time_entry_corrections is append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER time_entry_corrections_no_delete;
-- +goose StatementBegin
CREATE TRIGGER time_entry_corrections_no_delete BEFORE DELETE ON time_entry_corrections
BEGIN
    SELECT RAISE(ABORT, 'time_entry_corrections is append-only');
END;
-- +goose StatementEnd
DROP INDEX notification_deliveries_updated;
DROP TABLE user_erasures;
ALTER TABLE users DROP COLUMN erased_at;
