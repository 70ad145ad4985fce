-- +goose Up
-- Stacking (docs/API.md, "Stacking"): whether a discount combines with
-- other combinable ones when a basket is priced, and its priority among
-- them (higher first). The defaults keep every existing discount as it
-- was priced before: exclusive, priority 0.

ALTER TABLE discounts ADD COLUMN combinable INTEGER NOT NULL DEFAULT 0 CHECK (combinable IN (0, 1));
ALTER TABLE discounts ADD COLUMN priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -1000 AND 1000);

-- +goose Down
ALTER TABLE discounts DROP COLUMN priority;
ALTER TABLE discounts DROP COLUMN combinable;
