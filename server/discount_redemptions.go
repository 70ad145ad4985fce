package server

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// redemptionEntryJSON is one redemption as the owner reviews it: people
// by name, never an id but the redemption's own.
type redemptionEntryJSON struct {
	ID         string      `json:"id"`
	RedeemedAt string      `json:"redeemed_at"`
	Amount     json.Number `json:"amount"`
	OrderTotal json.Number `json:"order_total"`
	RedeemedBy string      `json:"redeemed_by"`
	ApprovedBy *string     `json:"approved_by"`
	Reason     *string     `json:"reason"`
	Code       *string     `json:"code"`
	OrderRef   *string     `json:"order_ref"`
	Booked     bool        `json:"booked"`
}

// listDiscountRedemptions answers GET /api/discounts/:id/redemptions: the
// discount's newest redemptions (docs/API.md, "A discount's
// redemptions"), admins only.
func (s *Server) listDiscountRedemptions(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	es, err := s.store.DiscountRedemptions(r.Context(), caller(r.Context()).restaurant.ID, id, store.RedemptionsListed)
	if err != nil {
		return err
	}
	out := make([]redemptionEntryJSON, 0, len(es))
	for _, e := range es {
		out = append(out, redemptionEntryJSON{ID: e.ID, RedeemedAt: ts(e.CreatedAt), Amount: money(e.AmountCents), OrderTotal: money(e.OrderTotalCents),
			RedeemedBy: e.RedeemedBy, ApprovedBy: e.ApprovedBy, Reason: e.Reason, Code: e.Code, OrderRef: e.OrderRef, Booked: e.Booked})
	}
	return writeJSON(w, http.StatusOK, envelope{"redemptions": out})
}
