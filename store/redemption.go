package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// RedeemInput is one order a POS terminal applies a discount to.
type RedeemInput struct {
	OrderTotalCents int64
	// EligibleCents is the subtotal of the lines the discount targets;
	// required for category and item scope, order_total when nil for
	// order scope.
	EligibleCents *int64
	RedeemedBy    string // user id
	// Code is the code the till gave, normalised (posbox/discount), or
	// nil; GuestRef the guest's reference for a once-per-guest code.
	Code     *string
	GuestRef *string
	// Schedule decides, inside the transaction that counts the use,
	// whether d's weekly schedule lets it be redeemed at the instant
	// (posbox/discount's Check, in the restaurant's timezone). nil refuses
	// every discount that has a schedule, so a caller that forgets it
	// cannot give a discount away outside its hours.
	Schedule func(d *Discount, at time.Time) error
	// Basket prices the redemption on the till's basket; nil: on
	// OrderTotalCents and EligibleCents as before baskets.
	Basket *RedeemBasket
	// Reason is why the discount is given (kept with the redemption);
	// ByAdmin says the caller is an admin; ApprovedBy is the admin whose
	// email and password the till sent, already checked (approvalTx).
	Reason     *string
	ByAdmin    bool
	ApprovedBy string
}

// Redemption is one counted use of a discount.
type Redemption struct {
	ID              string
	RestaurantID    string
	DiscountID      string
	DiscountName    string
	OrderTotalCents int64
	EligibleCents   int64
	AmountCents     int64
	RedeemedBy      string
	CreatedAt       time.Time
	// UsageCount is the discount's count after this redemption.
	UsageCount int64
	// Code is the code used, with its uses after this redemption; nil
	// without one.
	Code *DiscountCode
	// OrderRef, Lines and Rates are its basket's (RedeemBasket): the
	// order, its part of each line, the sums per VAT rate; empty when it
	// was redeemed without a basket.
	OrderRef string
	Lines    []int64
	Rates    []RateCents
	// ApprovedBy is the admin who approved a manager-only discount (nil
	// for one anyone gives); Reason the reason the till sent.
	ApprovedBy *string
	Reason     *string
}

// Amount is what d takes off an order whose targeted lines total eligible
// cents: the percentage of eligible rounded half-up to the cent, or the
// fixed value; then capped by max_discount_amount and by eligible itself,
// so a discount never makes anything cost less than nothing.
func (d *Discount) Amount(eligible int64) int64 {
	a := d.Value
	if d.Type == DiscountPercentage {
		a = percentOf(eligible, d.Value)
	}
	if d.MaxDiscountCents != nil && a > *d.MaxDiscountCents {
		a = *d.MaxDiscountCents
	}
	return max(0, min(a, eligible))
}

// percentOf is cents × hundredths-of-a-percent / 10 000, rounded half-up,
// in integers. The product goes through 128 bits so no amount the API
// accepts can overflow. Both arguments are ≥ 0 (validated).
func percentOf(cents, hundredths int64) int64 {
	hi, lo := bits.Mul64(uint64(cents), uint64(hundredths))
	lo, carry := bits.Add64(lo, 100_00/2, 0)
	q, _ := bits.Div64(hi+carry, lo, 100_00)
	return int64(q)
}

