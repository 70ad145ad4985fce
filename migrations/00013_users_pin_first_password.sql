-- +goose NO TRANSACTION
-- +goose Up
-- Staff without an email (a kitchen helper) log in at a till with their
-- staff number and a PIN (docs/API.md, section 2), and a password set by
-- someone else (the generated first one, an admin's reset) must be
-- replaced by its owner at the next login (must_change_password).
--
-- email becomes nullable, which SQLite cannot change in place: the table
-- is rebuilt (SQLite's own twelve steps). Foreign keys are off for the
-- rebuild, or dropping the old table would delete or refuse the rows of
-- shifts, time entries, redemptions and corrections that point at it;
-- the pragma is a no-op inside a transaction, hence NO TRANSACTION and
-- the explicit BEGIN/COMMIT around the rebuild. goose runs every
-- statement on one connection, so the pragma holds for all of them.
-- Every id is copied as it was, so every reference still holds.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_new (
    id                   TEXT PRIMARY KEY,
    restaurant_id        TEXT NOT NULL REFERENCES restaurants(id),
    -- NULL: no email; then the user is staff and logs in by staff number
    -- and PIN only.
    email                TEXT COLLATE NOCASE,
    name                 TEXT NOT NULL,
    role                 TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
    -- '' when the user has no password (no email to log in with).
    password_hash        TEXT NOT NULL,
    is_active            INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    deleted_at           TEXT,
    token_version        INTEGER NOT NULL DEFAULT 0,
    staff_number         TEXT,
    -- 1: the password was set by someone else; the console asks for a
    -- new one before anything else.
    must_change_password INTEGER NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1)),
    -- bcrypt of the 4-8 digit PIN; NULL: no PIN login.
    pin_hash             TEXT,
    CHECK (email IS NOT NULL OR (role = 'staff' AND staff_number IS NOT NULL AND pin_hash IS NOT NULL)),
    CHECK (pin_hash IS NULL OR staff_number IS NOT NULL)
);
INSERT INTO users_new (id, restaurant_id, email, name, role, password_hash, is_active, created_at, updated_at,
        deleted_at, token_version, staff_number)
    SELECT id, restaurant_id, email, name, role, password_hash, is_active, created_at, updated_at,
        deleted_at, token_version, staff_number FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
-- Login by email names no restaurant, so a live email is unique across
-- the appliance; a staff number is unique among a restaurant's live users.
CREATE UNIQUE INDEX users_email ON users(email) WHERE deleted_at IS NULL AND email IS NOT NULL;
CREATE INDEX users_restaurant ON users(restaurant_id);
CREATE UNIQUE INDEX users_staff_number ON users(restaurant_id, staff_number)
    WHERE staff_number IS NOT NULL AND deleted_at IS NULL;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- Going back: a user without an email gets an address nobody can have
-- (.invalid, RFC 2606), so the row fits the old table; PINs and the flag
-- are dropped.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_old (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    email         TEXT NOT NULL COLLATE NOCASE,
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
    password_hash TEXT NOT NULL,
    is_active     INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    deleted_at    TEXT,
    token_version INTEGER NOT NULL DEFAULT 0,
    staff_number  TEXT
);
INSERT INTO users_old SELECT id, restaurant_id, coalesce(email, 'no-email-' || id || '@posbox.invalid'), name, role,
    password_hash, is_active, created_at, updated_at, deleted_at, token_version, staff_number FROM users;
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
CREATE UNIQUE INDEX users_email ON users(email) WHERE deleted_at IS NULL;
CREATE INDEX users_restaurant ON users(restaurant_id);
CREATE UNIQUE INDEX users_staff_number ON users(restaurant_id, staff_number)
    WHERE staff_number IS NOT NULL AND deleted_at IS NULL;
COMMIT;
PRAGMA foreign_keys = ON;
