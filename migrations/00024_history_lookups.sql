-- +goose Up
-- Lookups that read a few rows of a large table through a small index,
-- so they cost the same in year ten as on day one (docs/PERFORMANCE.md,
-- "Year ten, fourth pass").
--
-- A listed transaction's "cancels" link: only stornos have one (about 2 %
-- of sales). The primary key's index of tse_sale_details holds every sale
-- by its random transaction id, a lookup per listed sale deep in a tree
-- of ten years; this one holds the stornos and both columns the lookup
-- needs.
CREATE INDEX tse_sale_details_stornos ON tse_sale_details(tx_id, cancels_tx_id) WHERE cancels_tx_id IS NOT NULL;

-- The archive's status: the archived chain ends where the first range not
-- archived begins (ranges are planned back to back from counter 1), and
-- its last archiving is the newest archived_at. Both read every archived
-- range before, one a night.
CREATE INDEX tse_archives_unarchived ON tse_archives(tss_id, first_counter) WHERE kind = 'incremental' AND state != 'archived';
CREATE INDEX tse_archives_archived_at ON tse_archives(tss_id, archived_at) WHERE kind = 'incremental' AND state = 'archived';

-- +goose Down
DROP INDEX tse_archives_archived_at;
DROP INDEX tse_archives_unarchived;
DROP INDEX tse_sale_details_stornos;
