-- +goose Up
-- The TSE's whole life (docs/TSE.md, "The certificate's expiry" and
-- "Replacing the TSS").
--
-- One warning per certificate and threshold (90, 30, 7 days): the primary
-- key makes a second insert of the same warning a no-op, so the event is
-- raised exactly once, whatever restarts or concurrent checks do.
CREATE TABLE tse_certificate_warnings (
    tss_id         TEXT NOT NULL,
    not_after      TEXT NOT NULL,
    threshold_days INTEGER NOT NULL CHECK (threshold_days IN (90, 30, 7)),
    days_left      INTEGER NOT NULL,
    raised_at      TEXT NOT NULL,
    event_id       TEXT NOT NULL,
    PRIMARY KEY (tss_id, not_after, threshold_days)
) WITHOUT ROWID;

-- The first signature counter to archive a TSS from (docs/FISCAL.md,
-- "A TSS that signed before posbox archived it"): fiskaly keeps a TSS's
-- data three months, so a TSS that signed before posbox archived it can
-- never export its first counters. An admin declares where the archive's
-- chain starts, with a reason. The history is append-only (who, when,
-- why) and the start only moves forward: a later declaration must name a
-- higher counter than every earlier one, so the chain never grows a
-- claim over counters it once gave up.
CREATE TABLE tse_archive_starts (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    tss_id        TEXT NOT NULL,
    first_counter INTEGER NOT NULL CHECK (first_counter >= 2),
    reason        TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    set_by        TEXT NOT NULL REFERENCES users(id),
    set_at        TEXT NOT NULL,
    UNIQUE (tss_id, first_counter)
);
-- +goose StatementBegin
CREATE TRIGGER tse_archive_starts_forward
BEFORE INSERT ON tse_archive_starts
WHEN EXISTS (SELECT 1 FROM tse_archive_starts WHERE tss_id = NEW.tss_id AND first_counter >= NEW.first_counter)
BEGIN
    SELECT RAISE(ABORT, 'tse_archive_start_backwards');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_archive_starts_no_update
BEFORE UPDATE ON tse_archive_starts
BEGIN
    SELECT RAISE(ABORT, 'tse_archive_starts_append_only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_archive_starts_no_delete
BEFORE DELETE ON tse_archive_starts
BEGIN
    SELECT RAISE(ABORT, 'tse_archive_starts_append_only');
END;
-- +goose StatementEnd

-- The guided replacement of a TSS (docs/TSE.md, "Replacing the TSS"): a
-- staged procedure whose state is here, so a crash midway resumes at the
-- step it reached. Steps in the order the law and fiskaly need: every
-- register closed, the final export verified into the archive, the old
-- TSS disabled, a new TSS set up, the queue switched to it. One open
-- replacement per restaurant (the partial unique index); the row is kept
-- for good as the record of the change (the TSE's out-of-service and
-- in-service dates for the §146a report).
CREATE TABLE tse_replacements (
    id             TEXT PRIMARY KEY,
    restaurant_id  TEXT NOT NULL REFERENCES restaurants(id),
    old_tss_id     TEXT NOT NULL,
    old_serial     TEXT NOT NULL,
    new_tss_id     TEXT,
    new_serial     TEXT,
    step           TEXT NOT NULL CHECK (step IN ('closing', 'export', 'disable', 'setup', 'switch', 'done')),
    force_reason   TEXT,
    started_by     TEXT NOT NULL REFERENCES users(id),
    started_at     TEXT NOT NULL,
    closed_at      TEXT,
    exported_at    TEXT,
    final_counter  INTEGER,
    disabled_at    TEXT,
    set_up_at      TEXT,
    switched_at    TEXT,
    last_error     TEXT,
    updated_at     TEXT NOT NULL,
    CHECK (force_reason IS NULL OR length(trim(force_reason)) > 0),
    CHECK (step IN ('closing', 'export', 'disable', 'setup') OR new_tss_id IS NOT NULL)
);
CREATE UNIQUE INDEX tse_replacements_one_open ON tse_replacements(restaurant_id) WHERE step != 'done';

-- +goose Down
DROP TABLE tse_replacements;
DROP TABLE tse_archive_starts;
DROP TABLE tse_certificate_warnings;
