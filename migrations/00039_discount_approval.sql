-- +goose Up
-- Manager-only discounts (docs/API.md, "Manager-only discounts"): who
-- may give a discount at the till, and on each redemption of one that
-- needs it the admin who approved it and the reason given. The default
-- keeps every existing discount as it was: anyone redeems it.

ALTER TABLE discounts ADD COLUMN approval TEXT NOT NULL DEFAULT 'none' CHECK (approval IN ('none', 'admin_approval', 'admins_only'));
ALTER TABLE discount_redemptions ADD COLUMN approved_by TEXT REFERENCES users(id);
ALTER TABLE discount_redemptions ADD COLUMN reason TEXT CHECK (reason IS NULL OR length(reason) BETWEEN 1 AND 255);

-- +goose Down
ALTER TABLE discount_redemptions DROP COLUMN reason;
ALTER TABLE discount_redemptions DROP COLUMN approved_by;
ALTER TABLE discounts DROP COLUMN approval;
