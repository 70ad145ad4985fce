-- +goose Up
-- Notifications: the rules admins configure, the durable delivery queue
-- that fans out from events in the same transaction, and the log of every
-- delivery attempt.

-- A rule: send events of one type of one restaurant over a channel.
-- secret is the Standard Webhooks signing key ("whsec_" + base64), set
-- for webhook rules only.
CREATE TABLE notification_settings (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    channel       TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'webhook')),
    event_type    TEXT NOT NULL,
    destination   TEXT NOT NULL,
    is_enabled    INTEGER NOT NULL CHECK (is_enabled IN (0, 1)),
    secret        TEXT CHECK ((channel = 'webhook') = (secret IS NOT NULL)),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
-- The fan-out lookup in store.InsertEvent.
CREATE INDEX notification_settings_match ON notification_settings(restaurant_id, event_type) WHERE is_enabled = 1;

-- The queue: one row per (event, rule). pending rows are due at
-- next_attempt_at; in_flight rows are being sent (put back to pending at
-- start, after a crash); delivered, failed and cancelled are final.
-- setting_id has no foreign key: a rule may be deleted while a delivery is
-- queued, and the dispatcher then cancels it. webhook_id is the
-- Standard Webhooks message id, the same on every retry.
CREATE TABLE notification_deliveries (
    id              TEXT PRIMARY KEY,
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(id),
    event_id        TEXT NOT NULL REFERENCES events(id),
    setting_id      TEXT NOT NULL,
    webhook_id      TEXT NOT NULL UNIQUE,
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'in_flight', 'delivered', 'failed', 'cancelled')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT NOT NULL,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (event_id, setting_id)
);
-- The dispatcher's claim: due pending rows, oldest first.
CREATE INDEX notification_deliveries_due ON notification_deliveries(status, next_attempt_at);

-- One row per attempt (and per test send: setting_id and delivery_id NULL,
-- event_type 'test'). temporary marks a failure the far side called
-- transient (SMTP 4xx, HTTP 5xx, network), for the admin's eyes.
CREATE TABLE notification_logs (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    setting_id    TEXT,
    delivery_id   TEXT,
    channel       TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'webhook')),
    event_type    TEXT NOT NULL,
    destination   TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('delivered', 'failed')),
    error         TEXT CHECK ((status = 'delivered') = (error IS NULL)),
    message       TEXT,
    attempt       INTEGER NOT NULL CHECK (attempt >= 1),
    temporary     INTEGER NOT NULL DEFAULT 0 CHECK (temporary IN (0, 1)),
    sent_at       TEXT NOT NULL
);
CREATE INDEX notification_logs_recent ON notification_logs(restaurant_id, sent_at, id);
CREATE INDEX notification_logs_delivery ON notification_logs(delivery_id);

-- +goose Down
DROP TABLE notification_logs;
DROP TABLE notification_deliveries;
DROP TABLE notification_settings;
