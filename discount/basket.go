package discount

import (
	"fmt"
	"slices"
	"strings"

	"posbox/store"
)

// VATRates are the rate names a basket line may carry: fiskaly's, the
// same list as fiscal.VATRates (a test holds them equal), in the order
// per-rate sums are reported.
var VATRates = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}

// Bounds of a basket: fiscal's for a sale's line items, so any basket a
// till can sell can be priced, and the sum of 500 lines fits in int64.
const (
	MaxLines         = 500
	MaxQuantityMilli = 99_999_999     // 99999.999
	MaxUnitCents     = 99_999_999_999 // 999,999,999.99
)

// Line is one line of a basket: what the till would sell, before any
// discount. Item and category are the POS menu's ids; either may be
// empty, and then no item or category discount reaches the line.
type Line struct {
	ItemID         string
	CategoryID     string
	QuantityMilli  int64 // thousandths: 1.5 kg is 1500
	UnitPriceCents int64
	VATRate        string // one of VATRates
}

// Basket is the order a till asks about. Only lines that may take a
// discount belong in it: deposits and vouchers stay out, as they stay
// out of eligible_amount when a discount is redeemed.
type Basket struct {
	Lines []Line
}

// LineTotal is quantity × unit price rounded half away from zero to the
// cent, exactly as fiscal.LineTotal rounds a sale's line item (a test
// compares the two), so a discount split here lands on the same line
// totals the DSFinV-K export shows. ok is false when the product does
// not fit in int64.
func LineTotal(quantityMilli, unitCents int64) (cents int64, ok bool) {
	p := quantityMilli * unitCents
	if quantityMilli != 0 && (p/quantityMilli != unitCents || (quantityMilli == -1 && unitCents < -1<<62)) {
		return 0, false
	}
	neg := p < 0
	if neg {
		p = -p
	}
	c := (p + 500) / 1000
	if neg {
		c = -c
	}
	return c, true
}

// Validate checks the basket as a till sends it; the field names are the
// evaluation body's (lines[i].quantity, ...). Quantities are positive and
// prices not negative: a discount takes nothing off a return.
func (b Basket) Validate() error {
	var f store.Fields
	switch {
	case len(b.Lines) == 0:
		f.Add("lines", store.FTooFew, "must have at least 1 line", "min", 1)
	case len(b.Lines) > MaxLines:
		f.Add("lines", store.FTooMany, fmt.Sprintf("must have at most %d lines", MaxLines), "max", MaxLines)
	}
	if len(b.Lines) > MaxLines {
		return f.Err()
	}
	for i, l := range b.Lines {
		l.validate(&f, fmt.Sprintf("lines[%d]", i))
	}
	return f.Err()
}

// validate checks one line at field at.
func (l Line) validate(f *store.Fields, at string) {
	if l.ItemID != "" && !store.ValidID(l.ItemID) {
		f.Add(at+".item_id", store.FNotUUID, "must be the id of a menu item (a lowercase UUID)")
	}
	if l.CategoryID != "" && !store.ValidID(l.CategoryID) {
		f.Add(at+".category_id", store.FNotUUID, "must be the id of a menu category (a lowercase UUID)")
	}
	switch {
	case l.QuantityMilli <= 0:
		f.Add(at+".quantity", store.FNotPositive, "must be greater than 0")
	case l.QuantityMilli > MaxQuantityMilli:
		f.Add(at+".quantity", store.FTooLarge, "must be at most 99999.999", "max", "99999.999")
	}
	switch {
	case l.UnitPriceCents < 0:
		f.Add(at+".unit_price", store.FTooSmall, "must be 0 or more", "min", 0)
	case l.UnitPriceCents > MaxUnitCents:
		f.Add(at+".unit_price", store.FTooLarge, "must be at most 999999999.99", "max", "999999999.99")
	}
	if !slices.Contains(VATRates, l.VATRate) {
		f.Add(at+".vat_rate", store.FOneOf, "must be one of "+strings.Join(VATRates, ", "), "values", VATRates)
	}
	if l.QuantityMilli > 0 && l.QuantityMilli <= MaxQuantityMilli && l.UnitPriceCents >= 0 && l.UnitPriceCents <= MaxUnitCents {
		if _, ok := LineTotal(l.QuantityMilli, l.UnitPriceCents); !ok {
			// Both factors are within their limits, their product is not.
			f.Add(at, store.FTooLarge, "quantity × unit_price is too large", "max", "9999999999999.99")
		}
	}
}

// Totals are the lines' totals (LineTotal) in basket order and their
// sum, the order total a minimum order is compared with. The basket must
// be valid (Validate): then every product fits, and so does the sum of
// 500 of them.
func (b Basket) Totals() (lines []int64, order int64) {
	lines = make([]int64, len(b.Lines))
	for i, l := range b.Lines {
		lines[i], _ = LineTotal(l.QuantityMilli, l.UnitPriceCents)
		order += lines[i]
	}
	return lines, order
}
