-- +goose Up
-- A percentage discount may be 0 % (the contract allows 0 to 100; a till
-- may keep a "no discount" entry). SQLite cannot change a CHECK in place,
-- so the table is rebuilt with the same columns, rows and index; nothing
-- references discounts by foreign key (redemptions keep a copy of the id).

CREATE TABLE discounts_new (
    id                  TEXT PRIMARY KEY,
    restaurant_id       TEXT NOT NULL REFERENCES restaurants(id),
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description         TEXT CHECK (description IS NULL OR length(description) <= 2000),
    discount_type       TEXT NOT NULL CHECK (discount_type IN ('percentage', 'fixed')),
    -- hundredths: cents for 'fixed' (more than 0), hundredths of a percent
    -- for 'percentage' (0 to 100 %)
    value               INTEGER NOT NULL CHECK ((discount_type = 'fixed' AND value > 0)
                                                OR (discount_type = 'percentage' AND value BETWEEN 0 AND 10000)),
    min_order_cents     INTEGER CHECK (min_order_cents >= 0),
    max_discount_cents  INTEGER CHECK (max_discount_cents >= 0),
    applicable_to       TEXT NOT NULL DEFAULT 'order' CHECK (applicable_to IN ('order', 'category', 'item')),
    category_id         TEXT,
    item_id             TEXT,
    valid_from          TEXT NOT NULL,
    valid_until         TEXT CHECK (valid_until IS NULL OR valid_until > valid_from),
    usage_limit         INTEGER CHECK (usage_limit IS NULL OR usage_limit >= 1),
    usage_count         INTEGER NOT NULL DEFAULT 0
                        CHECK (usage_count >= 0 AND (usage_limit IS NULL OR usage_count <= usage_limit)),
    is_active           INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    CHECK ((applicable_to = 'category') = (category_id IS NOT NULL)),
    CHECK ((applicable_to = 'item') = (item_id IS NOT NULL))
);
INSERT INTO discounts_new SELECT * FROM discounts;
DROP TABLE discounts;
ALTER TABLE discounts_new RENAME TO discounts;
CREATE INDEX discounts_restaurant_created ON discounts(restaurant_id, created_at);

-- +goose Down
-- Going back refuses the 0 % discounts again; they become 0.01 %.
CREATE TABLE discounts_old (
    id                  TEXT PRIMARY KEY,
    restaurant_id       TEXT NOT NULL REFERENCES restaurants(id),
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    description         TEXT CHECK (description IS NULL OR length(description) <= 2000),
    discount_type       TEXT NOT NULL CHECK (discount_type IN ('percentage', 'fixed')),
    value               INTEGER NOT NULL CHECK (value > 0 AND (discount_type = 'fixed' OR value <= 10000)),
    min_order_cents     INTEGER CHECK (min_order_cents >= 0),
    max_discount_cents  INTEGER CHECK (max_discount_cents >= 0),
    applicable_to       TEXT NOT NULL DEFAULT 'order' CHECK (applicable_to IN ('order', 'category', 'item')),
    category_id         TEXT,
    item_id             TEXT,
    valid_from          TEXT NOT NULL,
    valid_until         TEXT CHECK (valid_until IS NULL OR valid_until > valid_from),
    usage_limit         INTEGER CHECK (usage_limit IS NULL OR usage_limit >= 1),
    usage_count         INTEGER NOT NULL DEFAULT 0
                        CHECK (usage_count >= 0 AND (usage_limit IS NULL OR usage_count <= usage_limit)),
    is_active           INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    CHECK ((applicable_to = 'category') = (category_id IS NOT NULL)),
    CHECK ((applicable_to = 'item') = (item_id IS NOT NULL))
);
INSERT INTO discounts_old SELECT id, restaurant_id, name, description, discount_type, MAX(value, 1), min_order_cents,
    max_discount_cents, applicable_to, category_id, item_id, valid_from, valid_until, usage_limit, usage_count,
    is_active, created_at, updated_at FROM discounts;
DROP TABLE discounts;
ALTER TABLE discounts_old RENAME TO discounts;
CREATE INDEX discounts_restaurant_created ON discounts(restaurant_id, created_at);
