package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/julienschmidt/httprouter"

	"posbox/discount"
	"posbox/fiscal"
	"posbox/store"
)

type redeemRequest struct {
	OrderTotal     *fiscal.Decimal `json:"order_total"`
	EligibleAmount *fiscal.Decimal `json:"eligible_amount"`
	// Code is one of the discount's codes as typed (any case, hyphen
	// optional); GuestRef names the guest for a once-per-guest code.
	Code     *string `json:"code"`
	GuestRef *string `json:"guest_ref"`
	// Lines is the till's basket, as POST /api/discounts/evaluate reads
	// it; OrderRef joins the redemptions of one order (docs/API.md,
	// "Redeem with the basket").
	Lines    []evaluateLine `json:"lines"`
	OrderRef *string        `json:"order_ref"`
	// Reason and Approval are a manager-only discount's (docs/API.md,
	// "Manager-only discounts").
	Reason   *string          `json:"reason"`
	Approval *approvalRequest `json:"approval"`
}

// redemptionJSON carries the contract's three fields first, then what a
// receipt needs.
type redemptionJSON struct {
	DiscountID   string      `json:"discount_id"`
	Amount       json.Number `json:"amount"`
	UsageCount   int64       `json:"usage_count"`
	RedemptionID string      `json:"redemption_id"`
	DiscountName string      `json:"discount_name"`
	RedeemedAt   string      `json:"redeemed_at"`
	// Code is the code used, normalised, with its uses after this
	// redemption; null without one.
	Code *redeemedCodeJSON `json:"code"`
	basketAnswer
	// ApprovedBy is the approving admin's name for a discount that needs
	// an approval, else null; Reason the reason the till gave, or null.
	ApprovedBy *string `json:"approved_by"`
	Reason     *string `json:"reason"`
}

type redeemedCodeJSON struct {
	Code    string `json:"code"`
	Uses    int64  `json:"uses"`
	MaxUses int64  `json:"max_uses"`
}

// redeemDiscount applies a discount to an order at the till: any
// authenticated user, so the POS terminals can call it with a staff token.
func (s *Server) redeemDiscount(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	var req redeemRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	// The schedule is read on the restaurant's wall clock, inside the
	// transaction that counts the use.
	in := store.RedeemInput{RedeemedBy: caller(r.Context()).user.ID, Code: redeemCode(req.Code), GuestRef: req.GuestRef,
		Schedule: discount.Check(caller(r.Context()).restaurant.Location())}
	if err := req.redeemBasket(&f, &in); err != nil {
		return err
	}
	restaurantID := caller(r.Context()).restaurant.ID
	var k store.IdempotencyKey // only a request with a key is hashed
	if key != "" {
		k = store.IdempotencyKey{RestaurantID: restaurantID, Key: key, RequestHash: hashOf(redeemHashed{id, in.OrderTotalCents, in.EligibleCents, in.Code,
			in.GuestRef, basketHash(in.Basket), req.OrderRef, req.Reason, approverOf(req)})}
	}
	if key != "" && req.Approval != nil && f.Err() == nil {
		// A retry's approval was given with the first request: its answer
		// stands even if the admin's password changed since.
		if ans, err := s.store.RedeemedBefore(r.Context(), k); err != nil || ans != nil {
			if err != nil {
				return err
			}
			return writeAnswer(w, ans.Status, ans.Response)
		}
	}
	approver, err := s.redeemApproval(r.Context(), r, id, req, &f, &in)
	if err != nil {
		return err
	}
	if err := f.Err(); err != nil {
		return err
	}
	if key == "" {
		red, err := s.store.Redeem(r.Context(), restaurantID, id, in)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, redemptionAnswer(red, approver))
	}
	// With a key the answer is rendered inside the transaction that counts
	// the use and stored with it; a retry gets those bytes back.
	ans, err := s.store.RedeemOnce(r.Context(), restaurantID, id, in, k, func(red *store.Redemption) ([]byte, error) {
		return renderJSON(redemptionAnswer(red, approver))
	})
	if err != nil {
		return err
	}
	return writeAnswer(w, ans.Status, ans.Response)
}

// redeemHashed is what makes two redemptions the same request: the
// discount, the amounts, the code and the guest, not who sends it (keys
// are per restaurant). Without a code the hash is what it was before
// codes existed, so a retry across an update still matches.
type redeemHashed struct {
	DiscountID string
	OrderTotal int64
	Eligible   *int64
	Code       *string `json:",omitempty"`
	GuestRef   *string `json:",omitempty"`
	Basket     string  `json:",omitempty"`
	OrderRef   *string `json:",omitempty"`
	Reason     *string `json:",omitempty"`
	Approver   string  `json:",omitempty"` // the approving admin's email, never the password
}

// approverOf is the approval's email as the hash keeps it, "" for none.
func approverOf(req redeemRequest) string {
	if req.Approval == nil || req.Approval.Email == nil {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(*req.Approval.Email))
}

// basketHash is the basket's part of a redemption's hash, "" without one.
func basketHash(b *store.RedeemBasket) string {
	if b == nil {
		return ""
	}
	return b.SHA256
}

func redemptionAnswer(red *store.Redemption, approver string) envelope {
	out := redemptionJSON{
		DiscountID: red.DiscountID, Amount: money(red.AmountCents), UsageCount: red.UsageCount,
		RedemptionID: red.ID, DiscountName: red.DiscountName, RedeemedAt: ts(red.CreatedAt),
	}
	if c := red.Code; c != nil {
		out.Code = &redeemedCodeJSON{Code: c.Code, Uses: c.Uses, MaxUses: c.MaxUses}
	}
	out.basketAnswer = basketOf(red)
	if red.ApprovedBy != nil {
		out.ApprovedBy = &approver
	}
	out.Reason = red.Reason
	return envelope{"redemption": out}
}
