-- +goose Up
-- Idempotency-Key of every POST that must not happen twice when a till
-- retries after a lost answer: POST /api/tse/transactions (scope
-- tse_sale) and POST /api/discounts/:id/redeem (scope discount_redeem).
-- One table for both, so there is one mechanism to reason about. The
-- primary key makes concurrent duplicates one effect; scope keeps the same
-- key on two endpoints apart; restaurant_id keeps restaurants apart.
CREATE TABLE idempotency_keys (
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    scope         TEXT NOT NULL CHECK (scope IN ('tse_sale', 'discount_redeem')),
    key           TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- sha256 of the validated request (path id included): the same key
    -- with another request is refused
    request_hash  TEXT NOT NULL,
    -- what the first request made: the TSE tx_id, the redemption id
    resource_id   TEXT NOT NULL,
    -- the first answer, replayed byte for byte; NULL while a sale waits
    -- for its signature (a redemption stores its answer in the same
    -- transaction as the use it counts)
    status        INTEGER CHECK (status IS NULL OR status BETWEEN 200 AND 299),
    response      BLOB,
    created_at    TEXT NOT NULL,
    CHECK ((status IS NULL) = (response IS NULL)),
    PRIMARY KEY (restaurant_id, scope, key)
);
-- The daily purge of keys past their retention.
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

-- Databases of pre-release builds had a TSE-only table; its keys are moot.
DROP TABLE IF EXISTS tse_idempotency_keys;

-- +goose Down
DROP TABLE idempotency_keys;
