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

-- +goose Down
DROP INDEX tse_transactions_register_time;
DROP INDEX time_entries_restaurant_clock_out;
DROP INDEX notification_deliveries_restaurant_status;
