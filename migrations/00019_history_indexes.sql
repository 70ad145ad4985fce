-- +goose Up
-- Indexes that keep reads bounded as the box's history grows (issue 22):
-- each read below scanned a table that only grows, so its cost rose with
-- every year kept.

-- The dashboard counts queued deliveries and those that failed lately
-- (store.CountDeliveries): a seek per status instead of every delivery.
CREATE INDEX notification_deliveries_restaurant_status
    ON notification_deliveries(restaurant_id, status, updated_at);

-- The warnings of a day's or a month's entries read the entries that end
-- after the window's start (store.EntriesWarnings): an entry has no
-- maximum length, so only its end bounds the range from below.
CREATE INDEX time_entries_restaurant_clock_out
    ON time_entries(restaurant_id, clock_out) WHERE clock_out IS NOT NULL;

-- A closing reads a register's sales since its last closing
-- (store.CreateTSEClosing) instead of every sale the register made.
CREATE INDEX tse_transactions_register_time
    ON tse_transactions(restaurant_id, client_serial, business_time) WHERE source = 'posbox';

-- The TSE reconciler (at every start and every few minutes) looks for
-- transactions left ACTIVE (store.StaleActiveTSETx): a handful, found in
-- this partial index instead of among every transaction signed.
CREATE INDEX tse_transactions_active
    ON tse_transactions(tss_id, created_at) WHERE state = 'ACTIVE';

-- The TSE queue's state (dashboard of the TSE, self-test, status) counts
-- and lists the unfinished jobs (store.TSEQueueState); two jobs a sale are
-- kept done for good. The WHERE is the queries' own term, so SQLite
-- matches it.
CREATE INDEX tse_jobs_unfinished
    ON tse_jobs(restaurant_id, seq) WHERE status IN ('pending', 'in_flight', 'attention');

-- +goose Down
DROP INDEX tse_jobs_unfinished;
DROP INDEX tse_transactions_active;
DROP INDEX tse_transactions_register_time;
DROP INDEX time_entries_restaurant_clock_out;
DROP INDEX notification_deliveries_restaurant_status;
