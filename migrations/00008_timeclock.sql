-- +goose Up
-- The time clock a German restaurant can rely on (docs/TIMECLOCK.md).

-- Restaurant-level time-clock settings. federal_state is the two-letter
-- code of the German state whose public holidays count for § 3b EStG
-- (NULL: the nationwide holidays only); min_rest_hours is 11 (ArbZG § 5 (1))
-- or 10 (the hospitality exception of § 5 (2)).
ALTER TABLE restaurants ADD COLUMN federal_state TEXT
    CHECK (federal_state IN ('BW','BY','BE','BB','HB','HH','HE','MV','NI','NW','RP','SL','SN','ST','SH','TH'));
ALTER TABLE restaurants ADD COLUMN open_entry_limit_hours INTEGER NOT NULL DEFAULT 16
    CHECK (open_entry_limit_hours BETWEEN 1 AND 72);
ALTER TABLE restaurants ADD COLUMN min_rest_hours INTEGER NOT NULL DEFAULT 11
    CHECK (min_rest_hours IN (10, 11));

-- The staff number the payroll export names (optional, unique per
-- restaurant among live users).
ALTER TABLE users ADD COLUMN staff_number TEXT;
CREATE UNIQUE INDEX users_staff_number ON users(restaurant_id, staff_number)
    WHERE staff_number IS NOT NULL AND deleted_at IS NULL;

-- source: 'clock' (punched) or 'admin' (created by an admin with a reason).
-- open_flagged_at: when the open-entry check raised time_entry_open_too_long
-- (once per entry, kept across restarts).
ALTER TABLE time_entries ADD COLUMN source TEXT NOT NULL DEFAULT 'clock' CHECK (source IN ('clock', 'admin'));
ALTER TABLE time_entries ADD COLUMN open_flagged_at TEXT;
CREATE INDEX time_entries_open ON time_entries(restaurant_id, clock_in) WHERE clock_out IS NULL;

-- Every change an admin makes to a time entry (GoBD: changes stay
-- visible): who, when, why, the values before and after. Append-only: the
-- triggers refuse UPDATE and DELETE whatever the caller.
CREATE TABLE time_entry_corrections (
    id                   TEXT PRIMARY KEY,
    restaurant_id        TEXT NOT NULL REFERENCES restaurants(id),
    time_entry_id        TEXT NOT NULL REFERENCES time_entries(id),
    action               TEXT NOT NULL CHECK (action IN ('create', 'close', 'correct')),
    by_user_id           TEXT NOT NULL REFERENCES users(id),
    at                   TEXT NOT NULL,
    reason               TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    before_clock_in      TEXT,
    before_clock_out     TEXT,
    before_break_minutes INTEGER,
    after_clock_in       TEXT NOT NULL,
    after_clock_out      TEXT,
    after_break_minutes  INTEGER NOT NULL
);
CREATE INDEX time_entry_corrections_entry ON time_entry_corrections(time_entry_id, at);

-- +goose StatementBegin
CREATE TRIGGER time_entry_corrections_no_update BEFORE UPDATE ON time_entry_corrections
BEGIN
    SELECT RAISE(ABORT, 'time_entry_corrections is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER time_entry_corrections_no_delete BEFORE DELETE ON time_entry_corrections
BEGIN
    SELECT RAISE(ABORT, 'time_entry_corrections is append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER time_entry_corrections_no_delete;
DROP TRIGGER time_entry_corrections_no_update;
DROP TABLE time_entry_corrections;
DROP INDEX time_entries_open;
ALTER TABLE time_entries DROP COLUMN open_flagged_at;
ALTER TABLE time_entries DROP COLUMN source;
DROP INDEX users_staff_number;
ALTER TABLE users DROP COLUMN staff_number;
ALTER TABLE restaurants DROP COLUMN min_rest_hours;
ALTER TABLE restaurants DROP COLUMN open_entry_limit_hours;
ALTER TABLE restaurants DROP COLUMN federal_state;