// Redeem counts one use of a discount for an order and returns the amount
// to deduct. Checks, in this order: the input (422), the discount exists
// (404), eligible_amount is given when the scope needs it (422), active
// (409 discount_inactive), started (409 discount_not_started), not expired
// (409 discount_expired), its schedule (409 discount_outside_schedule),
// minimum order (422 min_order_not_met), the code
// (422 discount_code_required, discount_code_invalid, validation_failed on
// guest_ref; 409 discount_code_used_up, discount_code_guest_used), usage
// limit (409 usage_limit_reached). The code's and the discount's limits are enforced by one conditional
// UPDATE inside the immediate transaction, so it holds however many
// terminals redeem at once; the redemption row and, for the last allowed
// use, a discount_exhausted event commit with it.
func (s *Store) Redeem(ctx context.Context, restaurantID, discountID string, in RedeemInput) (*Redemption, error) {
	if err := checkRedeemInput(in); err != nil {
		return nil, err
	}
	var r *Redemption
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		r, err = redeemTx(ctx, tx, restaurantID, discountID, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// checkRedeemInput is the 422 on the body, before anything is read.
func checkRedeemInput(in RedeemInput) error {
	var f Fields
	if in.OrderTotalCents < 0 {
		f.Add("order_total", FTooSmall, "must be 0 or more", "min", 0)
	}
	checkGuestRef(&f, in)
	if in.EligibleCents != nil {
		switch {
		case *in.EligibleCents < 0:
			f.Add("eligible_amount", FTooSmall, "must be 0 or more", "min", 0)
		case *in.EligibleCents > in.OrderTotalCents:
			f.Add("eligible_amount", FExceedsField, "must not exceed order_total", "field", "order_total")
		}
	}
	return f.Err()
}

// RedeemOnce is Redeem under an Idempotency-Key (its scope is set to
// IdemDiscountRedeem). A key seen before with the same request answers
// what it answered then, without counting a use or checking the discount
// again (it may since be used up, deactivated or deleted); with another
// request it is 422 idempotency_key_reused. A new key redeems, and the
// answer (render's body, status 200) is stored in the same transaction
// as the use it counts: a crash can never count a use without the answer
// to replay. Refusals are not stored, so a retry after one is decided
// afresh (the admin may have activated the discount meanwhile).
func (s *Store) RedeemOnce(ctx context.Context, restaurantID, discountID string, in RedeemInput, k IdempotencyKey,
	render func(*Redemption) ([]byte, error)) (*IdempotentReplay, error) {
	if err := checkRedeemInput(in); err != nil {
		return nil, err
	}
	k.Scope = IdemDiscountRedeem
	var out *IdempotentReplay
	err := s.write(ctx, func(tx *Tx) error {
		r, err := lookupIdempotency(ctx, tx, k)
		if err == nil {
			out = r
			return nil
		}
		if !IsNotFound(err) {
			return err
		}
		red, err := redeemTx(ctx, tx, restaurantID, discountID, in)
		if err != nil {
			return err
		}
		body, err := render(red)
		if err != nil {
			return err
		}
		out = &IdempotentReplay{ResourceID: red.ID, Status: 200, Response: body}
		return insertIdempotency(ctx, tx, k, *out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// redeemTx runs the checks and counts the use inside a write transaction.
func redeemTx(ctx context.Context, tx *Tx, restaurantID, discountID string, in RedeemInput) (*Redemption, error) {
	d, err := discountTx(ctx, tx, restaurantID, discountID)
	if err != nil {
		return nil, err
	}
	eligible := in.OrderTotalCents
	if in.EligibleCents != nil {
		eligible = *in.EligibleCents
	} else if d.ApplicableTo != ScopeOrder && in.Basket == nil {
		return nil, Invalid("eligible_amount", FRequired, "is required for a discount that applies to a "+d.ApplicableTo)
	}
	switch {
	case !d.IsActive:
		return nil, Errorf(EDiscountInactive, "discount %q is not active", d.Name)
	case tx.Now.Before(d.ValidFrom):
		return nil, Errorf(EDiscountNotStarted, "discount %q is valid from %s", d.Name, FormatTime(d.ValidFrom))
	case d.ValidUntil != nil && !tx.Now.Before(*d.ValidUntil):
		return nil, Errorf(EDiscountExpired, "discount %q expired at %s", d.Name, FormatTime(*d.ValidUntil))
	case d.Schedule != nil && in.Schedule == nil:
		return nil, Errorf(EDiscountOutsideSchedule, "discount %q has a schedule that was not checked", d.Name)
	}
	if d.Schedule != nil {
		if err := in.Schedule(d, tx.Now); err != nil {
			return nil, err
		}
	}
	approvedBy, err := approvalTx(ctx, tx, restaurantID, d, in)
	if err != nil {
		return nil, err
	}
	switch {
	case d.MinOrderCents != nil && in.OrderTotalCents < *d.MinOrderCents:
		return nil, Errorf(EMinOrderNotMet, "discount %q needs an order total of at least %s", d.Name, formatCents(*d.MinOrderCents))
	}
	r := &Redemption{ID: NewID(), RestaurantID: restaurantID, DiscountID: d.ID, DiscountName: d.Name,
		OrderTotalCents: in.OrderTotalCents, EligibleCents: eligible, AmountCents: d.Amount(eligible),
		RedeemedBy: in.RedeemedBy, CreatedAt: tx.Now, ApprovedBy: approvedBy, Reason: in.Reason}
	var part BasketPart
	if in.Basket != nil {
		if part, err = priceBasketTx(ctx, tx, restaurantID, d, in.Basket); err != nil {
			return nil, err
		}
		r.EligibleCents, r.AmountCents, r.OrderRef = part.Eligible, part.Amount, in.Basket.OrderRef
	}
	// A refusal below rolls the code's use back with the rest.
	if r.Code, err = useCodeTx(ctx, tx, restaurantID, d, in); err != nil {
		return nil, err
	}
	var codeID, code *string
	if r.Code != nil {
		codeID, code = &r.Code.ID, &r.Code.Code
	}
	// The one statement that decides the limit.
	err = tx.QueryRowContext(ctx, `UPDATE discounts SET usage_count = usage_count + 1
		WHERE id = ? AND (usage_limit IS NULL OR usage_count < usage_limit) RETURNING usage_count`, d.ID).Scan(&r.UsageCount)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(EUsageLimitReached, "discount %q has been used all %d times allowed", d.Name, *d.UsageLimit)
	}
	if err != nil {
		return nil, err
	}
	var orderRef, sha, combinable any
	if b := in.Basket; b != nil {
		orderRef, sha, combinable = nullStr(b.OrderRef), b.SHA256, d.Combinable
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO discount_redemptions (id, restaurant_id, discount_id, discount_name,
		order_total_cents, eligible_cents, amount_cents, redeemed_by, created_at, code_id, code, order_ref, basket_sha256, combinable,
		approved_by, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.RestaurantID, r.DiscountID, r.DiscountName, r.OrderTotalCents, r.EligibleCents, r.AmountCents,
		r.RedeemedBy, FormatTime(r.CreatedAt), codeID, code, orderRef, sha, combinable, r.ApprovedBy, r.Reason); err != nil {
		return nil, err
	}
	if in.Basket != nil {
		if err := insertBasketTx(ctx, tx, r, in.Basket, part); err != nil {
			return nil, err
		}
	}
	if d.UsageLimit != nil && r.UsageCount == *d.UsageLimit {
		_, err = InsertEvent(ctx, tx, restaurantID, EventDiscountExhausted, map[string]any{
			"discount_id": d.ID, "name": d.Name, "usage_limit": *d.UsageLimit, "usage_count": r.UsageCount,
		})
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// formatCents renders cents for a message: 1250 → "12.50", -78 → "-0.78".
func formatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
