package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal"
	"posbox/store"
)

// discountJSON is a discount as the API shows it, fields in the contract's
// order.
type discountJSON struct {
	ID                string       `json:"id"`
	Name              string       `json:"name"`
	Description       *string      `json:"description"`
	DiscountType      string       `json:"discount_type"`
	Value             json.Number  `json:"value"`
	MinOrderAmount    *json.Number `json:"min_order_amount"`
	MaxDiscountAmount *json.Number `json:"max_discount_amount"`
	ApplicableTo      string       `json:"applicable_to"`
	CategoryID        *string      `json:"category_id"`
	ItemID            *string      `json:"item_id"`
	ValidFrom         string       `json:"valid_from"`
	ValidUntil        *string      `json:"valid_until"`
	UsageLimit        *int64       `json:"usage_limit"`
	UsageCount        int64        `json:"usage_count"`
	IsActive          bool         `json:"is_active"`
	RequiresCode      bool         `json:"requires_code"`
	CreatedAt         string       `json:"created_at"`
	UpdatedAt         string       `json:"updated_at"`
	// Schedule follows the contract's fields; null when the discount is
	// open around the clock.
	Schedule []scheduleEntryJSON `json:"schedule"`
	// Combinable and Priority are its stacking (docs/API.md, "Stacking").
	Combinable bool  `json:"combinable"`
	Priority   int64 `json:"priority"`
	// The target's name in the POS catalogue; null when the catalogue
	// does not hold the id (or there is no target).
	CategoryName *string `json:"category_name"`
	ItemName     *string `json:"item_name"`
	// Approval is who may give it at the till (docs/API.md, "Manager-only
	// discounts").
	Approval string `json:"approval"`
}

func toDiscountJSON(d *store.Discount) discountJSON {
	return discountJSON{
		ID: d.ID, Name: d.Name, Description: d.Description, DiscountType: d.Type, Value: money(d.Value),
		MinOrderAmount: moneyPtr(d.MinOrderCents), MaxDiscountAmount: moneyPtr(d.MaxDiscountCents),
		ApplicableTo: d.ApplicableTo, CategoryID: d.CategoryID, ItemID: d.ItemID,
		ValidFrom: ts(d.ValidFrom), ValidUntil: tsPtr(d.ValidUntil), Schedule: scheduleJSON(d.Schedule), UsageLimit: d.UsageLimit, UsageCount: d.UsageCount,
		IsActive: d.IsActive, RequiresCode: d.RequiresCode, CreatedAt: ts(d.CreatedAt), UpdatedAt: ts(d.UpdatedAt),
		Combinable: d.Combinable, Priority: d.Priority,
		CategoryName: d.CategoryName, ItemName: d.ItemName, Approval: d.Approval,
	}
}

// discountRequest is the body of POST (create) and PUT (partial update).
// Every member tells absent from null; null is accepted only on nullable
// fields.
type discountRequest struct {
	Name              store.Field[string]              `json:"name"`
	Description       store.Field[string]              `json:"description"`
	DiscountType      store.Field[string]              `json:"discount_type"`
	Value             store.Field[fiscal.Decimal]      `json:"value"`
	MinOrderAmount    store.Field[fiscal.Decimal]      `json:"min_order_amount"`
	MaxDiscountAmount store.Field[fiscal.Decimal]      `json:"max_discount_amount"`
	ApplicableTo      store.Field[string]              `json:"applicable_to"`
	CategoryID        store.Field[string]              `json:"category_id"`
	ItemID            store.Field[string]              `json:"item_id"`
	ValidFrom         store.Field[string]              `json:"valid_from"`
	ValidUntil        store.Field[string]              `json:"valid_until"`
	Schedule          store.Field[[]scheduleEntryJSON] `json:"schedule"`
	UsageLimit        store.Field[int64]               `json:"usage_limit"`
	IsActive          store.Field[bool]                `json:"is_active"`
	RequiresCode      store.Field[bool]                `json:"requires_code"`
	Combinable        store.Field[bool]                `json:"combinable"`
	Priority          store.Field[int64]               `json:"priority"`
	Approval          store.Field[string]              `json:"approval"`
}

// update converts the wire forms (decimal literals, RFC 3339 strings) into
// the store's; format errors are collected in f.
func (req discountRequest) update(f *store.Fields) store.DiscountUpdate {
	hundredths := func(name string, d store.Field[fiscal.Decimal]) store.Field[int64] {
		return convField(d, func(v fiscal.Decimal) int64 { return v.Cents(f, name) })
	}
	instant := func(name string, s store.Field[string]) store.Field[time.Time] {
		return convField(s, func(v string) time.Time { return parseTimestamp(f, name, v) })
	}
	return store.DiscountUpdate{
		Name:              req.Name,
		Description:       req.Description,
		Type:              req.DiscountType,
		Value:             hundredths("value", req.Value),
		MinOrderAmount:    hundredths("min_order_amount", req.MinOrderAmount),
		MaxDiscountAmount: hundredths("max_discount_amount", req.MaxDiscountAmount),
		ApplicableTo:      req.ApplicableTo,
		CategoryID:        req.CategoryID,
		ItemID:            req.ItemID,
		ValidFrom:         instant("valid_from", req.ValidFrom),
		ValidUntil:        instant("valid_until", req.ValidUntil),
		Schedule:          scheduleField(f, req.Schedule),
		UsageLimit:        req.UsageLimit,
		IsActive:          req.IsActive,
		RequiresCode:      req.RequiresCode,
		Combinable:        req.Combinable,
		Priority:          req.Priority,
		Approval:          req.Approval,
	}
}

// convField converts a set, non-null value and keeps absent and null.
func convField[A, B any](in store.Field[A], conv func(A) B) store.Field[B] {
	out := store.Field[B]{Set: in.Set, Null: in.Null}
	if in.Set && !in.Null {
		out.Value = conv(in.Value)
	}
	return out
}

// decodeDiscount reads and converts a create or update body.
func decodeDiscount(r *http.Request) (store.DiscountUpdate, error) {
	var req discountRequest
	if err := decode(r, &req, false); err != nil {
		return store.DiscountUpdate{}, err
	}
	var f store.Fields
	upd := req.update(&f)
	return upd, f.Err()
}

func (s *Server) listDiscounts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	ds, err := s.store.Discounts(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]discountJSON, 0, len(ds))
	for _, d := range ds {
		out = append(out, toDiscountJSON(d))
	}
	return writeJSON(w, http.StatusOK, envelope{"discounts": out})
}

func (s *Server) createDiscount(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	upd, err := decodeDiscount(r)
	if err != nil {
		return err
	}
	d, err := s.store.CreateDiscount(r.Context(), caller(r.Context()).restaurant.ID, upd)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"discount": toDiscountJSON(d)})
}

func (s *Server) updateDiscount(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	upd, err := decodeDiscount(r)
	if err != nil {
		return err
	}
	d, err := s.store.UpdateDiscount(r.Context(), caller(r.Context()).restaurant.ID, id, upd)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"discount": toDiscountJSON(d)})
}

func (s *Server) deleteDiscount(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	if err := s.store.DeleteDiscount(r.Context(), caller(r.Context()).restaurant.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
