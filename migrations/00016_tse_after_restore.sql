-- +goose Up
-- After a restore from the replica (docs/TSE.md "After a restore"): the
-- comparison of the TSE's transactions with the restored database, and
-- the transactions the TSE signed that the restored box has no sale for
-- (the seconds the replica had not yet received), until the owner has
-- re-entered them. One row per restore; pending until the TSE answered.
CREATE TABLE tse_after_restore (
    id                 TEXT PRIMARY KEY,
    restaurant_id      TEXT NOT NULL REFERENCES restaurants(id),
    tss_id             TEXT NOT NULL,
    restored_at        TEXT NOT NULL,
    -- what the replica held (NULL: the restore did not say)
    replicated_through TEXT,
    state              TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
    attempts           INTEGER NOT NULL DEFAULT 0,
    last_error         TEXT,
    last_attempt_at    TEXT,
    -- the TSE's list was read back to transactions started before this
    compared_from      TEXT,
    compared_at        TEXT,
    created_at         TEXT NOT NULL
);
CREATE INDEX tse_after_restore_restaurant ON tse_after_restore(restaurant_id, created_at);

-- What the TSE signed and the restored box lacks, with what the receipt
-- said (the processData as signed, and its amounts read out of it).
CREATE TABLE tse_after_restore_missing (
    check_id          TEXT NOT NULL REFERENCES tse_after_restore(id),
    tx_id             TEXT NOT NULL,
    number            INTEGER NOT NULL,
    signature_counter INTEGER NOT NULL,
    state             TEXT NOT NULL CHECK (state IN ('ACTIVE', 'FINISHED', 'CANCELLED')),
    time_start        TEXT NOT NULL,
    time_end          TEXT,
    client_id         TEXT NOT NULL,
    client_serial     TEXT NOT NULL DEFAULT '',
    process_type      TEXT NOT NULL DEFAULT '',
    process_data      TEXT NOT NULL DEFAULT '',
    receipt_kind      TEXT NOT NULL DEFAULT '',
    vat_amounts       TEXT NOT NULL DEFAULT '[]',
    payments          TEXT NOT NULL DEFAULT '[]',
    acknowledged_at   TEXT,
    acknowledged_by   TEXT REFERENCES users(id),
    PRIMARY KEY (check_id, tx_id),
    CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL))
);

-- +goose Down
DROP TABLE tse_after_restore_missing;
DROP TABLE tse_after_restore;
