package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/discount"
	"posbox/fiscal"
	"posbox/store"
)

// evaluateRequest is the body of POST /api/discounts/evaluate: the till's
// basket and, optionally, a code the guest has.
type evaluateRequest struct {
	Lines []evaluateLine `json:"lines"`
	Code  *string        `json:"code"`
}

type evaluateLine struct {
	ItemID     *string         `json:"item_id"`
	CategoryID *string         `json:"category_id"`
	Quantity   *fiscal.Decimal `json:"quantity"`
	UnitPrice  *fiscal.Decimal `json:"unit_price"`
	VATRate    *string         `json:"vat_rate"`
}

// basket converts the wire form (decimal literals) into the pricing
// core's; format errors and missing members are field errors named
// lines[i].quantity and so on, then the basket's own rules.
func (req evaluateRequest) basket() (discount.Basket, error) {
	var f store.Fields
	b := discount.Basket{Lines: make([]discount.Line, 0, len(req.Lines))}
	if len(req.Lines) > discount.MaxLines {
		return b, b.Validate() // too many: named once, the lines are not read
	}
	for i, l := range req.Lines {
		at := fmt.Sprintf("lines[%d].", i)
		var line discount.Line
		required(&f, at+"quantity", l.Quantity)
		required(&f, at+"unit_price", l.UnitPrice)
		required(&f, at+"vat_rate", l.VATRate)
		if l.Quantity != nil {
			line.QuantityMilli, _ = l.Quantity.Milli(&f, at+"quantity")
		}
		if l.UnitPrice != nil {
			line.UnitPriceCents = l.UnitPrice.Cents(&f, at+"unit_price")
		}
		line.ItemID, line.CategoryID = deref(l.ItemID, ""), deref(l.CategoryID, "")
		line.VATRate = deref(l.VATRate, "")
		b.Lines = append(b.Lines, line)
	}
	if err := f.Err(); err != nil {
		return b, err
	}
	return b, b.Validate()
}

// evaluateDiscounts prices a basket against the restaurant's discounts
// at the store's clock: any authenticated user, as the till asks before
// it redeems. Nothing is redeemed or counted, not even a code's use.
func (s *Server) evaluateDiscounts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req evaluateRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	basket, err := req.basket()
	if err != nil {
		return err
	}
	c := caller(r.Context())
	ds, err := s.store.Discounts(r.Context(), c.restaurant.ID)
	if err != nil {
		return err
	}
	check, err := s.checkCode(r.Context(), c.restaurant.ID, req.Code, ds)
	if err != nil {
		return err
	}
	p := pricing{basket: basket, at: s.store.Now(), open: discount.Opener(c.restaurant.Location())}
	out := evaluationAnswer{evaluationJSON: p.price(ds, nil)}
	if check != nil {
		out.Code = check
		if check.unlocks != nil {
			with := p.price(ds, check.unlocks)
			out.WithCode = &with
		}
	}
	return writeJSON(w, http.StatusOK, envelope{"evaluation": out})
}

// pricing is one basket at one instant; price runs the pricing core on
// the discounts the caller may use.
type pricing struct {
	basket discount.Basket
	at     time.Time
	open   func(d *store.Discount, at time.Time) bool
}

// price evaluates the discounts that need no code, and unlocked (a code
// discount whose code the guest has) when not nil. The other code
// discounts are not priced: they are listed as needing their code.
func (p pricing) price(ds []*store.Discount, unlocked *store.Discount) evaluationJSON {
	use := make([]*store.Discount, 0, len(ds))
	var locked []discount.Skipped
	for _, d := range ds {
		switch {
		case !d.RequiresCode || d == unlocked:
			use = append(use, d)
		default:
			locked = append(locked, discount.Skipped{Discount: d, Reason: store.EDiscountCodeRequired})
		}
	}
	res, err := discount.Evaluate(discount.Request{Basket: p.basket, At: p.at, Discounts: use, Open: p.open,
		Stacking: func(d *store.Discount) discount.Stacking {
			return discount.Stacking{Combinable: d.Combinable, Priority: int(d.Priority)}
		}})
	if err != nil {
		// basket() validated it already: the same rules cannot fail here.
		panic("server: a validated basket refused: " + err.Error())
	}
	res.Skipped = append(res.Skipped, locked...)
	return toEvaluationJSON(p.basket, res)
}

// codeCheck is what the guest's code would unlock: the discount when the
// code is one of a code discount's and has uses left, else why not.
type codeCheck struct {
	Code       string  `json:"code"`
	Valid      bool    `json:"valid"`
	Reason     *string `json:"reason"`
	DiscountID *string `json:"discount_id"`
	unlocks    *store.Discount
}

// checkCode looks the code up read only: it must exist in the
// restaurant, belong to one of ds and have uses left. A once-per-guest
// code's guest is checked when it is redeemed, not here. nil without a
// code.
func (s *Server) checkCode(ctx context.Context, restaurantID string, typed *string, ds []*store.Discount) (*codeCheck, error) {
	if typed == nil {
		return nil, nil
	}
	normal, ok := discount.Normalize(*typed)
	out := &codeCheck{Code: *redeemCode(typed)}
	refuse := func(reason string) (*codeCheck, error) {
		out.Reason = &reason
		return out, nil
	}
	if !ok {
		return refuse(store.EDiscountCodeInvalid)
	}
	c, err := s.store.CodeByText(ctx, restaurantID, normal)
	if store.IsNotFound(err) {
		return refuse(store.EDiscountCodeInvalid)
	} else if err != nil {
		return nil, err
	}
	out.DiscountID = &c.DiscountID
	for _, d := range ds {
		if d.ID == c.DiscountID {
			out.unlocks = d
		}
	}
	switch {
	case out.unlocks == nil:
		// Deleted between the two reads: as unknown as none.
		out.DiscountID = nil
		return refuse(store.EDiscountCodeInvalid)
	case c.Uses >= c.MaxUses:
		out.unlocks = nil
		return refuse(store.EDiscountCodeUsedUp)
	}
	out.Valid = true
	return out, nil
}
