-- +goose Up
-- A sale's discount lines name the redemption they book (docs/API.md,
-- "Booking a redemption on the sale"): the line keeps it, and each
-- redemption is booked by one sale at most; the primary key makes the
-- second of two sales at once lose. Append-only, like the sale.

ALTER TABLE tse_sale_lines ADD COLUMN redemption_id TEXT;

CREATE TABLE sale_redemptions (
    redemption_id TEXT PRIMARY KEY REFERENCES discount_redemptions(id),
    tx_id         TEXT NOT NULL REFERENCES tse_transactions(tx_id)
) WITHOUT ROWID;
CREATE INDEX sale_redemptions_tx ON sale_redemptions(tx_id);

-- +goose StatementBegin
CREATE TRIGGER sale_redemptions_no_update BEFORE UPDATE ON sale_redemptions
BEGIN
    SELECT RAISE(ABORT, 'sale_redemptions is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER sale_redemptions_no_delete BEFORE DELETE ON sale_redemptions
BEGIN
    SELECT RAISE(ABORT, 'sale_redemptions is append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE sale_redemptions;
ALTER TABLE tse_sale_lines DROP COLUMN redemption_id;
