package fiscal

import (
	"fmt"
	"slices"
	"strings"

	"posbox/store"
)

// validateOrder reads an order: line items are required, it has no
// payments and (unless it is given and agrees) its amounts per VAT rate
// are the lines' sums.
func (r *Request) validateOrder() (Sale, error) {
	var f store.Fields
	v := Sale{Kind: KindOrder}
	v.ClientSerial = clientSerial(&f, r.ClientSerial)
	if r.ReceiptType != nil && *r.ReceiptType != "ORDER" {
		f.Add("receipt_type", store.FOneOf, "must be ORDER or absent for an order", "values", []string{"ORDER"})
	}
	if len(r.AmountsPerPaymentType) > 0 {
		f.Add("amounts_per_payment_type", store.FNotAllowed, "must be absent for an order: it is paid by a later receipt")
	}
	if r.Cancels != nil {
		f.Add("cancels", store.FNotAllowed, "must be absent for an order")
	}
	if len(r.LineItems) == 0 {
		f.Add("line_items", store.FTooFew, "must have at least one line for an order", "min", 1)
	}
	r.validateDetail(&f, &v)
	given := r.orderVAT(&f)
	if err := f.Err(); err != nil {
		return v, err
	}
	if len(r.AmountsPerVATRate) > 0 {
		if err := linesMatch(v.Lines, given); err != nil {
			return v, err
		}
	}
	v.ReceiptType = "ORDER"
	sums := lineSums(v.Lines)
	for _, rate := range VATRates {
		if c, ok := sums[rate]; ok {
			v.VAT = append(v.VAT, VATAmount{VATRate: rate, Cents: c})
			v.TotalCents += c
		}
	}
	return v, nil
}

// orderVAT reads an order's optional amounts_per_vat_rate, which only
// has to agree with the lines.
func (r *Request) orderVAT(f *store.Fields) []VATAmount {
	var given []VATAmount
	seen := map[string]bool{}
	for i, l := range r.AmountsPerVATRate {
		at := fmt.Sprintf("amounts_per_vat_rate[%d]", i)
		if l.VATRate == nil || !slices.Contains(VATRates, *l.VATRate) {
			f.Add(at+".vat_rate", store.FOneOf, "must be one of "+strings.Join(VATRates, ", "), "values", VATRates)
			continue
		}
		if seen[*l.VATRate] {
			f.Add(at+".vat_rate", store.FDuplicate, "appears twice; give one line per rate")
		}
		if l.Amount == nil {
			f.Add(at+".amount", store.FRequired, "is required")
			continue
		}
		seen[*l.VATRate] = true
		given = append(given, VATAmount{VATRate: *l.VATRate, Cents: l.Amount.Cents(f, at+".amount")})
	}
	return given
}
