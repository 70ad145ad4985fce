-- +goose Up
-- The recovery sheet (docs/REPLICATION.md): the console shows the replica's
-- recovery key until an admin confirms she has printed and stored the
-- sheet; after that only `posbox replica key` on the box prints it. One row
-- per recovery key (its public key): a new replica.key needs a new sheet.
-- The admin is kept by id and by name, so the record still reads after
-- the user is deleted.
CREATE TABLE replica_sheet_confirmations (
    public_key        TEXT PRIMARY KEY,
    confirmed_by      TEXT NOT NULL,
    confirmed_by_name TEXT NOT NULL,
    confirmed_at      TEXT NOT NULL
);

-- +goose Down
DROP TABLE replica_sheet_confirmations;
