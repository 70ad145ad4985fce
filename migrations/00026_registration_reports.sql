-- +goose Up
-- The §146a (4) AO registration with the tax office (docs/FISCAL.md,
-- "Registration with the tax office"): what the box last knew was in
-- service, each change that makes a registration due, and each
-- registration the owner marked as submitted, with the file as it was.

-- What is known to be in service: a register (by its client serial) or a
-- TSS (by its serial). A change is a register or TSS that is new here, or
-- whose dates differ from these.
CREATE TABLE registration_known (
    restaurant_id     TEXT NOT NULL REFERENCES restaurants(id),
    kind              TEXT NOT NULL CHECK (kind IN ('register', 'tse')),
    subject           TEXT NOT NULL,
    in_service_on     TEXT,
    out_of_service_on TEXT,
    seen_at           TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, kind, subject)
);

-- The registers already in the master data were registered (the duty's
-- first deadline was 31.07.2025); so were the certified TSS the queue
-- cached (a simulator reports no BSI certification id and is no TSE).
-- An upgrade raises nothing for them.
INSERT INTO registration_known (restaurant_id, kind, subject, in_service_on, out_of_service_on, seen_at)
SELECT restaurant_id, 'register', client_serial, COALESCE(in_service_on, acquired_on), decommissioned_on, updated_at FROM fiscal_registers;
INSERT OR IGNORE INTO registration_known (restaurant_id, kind, subject, in_service_on, out_of_service_on, seen_at)
SELECT r.id, 'tse', json_extract(kv.value, '$.serial_number'), NULL, NULL, kv.updated_at
FROM kv, restaurants r
WHERE kv.key LIKE 'tse.info.%' AND json_valid(kv.value)
  AND COALESCE(json_extract(kv.value, '$.bsi_certification_id'), '') != ''
  AND COALESCE(json_extract(kv.value, '$.serial_number'), '') != ''
  AND r.id = (SELECT id FROM restaurants ORDER BY created_at, id LIMIT 1);

-- A registration the owner marked as submitted in Mein ELSTER: the file
-- posbox made at that moment, kept as proof; never changed or removed.
CREATE TABLE registration_submissions (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    submitted_on  TEXT NOT NULL,
    file          TEXT NOT NULL,
    sha256        TEXT NOT NULL CHECK (length(sha256) = 64),
    created_by    TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX registration_submissions_by_restaurant ON registration_submissions(restaurant_id, created_at);

-- +goose StatementBegin
CREATE TRIGGER registration_submissions_no_update BEFORE UPDATE ON registration_submissions
BEGIN
    SELECT RAISE(ABORT, 'registration_submissions is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER registration_submissions_no_delete BEFORE DELETE ON registration_submissions
BEGIN
    SELECT RAISE(ABORT, 'registration_submissions is append-only');
END;
-- +goose StatementEnd

-- A change that makes a registration due within a month of its date,
-- open until a submission covers it. One open change per subject, kind
-- and date: the same change saved twice (or by two admins at once) is
-- due once.
CREATE TABLE registration_changes (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    change        TEXT NOT NULL CHECK (change IN ('register_in_service', 'register_out_of_service', 'tse_in_service', 'tse_out_of_service')),
    subject       TEXT NOT NULL,
    on_date       TEXT NOT NULL,
    due_on        TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    submission_id TEXT REFERENCES registration_submissions(id)
);
CREATE UNIQUE INDEX registration_changes_open ON registration_changes(restaurant_id, change, subject, on_date) WHERE submission_id IS NULL;

-- +goose Down
DROP TABLE registration_changes;
DROP TABLE registration_submissions;
DROP TABLE registration_known;
