-- +goose Up
-- The DATEV settings of a restaurant (docs/FISCAL.md, "The DATEV
-- batch"): the adviser's consultant number and the client number (NULL
-- until the adviser gives them: the export refuses until then), the chart
-- of accounts, the account length and the account mapping, a JSON object
-- of account key to account number ("" for an account not used). One row
-- per restaurant, replaced whole by each PUT.
CREATE TABLE datev_settings (
    restaurant_id     TEXT PRIMARY KEY REFERENCES restaurants(id),
    consultant_number INTEGER CHECK (consultant_number BETWEEN 1001 AND 9999999),
    client_number     INTEGER CHECK (client_number BETWEEN 1 AND 99999),
    chart             TEXT NOT NULL CHECK (chart IN ('SKR03', 'SKR04')),
    account_length    INTEGER NOT NULL CHECK (account_length BETWEEN 4 AND 8),
    accounts          TEXT NOT NULL CHECK (json_valid(accounts) AND json_type(accounts) = 'object'),
    updated_at        TEXT NOT NULL,
    updated_by        TEXT
) WITHOUT ROWID;

-- +goose Down
DROP TABLE datev_settings;
