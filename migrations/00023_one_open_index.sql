-- +goose Up
-- A restaurant's open entries (the dashboard, the open-entry check, HQ,
-- the retention job's quiet check) are read through time_entries_one_open
-- (INDEXED BY: the planner would take time_entries_restaurant_clock_in
-- and visit every entry of the restaurant), which holds only the open
-- entries of all restaurants on the box, a few dozen. The second partial
-- index of the same rows was one more b-tree written by every clock-in
-- and every clock-out.
DROP INDEX time_entries_open;

-- +goose Down
CREATE INDEX time_entries_open ON time_entries(restaurant_id, clock_in) WHERE clock_out IS NULL;
