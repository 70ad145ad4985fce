-- +goose Up
-- Times are TEXT in one format: RFC 3339 UTC with milliseconds and a Z
-- ("2026-11-22T09:15:02.123Z"), which sorts as text. Local dates and wall
-- clock times of the restaurant are TEXT "YYYY-MM-DD" and "HH:MM".
-- Identifiers are UUIDv7 strings.

CREATE TABLE restaurants (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    timezone   TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    email         TEXT NOT NULL COLLATE NOCASE,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
    password_hash TEXT NOT NULL,
    is_active     INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    -- Deleting a user is soft: time records must be kept (MiLoG §17).
    deleted_at    TEXT
);
-- Login is by email alone, so a live email is unique across the appliance.
CREATE UNIQUE INDEX users_email ON users(email) WHERE deleted_at IS NULL;
CREATE INDEX users_restaurant ON users(restaurant_id);

CREATE TABLE shifts (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    user_id       TEXT NOT NULL REFERENCES users(id),
    shift_date    TEXT NOT NULL,
    start_time    TEXT NOT NULL,
    end_time      TEXT NOT NULL,
    -- start and end as UTC instants, derived from the local date and times in
    -- the restaurant's timezone; the overlap check compares these.
    starts_at     TEXT NOT NULL,
    ends_at       TEXT NOT NULL,
    break_minutes INTEGER NOT NULL DEFAULT 0,
    role          TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'cancelled')),
    notes         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX shifts_restaurant_date ON shifts(restaurant_id, shift_date, start_time);
CREATE INDEX shifts_user_time ON shifts(user_id, starts_at);

CREATE TABLE time_entries (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    user_id       TEXT NOT NULL REFERENCES users(id),
    clock_in      TEXT NOT NULL,
    clock_out     TEXT,
    break_minutes INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
-- The database, not the code, guarantees one open entry per user.
CREATE UNIQUE INDEX time_entries_one_open ON time_entries(user_id) WHERE clock_out IS NULL;
CREATE INDEX time_entries_restaurant_clock_in ON time_entries(restaurant_id, clock_in);

-- Events the appliance raises or the POS terminals publish; notification
-- deliveries fan out from here in the same transaction.
CREATE TABLE events (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    type          TEXT NOT NULL,
    data          TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX events_restaurant_created ON events(restaurant_id, created_at);

-- Small key/value settings: JWT key id, last runs of daily jobs, ...
CREATE TABLE kv (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE kv;
DROP TABLE events;
DROP TABLE time_entries;
DROP TABLE shifts;
DROP TABLE users;
DROP TABLE restaurants;
