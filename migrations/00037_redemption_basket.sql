-- +goose Up
-- A redemption priced on the till's basket (docs/API.md, "Redeem with
-- the basket"): its part of each basket line and the sums per VAT rate,
-- which the sale that books it must take off to the cent (00038). An
-- order's redemptions share order_ref and the basket's hash; combinable
-- is the discount's stacking when it was redeemed, so a later redemption
-- of the order is checked against what was given, not against the
-- discount as since edited. Append-only, like the redemption.

ALTER TABLE discount_redemptions ADD COLUMN order_ref TEXT CHECK (order_ref IS NULL OR length(order_ref) BETWEEN 1 AND 64);
ALTER TABLE discount_redemptions ADD COLUMN basket_sha256 TEXT CHECK (basket_sha256 IS NULL OR length(basket_sha256) = 64);
ALTER TABLE discount_redemptions ADD COLUMN combinable INTEGER CHECK (combinable IS NULL OR combinable IN (0, 1));
CREATE INDEX discount_redemptions_order ON discount_redemptions(restaurant_id, order_ref) WHERE order_ref IS NOT NULL;

CREATE TABLE discount_redemption_lines (
    redemption_id TEXT NOT NULL REFERENCES discount_redemptions(id),
    line_no       INTEGER NOT NULL CHECK (line_no >= 0), -- the basket's index, from 0
    vat_rate      TEXT NOT NULL CHECK (vat_rate IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')),
    cents         INTEGER NOT NULL CHECK (cents > 0),
    PRIMARY KEY (redemption_id, line_no)
) WITHOUT ROWID;

CREATE TABLE discount_redemption_rates (
    redemption_id TEXT NOT NULL REFERENCES discount_redemptions(id),
    vat_rate      TEXT NOT NULL CHECK (vat_rate IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')),
    cents         INTEGER NOT NULL CHECK (cents > 0),
    PRIMARY KEY (redemption_id, vat_rate)
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER discount_redemption_lines_no_update BEFORE UPDATE ON discount_redemption_lines
BEGIN
    SELECT RAISE(ABORT, 'discount_redemption_lines is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER discount_redemption_lines_no_delete BEFORE DELETE ON discount_redemption_lines
BEGIN
    SELECT RAISE(ABORT, 'discount_redemption_lines is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER discount_redemption_rates_no_update BEFORE UPDATE ON discount_redemption_rates
BEGIN
    SELECT RAISE(ABORT, 'discount_redemption_rates is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER discount_redemption_rates_no_delete BEFORE DELETE ON discount_redemption_rates
BEGIN
    SELECT RAISE(ABORT, 'discount_redemption_rates is append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE discount_redemption_rates;
DROP TABLE discount_redemption_lines;
DROP INDEX discount_redemptions_order;
ALTER TABLE discount_redemptions DROP COLUMN combinable;
ALTER TABLE discount_redemptions DROP COLUMN basket_sha256;
ALTER TABLE discount_redemptions DROP COLUMN order_ref;
