-- +goose Up
-- A discount's weekly schedule: the local wall-clock windows in which it
-- may be redeemed, on top of valid_from/valid_until (docs/API.md, "The
-- schedule"). No row: the discount is open around the clock. One row per
-- weekday and range; an update that names the schedule replaces its rows
-- whole.
--
-- weekday is ISO (1 = Monday .. 7 = Sunday); from_minute and to_minute are
-- minutes of the local day (0-1439). to_minute <= from_minute runs past
-- midnight into the next day (0-0 is the whole day); the window belongs
-- to its start day. The foreign key deletes the rows with their discount;
-- a later rebuild of discounts must run with foreign keys off (as 00013's).

CREATE TABLE discount_schedule_windows (
    discount_id  TEXT NOT NULL REFERENCES discounts(id) ON DELETE CASCADE,
    weekday      INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    from_minute  INTEGER NOT NULL CHECK (from_minute BETWEEN 0 AND 1439),
    to_minute    INTEGER NOT NULL CHECK (to_minute BETWEEN 0 AND 1439),
    -- An exact duplicate is refused; overlapping windows are allowed.
    PRIMARY KEY (discount_id, weekday, from_minute, to_minute)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE discount_schedule_windows;
