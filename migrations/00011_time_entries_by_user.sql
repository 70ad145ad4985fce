-- +goose Up
-- The labour-law checks of a clock-out read the user's entries around it
-- (store/labour_warning.go); without this index every clock-out scanned
-- all entries of the box in the writer's transaction, which grew with the
-- years of records MiLoG asks to keep.
CREATE INDEX time_entries_user_clock_in ON time_entries(user_id, clock_in);

-- +goose Down
DROP INDEX time_entries_user_clock_in;
