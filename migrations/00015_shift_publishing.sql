-- +goose Up
-- Publishing the shift plan (docs/TIMECLOCK.md "Drafts and publishing"):
-- a new shift is a draft (published_at NULL) that only the admins see
-- until its week is published; staff see published shifts only and a
-- shift_change event is raised only for published shifts. Shifts that
-- existed before this migration had been visible all along: they count as
-- published when they were last changed.
ALTER TABLE shifts ADD COLUMN published_at TEXT;
UPDATE shifts SET published_at = updated_at;

-- +goose Down
ALTER TABLE shifts DROP COLUMN published_at;
