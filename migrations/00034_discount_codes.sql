-- +goose Up
-- Discount codes (docs/API.md, "Discount codes"). A discount may require
-- a code at the till; codes are made in batches, each code usable
-- max_uses times and, when its batch says so, once per guest reference.
-- The CHECKs and unique indexes are the last line of defence: however
-- many terminals redeem at once, a code is never used more often than
-- allowed, nor twice by one guest.

ALTER TABLE discounts ADD COLUMN requires_code INTEGER NOT NULL DEFAULT 0 CHECK (requires_code IN (0, 1));

CREATE TABLE discount_code_batches (
    id              TEXT PRIMARY KEY,
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(id),
    -- A discount deleted for good takes its codes along; its redemptions
    -- keep the code's text (discount_redemptions.code).
    discount_id     TEXT NOT NULL REFERENCES discounts(id) ON DELETE CASCADE,
    created_by      TEXT NOT NULL REFERENCES users(id),
    created_at      TEXT NOT NULL,
    count           INTEGER NOT NULL CHECK (count BETWEEN 1 AND 1000),
    uses_per_code   INTEGER NOT NULL CHECK (uses_per_code BETWEEN 1 AND 1000),
    once_per_guest  INTEGER NOT NULL CHECK (once_per_guest IN (0, 1))
);
CREATE INDEX discount_code_batches_discount ON discount_code_batches(discount_id, created_at);

CREATE TABLE discount_codes (
    id              TEXT PRIMARY KEY,
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(id),
    -- Normalised: upper case, "XXXX-XXXX" from the unambiguous alphabet.
    code            TEXT NOT NULL CHECK (length(code) = 9 AND substr(code, 5, 1) = '-' AND code = upper(code)),
    batch_id        TEXT NOT NULL REFERENCES discount_code_batches(id) ON DELETE CASCADE,
    discount_id     TEXT NOT NULL REFERENCES discounts(id) ON DELETE CASCADE,
    -- Redemption increments uses with a conditional UPDATE; the CHECK is
    -- the last line of defence against over-redemption.
    uses            INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    max_uses        INTEGER NOT NULL CHECK (max_uses BETWEEN 1 AND 1000),
    once_per_guest  INTEGER NOT NULL CHECK (once_per_guest IN (0, 1)),
    last_used_at    TEXT CHECK ((uses = 0) = (last_used_at IS NULL))
);
-- A code names one redemption right in the restaurant: generation retries
-- on a collision with this index.
CREATE UNIQUE INDEX discount_codes_code ON discount_codes(restaurant_id, code);
CREATE INDEX discount_codes_discount ON discount_codes(discount_id, batch_id);
CREATE INDEX discount_codes_batch ON discount_codes(batch_id);

-- One row per use of a once-per-guest code: the unique pair refuses a
-- second use by the same guest, whatever the terminals do.
CREATE TABLE discount_code_guest_uses (
    code_id     TEXT NOT NULL REFERENCES discount_codes(id) ON DELETE CASCADE,
    guest_ref   TEXT NOT NULL CHECK (length(guest_ref) BETWEEN 1 AND 100),
    created_at  TEXT NOT NULL,
    UNIQUE (code_id, guest_ref)
);

-- The code a redemption used, copied like the discount's name so a
-- deleted discount's redemptions still show it; no foreign key.
ALTER TABLE discount_redemptions ADD COLUMN code_id TEXT;
ALTER TABLE discount_redemptions ADD COLUMN code TEXT;

-- +goose Down
ALTER TABLE discount_redemptions DROP COLUMN code;
ALTER TABLE discount_redemptions DROP COLUMN code_id;
DROP TABLE discount_code_guest_uses;
DROP TABLE discount_codes;
DROP TABLE discount_code_batches;
ALTER TABLE discounts DROP COLUMN requires_code;
