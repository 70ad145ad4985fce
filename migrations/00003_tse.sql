-- +goose Up
-- TSE: the outbox of revisions to forward, the local mirror of signed
-- transactions, the outage record, self-tests and terminals (clients).
-- The Idempotency-Key of POST /api/tse/transactions lives in the shared
-- idempotency_keys table (00005).

-- One fiskaly client per POS terminal serial and TSS. registered_at stays
-- NULL until the provider has confirmed the client (the worker registers it
-- before the terminal's first revision is sent).
CREATE TABLE tse_clients (
    client_id     TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    tss_id        TEXT NOT NULL,
    client_serial TEXT NOT NULL,
    registered_at TEXT,
    created_at    TEXT NOT NULL
);
CREATE UNIQUE INDEX tse_clients_serial ON tse_clients(tss_id, client_serial);

-- The outbox: one row per revision, written with the sale before anything
-- is sent. body is the exact JSON sent and resent; seq is the FIFO order.
CREATE TABLE tse_jobs (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    id                 TEXT NOT NULL UNIQUE,
    restaurant_id      TEXT NOT NULL REFERENCES restaurants(id),
    tss_id             TEXT NOT NULL,
    client_id          TEXT NOT NULL,
    tx_id              TEXT NOT NULL,
    revision           INTEGER NOT NULL CHECK (revision >= 1),
    target_state       TEXT NOT NULL CHECK (target_state IN ('ACTIVE', 'FINISHED', 'CANCELLED')),
    body               BLOB NOT NULL,
    status             TEXT NOT NULL DEFAULT 'pending'
                       CHECK (status IN ('pending', 'in_flight', 'done', 'attention', 'superseded')),
    attempts           INTEGER NOT NULL DEFAULT 0,
    next_attempt_at    TEXT NOT NULL,
    last_http_status   INTEGER,
    last_error_code    TEXT,
    last_error_message TEXT,
    created_at         TEXT NOT NULL,
    done_at            TEXT
);
-- One live job per revision; a superseded (parked, then replaced by an
-- admin's or the sweep's CANCELLED revision) keeps its row for the record.
CREATE UNIQUE INDEX tse_jobs_revision ON tse_jobs(tx_id, revision) WHERE status != 'superseded';
-- The worker's head-of-queue lookup.
CREATE INDEX tse_jobs_queue ON tse_jobs(tss_id, status, seq);

-- Local mirror of the transactions; serves GET /api/tse/transactions and
-- the daily report. number is NULL until revision 1 is signed.
CREATE TABLE tse_transactions (
    tx_id               TEXT PRIMARY KEY,
    restaurant_id       TEXT NOT NULL REFERENCES restaurants(id),
    tss_id              TEXT NOT NULL,
    client_id           TEXT NOT NULL,
    client_serial       TEXT NOT NULL DEFAULT '',
    receipt_type        TEXT NOT NULL DEFAULT '',
    total_cents         INTEGER NOT NULL DEFAULT 0,
    number              INTEGER,
    state               TEXT NOT NULL CHECK (state IN ('ACTIVE', 'FINISHED', 'CANCELLED')),
    latest_revision     INTEGER NOT NULL DEFAULT 0,
    time_start          TEXT,
    time_end            TEXT,
    signature_counter   INTEGER,
    signature_value     TEXT,
    log_time            TEXT,
    qr_code_data        TEXT,
    tss_serial_number   TEXT,
    -- the POS was told "TSE unavailable" and printed the receipt so
    receipt_without_tse INTEGER NOT NULL DEFAULT 0 CHECK (receipt_without_tse IN (0, 1)),
    -- signed after the receipt had been issued without TSE data
    signed_late         INTEGER NOT NULL DEFAULT 0 CHECK (signed_late IN (0, 1)),
    outage_id           TEXT,
    source              TEXT NOT NULL DEFAULT 'posbox' CHECK (source IN ('posbox', 'reconciled')),
    business_time       TEXT NOT NULL,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
);
CREATE INDEX tse_transactions_time ON tse_transactions(restaurant_id, time_start);
CREATE UNIQUE INDEX tse_transactions_number ON tse_transactions(tss_id, number) WHERE number IS NOT NULL;

-- The outage record (AEAO zu § 146a Nr. 1.14.1): when, why, how many
-- receipts went out without TSE data. At most one open outage per TSS.
CREATE TABLE tse_outages (
    id                    TEXT PRIMARY KEY,
    restaurant_id         TEXT NOT NULL REFERENCES restaurants(id),
    tss_id                TEXT NOT NULL,
    started_at            TEXT NOT NULL,
    ended_at              TEXT,
    reason_code           TEXT NOT NULL,
    reason                TEXT NOT NULL,
    affected_transactions INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX tse_outages_one_open ON tse_outages(tss_id) WHERE ended_at IS NULL;
CREATE INDEX tse_outages_restaurant ON tse_outages(restaurant_id, started_at);

-- Self-tests; the partial unique index makes a second concurrent start
-- impossible (single flight).
CREATE TABLE tse_self_tests (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    tss_id        TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('RUNNING', 'PASSED', 'FAILED')),
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    error         TEXT,
    checks        TEXT NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX tse_self_tests_running ON tse_self_tests(restaurant_id) WHERE state = 'RUNNING';
CREATE INDEX tse_self_tests_started ON tse_self_tests(restaurant_id, started_at);

-- +goose Down
DROP TABLE tse_self_tests;
DROP TABLE tse_outages;
DROP TABLE tse_transactions;
DROP TABLE tse_jobs;
DROP TABLE tse_clients;
