-- +goose Up
-- The procedure document (Verfahrensdokumentation, GoBD Rz. 151-155,
-- docs/FISCAL.md): the box's own program-change log, the owner's own
-- sections and every generated version of the document. All three are
-- append-only: an auditor must see which version was valid when, so no
-- row changes and none goes (kept like the fiscal records,
-- docs/RETENTION.md).

-- One row per program the box started with that differs from the one
-- before (release, commit or schema version), with when it first ran.
-- schema_from is the schema version before this start's migrations (0:
-- a new database); NULL when none were applied.
CREATE TABLE program_changes (
    seq            INTEGER PRIMARY KEY,
    version        TEXT NOT NULL,
    build          TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    schema_from    INTEGER,
    first_seen_at  TEXT NOT NULL
);

-- The owner's own sections, a new numbered version per save.
CREATE TABLE procdoc_owner_texts (
    restaurant_id    TEXT NOT NULL REFERENCES restaurants(id),
    version          INTEGER NOT NULL CHECK (version >= 1),
    organisation     TEXT NOT NULL CHECK (length(organisation) <= 20000),
    till_operation   TEXT NOT NULL CHECK (length(till_operation) <= 20000),
    cash_counting    TEXT NOT NULL CHECK (length(cash_counting) <= 20000),
    internal_control TEXT NOT NULL CHECK (length(internal_control) <= 20000),
    saved_by         TEXT NOT NULL REFERENCES users(id),
    saved_at         TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, version)
);

-- Each generated document whose content differs from the version before:
-- its content as JSON, exactly as generated, and its SHA-256.
CREATE TABLE procdoc_versions (
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    version       INTEGER NOT NULL CHECK (version >= 1),
    sha256        TEXT NOT NULL CHECK (length(sha256) = 64),
    content       TEXT NOT NULL,
    generated_at  TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, version)
);

-- +goose StatementBegin
CREATE TRIGGER program_changes_no_update BEFORE UPDATE ON program_changes
BEGIN SELECT RAISE(ABORT, 'program_changes is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER program_changes_no_delete BEFORE DELETE ON program_changes
BEGIN SELECT RAISE(ABORT, 'program_changes is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER procdoc_owner_texts_no_update BEFORE UPDATE ON procdoc_owner_texts
BEGIN SELECT RAISE(ABORT, 'procdoc_owner_texts is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER procdoc_owner_texts_no_delete BEFORE DELETE ON procdoc_owner_texts
BEGIN SELECT RAISE(ABORT, 'procdoc_owner_texts is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER procdoc_versions_no_update BEFORE UPDATE ON procdoc_versions
BEGIN SELECT RAISE(ABORT, 'procdoc_versions is append-only'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER procdoc_versions_no_delete BEFORE DELETE ON procdoc_versions
BEGIN SELECT RAISE(ABORT, 'procdoc_versions is append-only'); END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE procdoc_versions;
DROP TABLE procdoc_owner_texts;
DROP TABLE program_changes;
