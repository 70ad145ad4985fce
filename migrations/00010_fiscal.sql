-- +goose Up
-- Fiscal records beyond the TSE signature (docs/FISCAL.md): what a sale
-- contained (its amounts, payments and line items, for the DSFinV-K), the
-- daily closings (Kassenabschluss) with their gap-free number per cash
-- register, and the owner's fiscal master data (§146a (4) AO, DSFinV-K
-- master data module).

-- One row per sale recorded by posbox: the standard_v1 form it was signed
-- as and what DSFinV-K needs besides the amounts.
CREATE TABLE tse_sale_details (
    tx_id            TEXT PRIMARY KEY REFERENCES tse_transactions(tx_id),
    restaurant_id    TEXT NOT NULL REFERENCES restaurants(id),
    kind             TEXT NOT NULL CHECK (kind IN ('receipt', 'order')),
    business_case    TEXT NOT NULL CHECK (length(business_case) BETWEEN 1 AND 30),
    allocation_group TEXT CHECK (allocation_group IS NULL OR length(allocation_group) BETWEEN 1 AND 50),
    -- a storno: the sale it cancels (DSFinV-K BON_STORNO and references.csv)
    cancels_tx_id    TEXT REFERENCES tse_transactions(tx_id),
    -- who sold (DSFinV-K BEDIENER_ID, BEDIENER_NAME): the user of the request
    operator_id      TEXT,
    operator_name    TEXT
);
CREATE INDEX tse_sale_details_cancels ON tse_sale_details(cancels_tx_id) WHERE cancels_tx_id IS NOT NULL;

-- Gross amounts per VAT rate of a sale, in cents.
CREATE TABLE tse_sale_vat (
    tx_id    TEXT NOT NULL REFERENCES tse_transactions(tx_id),
    vat_rate TEXT NOT NULL CHECK (vat_rate IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')),
    cents    INTEGER NOT NULL,
    PRIMARY KEY (tx_id, vat_rate)
);

-- Payments of a sale, in the order sent.
CREATE TABLE tse_sale_payments (
    tx_id         TEXT NOT NULL REFERENCES tse_transactions(tx_id),
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    payment_type  TEXT NOT NULL CHECK (payment_type IN ('CASH', 'NON_CASH')),
    currency_code TEXT NOT NULL CHECK (length(currency_code) = 3),
    cents         INTEGER NOT NULL,
    PRIMARY KEY (tx_id, seq)
);

-- Line items of a sale (optional) or an order (required). quantity is in
-- thousandths (DSFinV-K MENGE has three decimals); total_cents is
-- quantity × unit price, rounded half away from zero to the cent.
CREATE TABLE tse_sale_lines (
    tx_id            TEXT NOT NULL REFERENCES tse_transactions(tx_id),
    line_no          INTEGER NOT NULL CHECK (line_no >= 1),
    text             TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 255),
    quantity_milli   INTEGER NOT NULL CHECK (quantity_milli != 0),
    unit_price_cents INTEGER NOT NULL,
    total_cents      INTEGER NOT NULL,
    vat_rate         TEXT NOT NULL CHECK (vat_rate IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')),
    item_number      TEXT CHECK (item_number IS NULL OR length(item_number) BETWEEN 1 AND 50),
    discount_id      TEXT,
    business_case    TEXT NOT NULL CHECK (length(business_case) BETWEEN 1 AND 30),
    PRIMARY KEY (tx_id, line_no)
);

-- Sales recorded before this migration: their amounts and payments from
-- the finishing revision's body, which holds the receipt as it was signed.
INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case)
    SELECT t.tx_id, t.restaurant_id, 'receipt', 'Umsatz' FROM tse_transactions t WHERE t.source = 'posbox';
