package server

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

type redeemRequest struct {
	OrderTotal     *decimal2 `json:"order_total"`
	EligibleAmount *decimal2 `json:"eligible_amount"`
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
}

// redeemDiscount applies a discount to an order at the till: any
// authenticated user, so the POS terminals can call it with a staff token.
func (s *Server) redeemDiscount(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	var req redeemRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "order_total", req.OrderTotal)
	in := store.RedeemInput{RedeemedBy: caller(r.Context()).user.ID}
	if req.OrderTotal != nil {
		in.OrderTotalCents = req.OrderTotal.cents(&f, "order_total")
	}
	if req.EligibleAmount != nil {
		c := req.EligibleAmount.cents(&f, "eligible_amount")
		in.EligibleCents = &c
	}
	if err := f.Err(); err != nil {
		return err
	}
	red, err := s.store.Redeem(r.Context(), caller(r.Context()).restaurant.ID, id, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"redemption": redemptionJSON{
		DiscountID: red.DiscountID, Amount: money(red.AmountCents), UsageCount: red.UsageCount,
		RedemptionID: red.ID, DiscountName: red.DiscountName, RedeemedAt: ts(red.CreatedAt),
	}})
}
