package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// RedemptionsListed is how many of a discount's newest redemptions the
// API lists: enough to review a busy week.
const RedemptionsListed = 200

// RedemptionEntry is one redemption of a discount as the owner reviews it
// (docs/API.md, "A discount's redemptions"): people by name, and whether
// a sale booked it.
type RedemptionEntry struct {
	ID              string
	CreatedAt       time.Time
	AmountCents     int64
	OrderTotalCents int64
	RedeemedBy      string  // the name of who redeemed it
	ApprovedBy      *string // the approving admin's name
	Reason          *string
	Code            *string
	OrderRef        *string
	Booked          bool // a sale's discount lines name it
}

// DiscountRedemptions is the discount's newest redemptions, at most
// limit, newest first. A discount that is not the restaurant's (or was
// deleted) is not_found.
func (s *Store) DiscountRedemptions(ctx context.Context, restaurantID, discountID string, limit int) ([]RedemptionEntry, error) {
	var one int
	err := s.rdb.QueryRowContext(ctx, `SELECT 1 FROM discounts WHERE restaurant_id = ? AND id = ?`, restaurantID, discountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("discount")
	} else if err != nil {
		return nil, err
	}
	return queryAll(ctx, s.rdb, func(sc scanner) (RedemptionEntry, error) {
		var e RedemptionEntry
		var created string
		if err := sc.Scan(&e.ID, &created, &e.AmountCents, &e.OrderTotalCents, &e.RedeemedBy, &e.ApprovedBy, &e.Reason, &e.Code,
			&e.OrderRef, &e.Booked); err != nil {
			return e, err
		}
		e.CreatedAt = ParseTime(created)
		return e, nil
	}, `SELECT r.id, r.created_at, r.amount_cents, r.order_total_cents, u.name, a.name, r.reason, r.code, r.order_ref,
			EXISTS (SELECT 1 FROM sale_redemptions b WHERE b.redemption_id = r.id)
		FROM discount_redemptions r JOIN users u ON u.id = r.redeemed_by LEFT JOIN users a ON a.id = r.approved_by
		WHERE r.discount_id = ? AND r.restaurant_id = ?
		ORDER BY r.created_at DESC, r.id DESC LIMIT ?`, discountID, restaurantID, limit)
}