INSERT INTO tse_sale_vat (tx_id, vat_rate, cents)
    SELECT j.tx_id, json_extract(v.value, '$.vat_rate'),
           SUM(CAST(round(CAST(json_extract(v.value, '$.amount') AS REAL) * 100) AS INTEGER))
    FROM tse_jobs j, json_each(j.body, '$.schema.standard_v1.receipt.amounts_per_vat_rate') v
    WHERE j.target_state = 'FINISHED' AND j.status != 'superseded'
      AND json_extract(v.value, '$.vat_rate') IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')
    GROUP BY j.tx_id, json_extract(v.value, '$.vat_rate');
INSERT INTO tse_sale_payments (tx_id, seq, payment_type, currency_code, cents)
    SELECT j.tx_id, p.key + 1, json_extract(p.value, '$.payment_type'),
           upper(coalesce(json_extract(p.value, '$.currency_code'), 'EUR')),
           CAST(round(CAST(json_extract(p.value, '$.amount') AS REAL) * 100) AS INTEGER)
    FROM tse_jobs j, json_each(j.body, '$.schema.standard_v1.receipt.amounts_per_payment_type') p
    WHERE j.target_state = 'FINISHED' AND j.status != 'superseded';

-- Daily closings (Kassenabschluss). z_nr counts 1, 2, 3, ... per cash
-- register (client serial) with no gap: the unique index refuses a
-- duplicate and the trigger refuses anything but the next number.
CREATE TABLE tse_closings (
    id            TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    client_serial TEXT NOT NULL,
    z_nr          INTEGER NOT NULL CHECK (z_nr >= 1),
    business_date TEXT NOT NULL,
    -- the sales it covers: recorded before covered_until, in no earlier
    -- closing
    covered_until TEXT NOT NULL,
    tx_count      INTEGER NOT NULL CHECK (tx_count >= 1),
    first_tx_id   TEXT NOT NULL,
    last_tx_id    TEXT NOT NULL,
    total_cents   INTEGER NOT NULL,
    cash_cents    INTEGER NOT NULL,
    automatic     INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
    created_by    TEXT,
    created_at    TEXT NOT NULL
);
CREATE UNIQUE INDEX tse_closings_z_nr ON tse_closings(restaurant_id, client_serial, z_nr);
CREATE INDEX tse_closings_date ON tse_closings(restaurant_id, business_date);

-- +goose StatementBegin
CREATE TRIGGER tse_closings_gap_free BEFORE INSERT ON tse_closings
WHEN NEW.z_nr != (SELECT coalesce(max(z_nr), 0) + 1 FROM tse_closings
                  WHERE restaurant_id = NEW.restaurant_id AND client_serial = NEW.client_serial)
BEGIN
    SELECT RAISE(ABORT, 'tse_closings: z_nr must be the next number of the register');
END;
-- +goose StatementEnd

-- The sales a closing covers; a sale is in at most one closing.
CREATE TABLE tse_closing_transactions (
    closing_id TEXT NOT NULL REFERENCES tse_closings(id),
    tx_id      TEXT NOT NULL UNIQUE REFERENCES tse_transactions(tx_id),
    PRIMARY KEY (closing_id, tx_id)
);

-- A closing's totals: kind 'vat' (code = the VAT rate, gross cents) or
-- 'payment' (code = CASH or NON_CASH, per currency).
CREATE TABLE tse_closing_totals (
    closing_id    TEXT NOT NULL REFERENCES tse_closings(id),
    kind          TEXT NOT NULL CHECK (kind IN ('vat', 'payment')),
    code          TEXT NOT NULL,
    currency_code TEXT NOT NULL DEFAULT 'EUR',
    cents         INTEGER NOT NULL,
    PRIMARY KEY (closing_id, kind, code, currency_code)
);

