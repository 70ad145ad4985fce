-- +goose Up
-- A closing leaves out the sales an earlier closing of its register
-- covers (store.CreateTSEClosing, store.UnclosedRegisters): it reads the
-- tx_ids of the closings that end at or after the start of its window
-- instead of looking up each sale's tx_id (random, one index page each)
-- in tse_closing_transactions. Without this index that read visits every
-- closing of the register.
CREATE INDEX tse_closings_covered
    ON tse_closings(restaurant_id, client_serial, covered_until);

-- +goose Down
DROP INDEX tse_closings_covered;
