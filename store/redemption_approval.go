package store

import (
	"context"
	"database/sql"
	"errors"
)

// approvalTx is who approved redeeming d (docs/API.md, "Manager-only
// discounts"), checked in the transaction that counts the use: nil for a
// discount anyone gives; the admin who redeems it herself; or the admin
// whose approval the till sent, read again here so that one demoted or
// deactivated since her password was checked approves nothing. Refusals:
// the reason missing (422), an admins-only discount redeemed by staff
// (403 discount_admins_only), no approval (403
// discount_approval_required), an approver who is no active admin of
// the restaurant (403 discount_approval_invalid).
func approvalTx(ctx context.Context, tx *Tx, restaurantID string, d *Discount, in RedeemInput) (*string, error) {
	switch {
	case d.Approval == ApprovalNone:
		return nil, nil
	case in.Reason == nil:
		return nil, Invalid("reason", FRequired, "is required: the discount is given only with an admin's approval, and the reason is kept")
	case in.ByAdmin:
		return &in.RedeemedBy, nil
	case d.Approval == ApprovalAdminsOnly:
		return nil, Errorf(EDiscountAdminsOnly, "discount %q is given by an admin only", d.Name)
	case in.ApprovedBy == "":
		return nil, Errorf(EApprovalRequired, "discount %q needs an admin's approval: send approval with an admin's email and password", d.Name)
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM users WHERE id = ? AND restaurant_id = ? AND role = ? AND is_active = 1`,
		in.ApprovedBy, restaurantID, RoleAdmin).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(EApprovalInvalid, "the approval is not an active admin's of this restaurant")
	}
	if err != nil {
		return nil, err
	}
	return &in.ApprovedBy, nil
}

// DiscountApproval is who may give the restaurant's discount id (its
// approval), read before the redemption so that an approval is checked
// only for a discount that needs one; "" when there is no such discount
// (the redemption then answers 404).
func (s *Store) DiscountApproval(ctx context.Context, restaurantID, id string) (string, error) {
	var a string
	err := s.rdb.QueryRowContext(ctx, `SELECT approval FROM discounts WHERE restaurant_id = ? AND id = ?`, restaurantID, id).Scan(&a)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return a, err
}
