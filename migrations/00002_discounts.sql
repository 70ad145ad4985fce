-- +goose Up
-- Discounts and their redemptions at the till. Money is integer cents;
-- percentages are integer hundredths of a percent (12.5 % = 1250). The CHECK
-- constraints repeat the API's validation so no code path can store a
-- discount the API would refuse.

CREATE TABLE discounts (
    id                  TEXT PRIMARY KEY,
    restaurant_id       TEXT NOT NULL REFERENCES restaurants(id),
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description         TEXT CHECK (description IS NULL OR length(description) <= 2000),
    discount_type       TEXT NOT NULL CHECK (discount_type IN ('percentage', 'fixed')),
    -- hundredths: cents for 'fixed', hundredths of a percent for 'percentage'
    value               INTEGER NOT NULL CHECK (value > 0 AND (discount_type = 'fixed' OR value <= 10000)),
    min_order_cents     INTEGER CHECK (min_order_cents >= 0),
    max_discount_cents  INTEGER CHECK (max_discount_cents >= 0),
    applicable_to       TEXT NOT NULL DEFAULT 'order' CHECK (applicable_to IN ('order', 'category', 'item')),
    -- The menu lives in the POS, so these name its records without a foreign key.
    category_id         TEXT,
    item_id             TEXT,
    valid_from          TEXT NOT NULL,
    valid_until         TEXT CHECK (valid_until IS NULL OR valid_until > valid_from),
    usage_limit         INTEGER CHECK (usage_limit IS NULL OR usage_limit >= 1),
    -- Redemption increments this with a conditional UPDATE; the CHECK is the
    -- last line of defence against over-redemption.
    usage_count         INTEGER NOT NULL DEFAULT 0
                        CHECK (usage_count >= 0 AND (usage_limit IS NULL OR usage_count <= usage_limit)),
    is_active           INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    -- A target id exactly when the scope needs one.
    CHECK ((applicable_to = 'category') = (category_id IS NOT NULL)),
    CHECK ((applicable_to = 'item') = (item_id IS NOT NULL))
);
CREATE INDEX discounts_restaurant_created ON discounts(restaurant_id, created_at);

-- One row per successful redemption. A permanent DELETE of a discount keeps
-- its redemptions: discount_id has no foreign key on purpose and the name is
-- copied, so the daily report still shows what was given away.
CREATE TABLE discount_redemptions (
    id                TEXT PRIMARY KEY,
    restaurant_id     TEXT NOT NULL REFERENCES restaurants(id),
    discount_id       TEXT NOT NULL,
    discount_name     TEXT NOT NULL,
    order_total_cents INTEGER NOT NULL CHECK (order_total_cents >= 0),
    eligible_cents    INTEGER NOT NULL CHECK (eligible_cents >= 0 AND eligible_cents <= order_total_cents),
    amount_cents      INTEGER NOT NULL CHECK (amount_cents >= 0 AND amount_cents <= eligible_cents),
    redeemed_by       TEXT NOT NULL REFERENCES users(id),
    created_at        TEXT NOT NULL
);
CREATE INDEX discount_redemptions_restaurant_created ON discount_redemptions(restaurant_id, created_at);
CREATE INDEX discount_redemptions_discount ON discount_redemptions(discount_id);

-- +goose Down
DROP TABLE discount_redemptions;
DROP TABLE discounts;
