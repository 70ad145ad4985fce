-- +goose Up
-- The POS's catalogue (docs/API.md, "The POS catalogue"): its categories
-- and items by the POS's own ids, so the console offers a discount's
-- target by name and lists it by name. The till sends the catalogue
-- whole (PUT /api/catalogue) and it replaces what was here; discounts
-- keep their category_id and item_id as before (no foreign key: an id
-- the catalogue does not know stays allowed).

CREATE TABLE pos_categories (
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(id),
    -- The POS's id, a lowercase UUID like a discount's category_id.
    id              TEXT NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, id)
) WITHOUT ROWID;

CREATE TABLE pos_items (
    restaurant_id   TEXT NOT NULL REFERENCES restaurants(id),
    id              TEXT NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    -- The POS's category of the item; it need not be in pos_categories
    -- (the till may send an item of a category it hides).
    category_id     TEXT CHECK (category_id IS NULL OR (length(category_id) = 36 AND category_id = lower(category_id))),
    -- fiskaly's rate names, as a sale's amounts_per_vat_rate.
    vat_rate        TEXT NOT NULL CHECK (vat_rate IN ('NORMAL', 'REDUCED_1', 'SPECIAL_RATE_1', 'SPECIAL_RATE_2', 'NULL')),
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (restaurant_id, id)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE pos_items;
DROP TABLE pos_categories;
