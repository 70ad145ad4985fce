-- +goose Up
-- Email (SMTP) and SMS settings an administrator saves from the console,
-- one row per restaurant and channel (docs/NOTIFICATIONS.md). A saved row
-- wins over the configuration file's smtp_* / sms_* keys. The secrets
-- (password, token) live here as the configuration file holds them: the
-- database file is 0600, and the API never returns them.
CREATE TABLE email_settings (
    restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(id),
    host          TEXT NOT NULL CHECK (host <> ''),
    port          INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    username      TEXT NOT NULL DEFAULT '',
    password      TEXT NOT NULL DEFAULT '',
    from_address  TEXT NOT NULL CHECK (from_address <> ''),
    tls           TEXT NOT NULL CHECK (tls IN ('starttls', 'tls', 'opportunistic', 'none')),
    updated_at    TEXT NOT NULL
);

CREATE TABLE sms_settings (
    restaurant_id TEXT PRIMARY KEY REFERENCES restaurants(id),
    provider      TEXT NOT NULL CHECK (provider IN ('twilio', 'generic')),
    url           TEXT NOT NULL CHECK (url <> ''),
    account       TEXT NOT NULL DEFAULT '',
    token         TEXT NOT NULL DEFAULT '',
    sender        TEXT NOT NULL DEFAULT '',
    updated_at    TEXT NOT NULL
);

-- +goose Down
DROP TABLE sms_settings;
DROP TABLE email_settings;
