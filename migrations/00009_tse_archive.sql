-- +goose Up
-- The fiscal archive (issue 14): the TSE's TAR exports pulled onto the box,
-- verified and kept ten years (docs/FISCAL.md, docs/DESIGN.md "The TSE
-- archive"). One row per export posbox asked the provider for.
--
-- kind 'incremental': the nightly job's signature-counter ranges, which
-- together cover the TSS's log messages from counter 1 without a gap;
-- first_counter and last_counter are set when the row is planned.
-- kind 'dates': an admin's export of a date range, for handing over; its
-- counters are what the TAR held (set once verified) and it is no part of
-- the incremental chain.
--
-- export_id is chosen by posbox and written before the export is
-- triggered, so a restart finds and resumes the same export.
CREATE TABLE tse_archives (
    id                TEXT PRIMARY KEY,
    restaurant_id     TEXT NOT NULL REFERENCES restaurants(id),
    tss_id            TEXT NOT NULL,
    tss_serial        TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind IN ('incremental', 'dates')),
    first_counter     INTEGER CHECK (first_counter >= 1),
    last_counter      INTEGER CHECK (last_counter >= first_counter),
    start_date        TEXT,
    end_date          TEXT,
    export_id         TEXT NOT NULL UNIQUE,
    state             TEXT NOT NULL CHECK (state IN ('pending', 'exporting', 'verifying', 'archived', 'failed')),
    attempts          INTEGER NOT NULL DEFAULT 0,
    next_attempt_at   TEXT NOT NULL,
    -- the last problem (provider error or verification finding): code and a sentence for people
    reason_code       TEXT,
    reason            TEXT,
    -- verification: NULL until a TAR was checked, then 'passed' or 'failed'
    verification      TEXT CHECK (verification IN ('passed', 'failed')),
    log_messages      INTEGER,
    first_log_time    TEXT,
    last_log_time     TEXT,
    file_name         TEXT UNIQUE,
    size_bytes        INTEGER,
    sha256            TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    archived_at       TEXT,
    CHECK (kind != 'incremental' OR (first_counter IS NOT NULL AND last_counter IS NOT NULL)),
    CHECK (kind != 'dates' OR (start_date IS NOT NULL AND end_date IS NOT NULL)),
    CHECK (state != 'archived' OR (verification = 'passed' AND file_name IS NOT NULL AND sha256 IS NOT NULL
                                   AND first_counter IS NOT NULL AND last_counter IS NOT NULL))
);
CREATE INDEX tse_archives_tss ON tse_archives(tss_id, kind, first_counter);
CREATE INDEX tse_archives_open ON tse_archives(tss_id, state) WHERE state IN ('pending', 'exporting', 'verifying');

-- No two archived incremental ranges of a TSS overlap: the store checks it
-- in the write transaction that archives a range (a clear error), and this
-- trigger is the last line for any path that forgot.
-- +goose StatementBegin
CREATE TRIGGER tse_archives_no_overlap
BEFORE UPDATE OF state ON tse_archives
WHEN NEW.state = 'archived' AND NEW.kind = 'incremental'
BEGIN
    SELECT RAISE(ABORT, 'tse_archive_overlap')
    WHERE EXISTS (SELECT 1 FROM tse_archives o
                  WHERE o.tss_id = NEW.tss_id AND o.kind = 'incremental' AND o.state = 'archived' AND o.id != NEW.id
                    AND o.first_counter <= NEW.last_counter AND NEW.first_counter <= o.last_counter);
END;
-- +goose StatementEnd

-- Planned incremental ranges must not overlap either (a second job run or
-- a restart plans from where the last range ends).
-- +goose StatementBegin
CREATE TRIGGER tse_archives_plan_no_overlap
BEFORE INSERT ON tse_archives
WHEN NEW.kind = 'incremental'
BEGIN
    SELECT RAISE(ABORT, 'tse_archive_overlap')
    WHERE EXISTS (SELECT 1 FROM tse_archives o
                  WHERE o.tss_id = NEW.tss_id AND o.kind = 'incremental'
                    AND o.first_counter <= NEW.last_counter AND NEW.first_counter <= o.last_counter);
END;
-- +goose StatementEnd

-- The archive's checks look transactions up by signature counter: "every
-- transaction posbox signed in this range is in the TAR" and "the oldest
-- transaction not yet archived".
CREATE INDEX tse_transactions_counter ON tse_transactions(tss_id, signature_counter) WHERE signature_counter IS NOT NULL;

-- +goose Down
DROP INDEX tse_transactions_counter;
DROP TRIGGER tse_archives_plan_no_overlap;
DROP TRIGGER tse_archives_no_overlap;
DROP TABLE tse_archives;
