package fiscal

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"posbox/store"
)

// BusinessCases are the DSFinV-K GV_TYP values a sale or line may name.
var BusinessCases = []string{"Umsatz", "Pfand", "PfandRueckzahlung", "Rabatt", "Aufschlag", "ZuschussEcht", "ZuschussUnecht",
	"TrinkgeldAG", "TrinkgeldAN", "EinzweckgutscheinKauf", "EinzweckgutscheinEinloesung", "MehrzweckgutscheinKauf",
	"MehrzweckgutscheinEinloesung", "Forderungsentstehung", "Forderungsaufloesung", "Anzahlungseinstellung",
	"Anzahlungsaufloesung", "Anfangsbestand", "Privatentnahme", "Privateinlage", "Geldtransit", "Lohnzahlung",
	"Einzahlung", "Auszahlung", "DifferenzSollIst"}

// Bounds that keep quantity × unit price inside int64 (1e8 × 1e10).
const (
	maxQuantityMilli = 99_999_999     // 99999.999
	maxUnitCents     = 99_999_999_999 // 999,999,999.99
	maxLines         = 500
)

// validateDetail reads the members a receipt and an order share:
// business_case, allocation_group, cancels and line_items.
func (r *Request) validateDetail(f *store.Fields, v *Sale) {
	saleCase := "Umsatz"
	if r.BusinessCase != nil {
		if !slices.Contains(BusinessCases, *r.BusinessCase) {
			f.Add("business_case", store.FOneOf, "must be a DSFinV-K GV_TYP: "+strings.Join(BusinessCases, ", "), "values", BusinessCases)
		} else {
			v.BusinessCase, saleCase = *r.BusinessCase, *r.BusinessCase
		}
	}
	if r.AllocationGroup != nil {
		g := *r.AllocationGroup
		if n := utf8.RuneCountInString(g); n < 1 || n > 50 || strings.TrimSpace(g) != g {
			f.Add("allocation_group", store.FBadFormat, "must be 1-50 characters without leading or trailing spaces (the table, DSFinV-K ABRECHNUNGSKREIS)")
		} else {
			v.AllocationGroup = g
		}
	}
	if r.Cancels != nil {
		if !store.ValidID(*r.Cancels) {
			f.Add("cancels", store.FNotUUID, "must be the id of a sale (a lowercase UUID)")
		} else {
			v.Cancels = *r.Cancels
		}
	}
	if len(r.LineItems) > maxLines {
		f.Add("line_items", store.FTooMany, fmt.Sprintf("must have at most %d lines", maxLines), "max", maxLines)
		return
	}
	for i, l := range r.LineItems {
		v.Lines = append(v.Lines, l.validate(f, fmt.Sprintf("line_items[%d]", i), saleCase, v.Cancels != ""))
	}
}

// validate reads one line item at field at; saleCase is the sale's
// GV_TYP, the line's unless it names its own or grants a discount. A
// storno's lines are the cancelled sale's negated, so its discount lines
// add to the total instead.
func (l LineItem) validate(f *store.Fields, at, saleCase string, storno bool) Line {
	line, ok := l.amounts(f, at)
	if l.ItemNumber != nil {
		if n := utf8.RuneCountInString(*l.ItemNumber); n < 1 || n > 50 {
			f.Add(at+".item_number", store.FLength, "must be 1-50 characters (DSFinV-K ART_NR)", "min", 1, "max", 50)
		} else {
			line.ItemNumber = *l.ItemNumber
		}
	}
	line.BusinessCase = saleCase
	if l.DiscountID != nil {
		if !store.ValidID(*l.DiscountID) {
			f.Add(at+".discount_id", store.FNotUUID, "must be the id of a discount (a lowercase UUID)")
		} else {
			line.DiscountID = *l.DiscountID
			line.BusinessCase = "Rabatt"
		}
	}
	if l.RedemptionID != nil {
		switch {
		case !store.ValidID(*l.RedemptionID):
			f.Add(at+".redemption_id", store.FNotUUID, "must be the id of a redemption (a lowercase UUID)")
		case l.DiscountID == nil:
			f.Add(at+".redemption_id", store.FRequiresField, "is given only together with discount_id: the line grants the redeemed discount", "field", "discount_id")
		default:
			line.RedemptionID = *l.RedemptionID
		}
	}
	if l.BusinessCase != nil {
		if !slices.Contains(BusinessCases, *l.BusinessCase) {
			f.Add(at+".business_case", store.FOneOf, "must be a DSFinV-K GV_TYP: "+strings.Join(BusinessCases, ", "), "values", BusinessCases)
		} else {
			line.BusinessCase = *l.BusinessCase
		}
	}
	if ok {
		var fits bool
		if line.TotalCents, fits = LineTotal(line.QuantityMilli, line.UnitPriceCents); !fits {
			// Both factors are within their limits but their product is not
			// a number of cents any till could mean.
			f.Add(at, store.FTooLarge, "quantity × unit_price is too large", "max", "9999999999999.99")
		} else if line.DiscountID != "" && !storno && line.TotalCents > 0 {
			f.Add(at, store.FDiscountAdds, "a discount line (with discount_id) must not add to the total: its quantity × unit_price must be 0 or less")
		} else if line.DiscountID != "" && storno && line.TotalCents < 0 {
			f.Add(at, store.FDiscountAdds, "a storno's discount line reverses the sale's: its quantity × unit_price must be 0 or more")
		}
	}
	return line
}

// amounts reads what a line's total is made of: text, quantity, unit
// price and VAT rate; ok says all four are good, so the total can be
// worked out.
func (l LineItem) amounts(f *store.Fields, at string) (line Line, ok bool) {
	ok = true
	if l.Text == nil {
		f.Add(at+".text", store.FRequired, "is required")
		ok = false
	} else if n := utf8.RuneCountInString(*l.Text); n < 1 || n > 255 || strings.TrimSpace(*l.Text) == "" {
		f.Add(at+".text", store.FLength, "must be 1-255 characters, not only spaces", "min", 1, "max", 255)
		ok = false
	} else {
		line.Text = *l.Text
	}
	if l.Quantity == nil {
		f.Add(at+".quantity", store.FRequired, "is required")
		ok = false
	} else if q, good := l.Quantity.milli(f, at+".quantity"); good {
		line.QuantityMilli = q
	} else {
		ok = false
	}
	if l.UnitPrice == nil {
		f.Add(at+".unit_price", store.FRequired, "is required")
		ok = false
	} else {
		n := len(*f)
		c := l.UnitPrice.Cents(f, at+".unit_price")
		if len(*f) > n {
			ok = false
		} else if c > maxUnitCents || c < -maxUnitCents {
			f.Add(at+".unit_price", store.FTooLarge, "must be at most 999999999.99 in size", "max", "999999999.99")
			ok = false
		}
		line.UnitPriceCents = c
	}
	if l.VATRate == nil {
		f.Add(at+".vat_rate", store.FRequired, "is required")
		ok = false
	} else if !slices.Contains(VATRates, *l.VATRate) {
		f.Add(at+".vat_rate", store.FOneOf, "must be one of "+strings.Join(VATRates, ", "), "values", VATRates)
		ok = false
	} else {
		line.VATRate = *l.VATRate
	}
	return line, ok
}
