-- +goose Up
-- A discount's redemptions, newest first (GET /api/discounts/:id/redemptions):
-- one index walk however many years of redemptions it has. It replaces
-- the index on discount_id alone, which it covers.
CREATE INDEX discount_redemptions_discount_created ON discount_redemptions(discount_id, created_at);
DROP INDEX discount_redemptions_discount;

-- +goose Down
CREATE INDEX discount_redemptions_discount ON discount_redemptions(discount_id);
DROP INDEX discount_redemptions_discount_created;
