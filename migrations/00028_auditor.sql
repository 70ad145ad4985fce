-- +goose NO TRANSACTION
-- +goose Up
-- The tax office's auditor (GoBD Z1, the Kassennachschau; docs/FISCAL.md,
-- "The auditor's access"): a third role that reads the fiscal records
-- only, until a set local date (valid_until, YYYY-MM-DD in the
-- restaurant's timezone), and every request of whom is kept in an
-- append-only log the owner reads.
--
-- The role's CHECK cannot be changed in place: users is rebuilt as 00013
-- did (SQLite's twelve steps), with foreign keys off on goose's one
-- connection for the rebuild (NO TRANSACTION, an explicit BEGIN/COMMIT),
-- every column and id copied as it was, so every reference still holds.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_new (
    id                   TEXT PRIMARY KEY,
    restaurant_id        TEXT NOT NULL REFERENCES restaurants(id),
    -- NULL: no email; then the user is staff and logs in by staff number
    -- and PIN only.
    email                TEXT COLLATE NOCASE,
    name                 TEXT NOT NULL,
    role                 TEXT NOT NULL CHECK (role IN ('admin', 'staff', 'auditor')),
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
    erased_at            TEXT,
    -- An auditor's last day (local date); NULL for every other role.
    valid_until          TEXT CHECK (valid_until IS NULL OR valid_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    CHECK (email IS NOT NULL OR (role = 'staff' AND staff_number IS NOT NULL AND pin_hash IS NOT NULL)),
    CHECK (pin_hash IS NULL OR staff_number IS NOT NULL),
    -- An auditor has a last day, an email and password, and no till login.
    CHECK ((role = 'auditor') = (valid_until IS NOT NULL)),
    CHECK (role <> 'auditor' OR (pin_hash IS NULL AND staff_number IS NULL))
);
INSERT INTO users_new (id, restaurant_id, email, name, role, password_hash, is_active, created_at, updated_at,
        deleted_at, token_version, staff_number, must_change_password, pin_hash, erased_at)
    SELECT id, restaurant_id, email, name, role, password_hash, is_active, created_at, updated_at,
        deleted_at, token_version, staff_number, must_change_password, pin_hash, erased_at FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
CREATE UNIQUE INDEX users_email ON users(email) WHERE deleted_at IS NULL AND email IS NOT NULL;
CREATE INDEX users_restaurant ON users(restaurant_id);
CREATE UNIQUE INDEX users_staff_number ON users(restaurant_id, staff_number)
    WHERE staff_number IS NOT NULL AND deleted_at IS NULL;

-- One row per request of an auditor, allowed or refused. It keeps its own
-- copy of the auditor's name and email (as receipts keep the operator's),
-- so the retention job's pseudonymising of an erased user changes none.
CREATE TABLE auditor_requests (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    user_id       TEXT NOT NULL REFERENCES users(id),
    user_name     TEXT NOT NULL,
    user_email    TEXT NOT NULL,
    at            TEXT NOT NULL,
    method        TEXT NOT NULL,
    -- the path with its query, as the auditor sent it (bounded by the server)
    target        TEXT NOT NULL,
    status        INTEGER NOT NULL CHECK (status BETWEEN 100 AND 599)
);
CREATE INDEX auditor_requests_restaurant ON auditor_requests(restaurant_id, seq);
COMMIT;
PRAGMA foreign_keys = ON;
-- +goose StatementBegin
CREATE TRIGGER auditor_requests_no_update BEFORE UPDATE ON auditor_requests
BEGIN
    SELECT RAISE(ABORT, 'auditor_requests is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER auditor_requests_no_delete BEFORE DELETE ON auditor_requests
BEGIN
    SELECT RAISE(ABORT, 'auditor_requests is append-only');
END;
-- +goose StatementEnd

-- +goose Down
-- Going back drops the log and every auditor (the old CHECK has no
-- room for them); nothing else refers to an auditor.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
DROP TABLE auditor_requests;
CREATE TABLE users_old (
    id                   TEXT PRIMARY KEY,
    restaurant_id        TEXT NOT NULL REFERENCES restaurants(id),
    email                TEXT COLLATE NOCASE,
    name                 TEXT NOT NULL,
    role                 TEXT NOT NULL CHECK (role IN ('admin', 'staff')),
    password_hash        TEXT NOT NULL,
    is_active            INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    deleted_at           TEXT,
    token_version        INTEGER NOT NULL DEFAULT 0,
    staff_number         TEXT,
    must_change_password INTEGER NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1)),
    pin_hash             TEXT,
    erased_at            TEXT,
    CHECK (email IS NOT NULL OR (role = 'staff' AND staff_number IS NOT NULL AND pin_hash IS NOT NULL)),
    CHECK (pin_hash IS NULL OR staff_number IS NOT NULL)
);
INSERT INTO users_old SELECT id, restaurant_id, email, name, role, password_hash, is_active, created_at, updated_at,
    deleted_at, token_version, staff_number, must_change_password, pin_hash, erased_at FROM users WHERE role <> 'auditor';
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
CREATE UNIQUE INDEX users_email ON users(email) WHERE deleted_at IS NULL AND email IS NOT NULL;
CREATE INDEX users_restaurant ON users(restaurant_id);
CREATE UNIQUE INDEX users_staff_number ON users(restaurant_id, staff_number)
    WHERE staff_number IS NOT NULL AND deleted_at IS NULL;
COMMIT;
PRAGMA foreign_keys = ON;