-- A closing is immutable once taken (GoBD): no update, no delete.
-- +goose StatementBegin
CREATE TRIGGER tse_closings_no_update BEFORE UPDATE ON tse_closings
BEGIN SELECT RAISE(ABORT, 'tse_closings: a closing cannot change'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_closings_no_delete BEFORE DELETE ON tse_closings
BEGIN SELECT RAISE(ABORT, 'tse_closings: a closing cannot be deleted'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_closing_transactions_no_update BEFORE UPDATE ON tse_closing_transactions
BEGIN SELECT RAISE(ABORT, 'tse_closing_transactions: a closing cannot change'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_closing_transactions_no_delete BEFORE DELETE ON tse_closing_transactions
BEGIN SELECT RAISE(ABORT, 'tse_closing_transactions: a closing cannot change'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_closing_totals_no_update BEFORE UPDATE ON tse_closing_totals
BEGIN SELECT RAISE(ABORT, 'tse_closing_totals: a closing cannot change'); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tse_closing_totals_no_delete BEFORE DELETE ON tse_closing_totals
BEGIN SELECT RAISE(ABORT, 'tse_closing_totals: a closing cannot change'); END;
-- +goose StatementEnd

-- The owner's fiscal master data: the business (DSFinV-K
-- cashpointclosing.csv, §146a (4) AO) and its location (location.csv).
-- Its own table: the restaurants row belongs to other areas.
CREATE TABLE fiscal_master_data (
    restaurant_id      TEXT PRIMARY KEY REFERENCES restaurants(id),
    business_name      TEXT NOT NULL DEFAULT '' CHECK (length(business_name) <= 60),
    street             TEXT NOT NULL DEFAULT '' CHECK (length(street) <= 60),
    postcode           TEXT NOT NULL DEFAULT '' CHECK (length(postcode) <= 10),
    city               TEXT NOT NULL DEFAULT '' CHECK (length(city) <= 62),
    country            TEXT NOT NULL DEFAULT 'DEU' CHECK (length(country) = 3),
    tax_number         TEXT NOT NULL DEFAULT '' CHECK (length(tax_number) <= 20),
    vat_id             TEXT NOT NULL DEFAULT '' CHECK (length(vat_id) <= 15),
    location_name      TEXT NOT NULL DEFAULT '' CHECK (length(location_name) <= 60),
    location_street    TEXT NOT NULL DEFAULT '' CHECK (length(location_street) <= 60),
    location_postcode  TEXT NOT NULL DEFAULT '' CHECK (length(location_postcode) <= 10),
    location_city      TEXT NOT NULL DEFAULT '' CHECK (length(location_city) <= 62),
    location_country   TEXT NOT NULL DEFAULT 'DEU' CHECK (length(location_country) = 3),
    tse_in_service_on  TEXT,
    tse_out_of_service_on TEXT,
    updated_at         TEXT NOT NULL
);

-- The owner's data per cash register (client serial).
CREATE TABLE fiscal_registers (
    restaurant_id     TEXT NOT NULL REFERENCES restaurants(id),
    client_serial     TEXT NOT NULL,
    register_type     TEXT NOT NULL DEFAULT '' CHECK (length(register_type) <= 50),
    brand             TEXT NOT NULL DEFAULT '' CHECK (length(brand) <= 50),
    model             TEXT NOT NULL DEFAULT '' CHECK (length(model) <= 50),
    software_brand    TEXT NOT NULL DEFAULT '' CHECK (length(software_brand) <= 50),
    software_version  TEXT NOT NULL DEFAULT '' CHECK (length(software_version) <= 50),
    acquired_on       TEXT,
    in_service_on     TEXT,
    decommissioned_on TEXT,
    updated_at        TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, client_serial)
);

-- +goose Down
DROP TABLE fiscal_registers;
DROP TABLE fiscal_master_data;
DROP TABLE tse_closing_totals;
DROP TABLE tse_closing_transactions;
DROP TABLE tse_closings;
DROP TABLE tse_sale_lines;
DROP TABLE tse_sale_payments;
DROP TABLE tse_sale_vat;
DROP TABLE tse_sale_details;
