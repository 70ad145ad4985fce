-- +goose Up
-- Whose float or tip payout a cash movement is (docs/CASHDESK.md,
-- "Waiter settlement"): the user the float was handed to or the tip paid
-- out to, when not the one who booked it; NULL: who booked it. A
-- counter-entry names its original's person, so a settlement nets both.
ALTER TABLE cash_movements ADD COLUMN for_user_id TEXT
    CHECK (for_user_id IS NULL OR kind IN ('opening_float', 'tip_payout'));

-- +goose Down
ALTER TABLE cash_movements DROP COLUMN for_user_id;
