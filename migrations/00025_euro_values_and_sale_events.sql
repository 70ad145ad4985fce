-- +goose Up
-- A payment's euro value (DSFinV-K BASISWAEH_BETRAG): the amount itself
-- for EUR, what the till says a foreign amount was worth otherwise. The
-- closing's payment totals (Z_SE_ZAHLUNGEN, Z_SE_BARZAHLUNGEN, payment.csv)
-- are in euro, so a payment without one cannot be counted
-- (docs/FISCAL.md, "Foreign currency").
--
-- Sales recorded before: an EUR payment's value is its amount; a foreign
-- one's was never sent and stays NULL (unknown), which the closing and the
-- export show as unknown rather than as 0.
ALTER TABLE tse_sale_payments ADD COLUMN eur_cents INTEGER;
UPDATE tse_sale_payments SET eur_cents = cents WHERE currency_code = 'EUR';

-- Every payment recorded from now on has one, and an EUR payment's is its
-- amount.
-- +goose StatementBegin
CREATE TRIGGER tse_sale_payments_eur BEFORE INSERT ON tse_sale_payments
WHEN NEW.eur_cents IS NULL OR (NEW.currency_code = 'EUR' AND NEW.eur_cents != NEW.cents)
BEGIN SELECT RAISE(ABORT, 'tse_sale_payments: a payment needs its euro value, an EUR payment its amount'); END;
-- +goose StatementEnd

-- A closing's payment total in euro, per payment type and currency; NULL
-- for the VAT rows, and for a foreign currency whose payments lack a euro
-- value (sales recorded before this migration). EUR rows of older
-- closings are read as their amount (closings cannot change).
ALTER TABLE tse_closing_totals ADD COLUMN eur_cents INTEGER;

-- Who raises the events of sales (new_order, payment_received,
-- order_cancelled): posbox from the sales it records, or the POS through
-- POST /api/events (docs/NOTIFICATIONS.md, "Events of sales").
ALTER TABLE restaurants ADD COLUMN sale_events_by TEXT NOT NULL DEFAULT 'posbox'
    CHECK (sale_events_by IN ('posbox', 'pos'));

-- +goose Down
ALTER TABLE restaurants DROP COLUMN sale_events_by;
ALTER TABLE tse_closing_totals DROP COLUMN eur_cents;
DROP TRIGGER tse_sale_payments_eur;
ALTER TABLE tse_sale_payments DROP COLUMN eur_cents;
