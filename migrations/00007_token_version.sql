-- +goose Up
-- A user's tokens carry the version they were issued under; changing the
-- password, the role or is_active (and deleting) moves it on, which ends
-- every token issued before.
ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE users DROP COLUMN token_version;
