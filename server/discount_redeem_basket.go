package server

import (
	"unicode/utf8"

	"posbox/discount"
	"posbox/store"
)

// redeemBasket reads the basket of a redemption (docs/API.md, "Redeem
// with the basket") into in: the lines as POST /api/discounts/evaluate
// reads them, order_total optional but then their total, no
// eligible_amount, and order_ref joining the order's redemptions. Without
// lines it reads order_total and eligible_amount as always.
func (req redeemRequest) redeemBasket(f *store.Fields, in *store.RedeemInput) error {
	if req.Lines == nil {
		required(f, "order_total", req.OrderTotal)
		if req.OrderRef != nil {
			f.Add("order_ref", store.FRequiresField, "is given only together with lines", "field", "lines")
		}
		if req.OrderTotal != nil {
			in.OrderTotalCents = req.OrderTotal.Cents(f, "order_total")
		}
		if req.EligibleAmount != nil {
			c := req.EligibleAmount.Cents(f, "eligible_amount")
			in.EligibleCents = &c
		}
		return nil
	}
	b, err := evaluateRequest{Lines: req.Lines}.basket()
	if err != nil {
		return err
	}
	_, total := b.Totals()
	in.OrderTotalCents = total
	if req.OrderTotal != nil {
		if c := req.OrderTotal.Cents(f, "order_total"); c != total {
			f.Add("order_total", store.FSumMismatch, "must be the lines' total, "+string(money(total))+", or absent")
		}
	}
	if req.EligibleAmount != nil {
		f.Add("eligible_amount", store.FNotAllowed, "must be absent with lines: the basket says which lines the discount applies to")
	}
	rb := &store.RedeemBasket{SHA256: hashOf(b.Lines), VATRates: make([]string, len(b.Lines)),
		Price: func(d *store.Discount, taken []int64) store.BasketPart {
			a := discount.PriceOn(b, d, taken)
			return store.BasketPart{Eligible: a.Eligible, Amount: a.Amount, Lines: a.Lines, Rates: a.Rates}
		}}
	for i, l := range b.Lines {
		rb.VATRates[i] = l.VATRate
	}
	if req.OrderRef != nil {
		if n := utf8.RuneCountInString(*req.OrderRef); n < 1 || n > 64 {
			f.Add("order_ref", store.FLength, "must be 1-64 characters", "min", 1, "max", 64)
		}
		rb.OrderRef = *req.OrderRef
	}
	in.Basket = rb
	return nil
}

// basketAnswer is a redemption's basket in its answer: the order, its
// part of each line and per VAT rate; null members without a basket.
type basketAnswer struct {
	OrderRef *string          `json:"order_ref"`
	Lines    []lineAmountJSON `json:"lines"`
	VATRates []rateAmountJSON `json:"vat_rates"`
}

func basketOf(red *store.Redemption) basketAnswer {
	if red.Lines == nil {
		return basketAnswer{}
	}
	out := basketAnswer{OrderRef: strPtr(red.OrderRef)}
	out.Lines, out.VATRates = partsJSON(red.Lines, red.Rates)
	return out
}
