package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"posbox/store"
	"posbox/tse"
)

// The kinds of a sale body: a receipt (the default, standard_v1.receipt)
// or an order for table service (standard_v1.order, Bestellung-V1).
const (
	kindReceipt = "receipt"
	kindOrder   = "order"
)

// tseLineItem is one line of a sale or an order.
type tseLineItem struct {
	Text         *string   `json:"text"`
	Quantity     *decimal2 `json:"quantity"`
	UnitPrice    *decimal2 `json:"unit_price"`
	VATRate      *string   `json:"vat_rate"`
	ItemNumber   *string   `json:"item_number"`
	DiscountID   *string   `json:"discount_id"`
	BusinessCase *string   `json:"business_case"`
}

// businessCases are the DSFinV-K GV_TYP values a sale or line may name.
var businessCases = []string{"Umsatz", "Pfand", "PfandRueckzahlung", "Rabatt", "Aufschlag", "ZuschussEcht", "ZuschussUnecht",
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
func (r *tseSaleRequest) validateDetail(f *store.Fields, v *tse.Sale) {
	saleCase := "Umsatz"
	if r.BusinessCase != nil {
		if !slices.Contains(businessCases, *r.BusinessCase) {
			f.Add("business_case", store.FOneOf, "must be a DSFinV-K GV_TYP: "+strings.Join(businessCases, ", "), "values", businessCases)
		} else {
			v.Detail.BusinessCase, saleCase = *r.BusinessCase, *r.BusinessCase
		}
	}
	if r.AllocationGroup != nil {
		g := *r.AllocationGroup
		if n := utf8.RuneCountInString(g); n < 1 || n > 50 || strings.TrimSpace(g) != g {
			f.Add("allocation_group", store.FBadFormat, "must be 1-50 characters without leading or trailing spaces (the table, DSFinV-K ABRECHNUNGSKREIS)")
		} else {
			v.Detail.AllocationGroup = g
		}
	}
	if r.Cancels != nil {
		if !store.ValidID(*r.Cancels) {
			f.Add("cancels", store.FNotUUID, "must be the id of a sale (a lowercase UUID)")
		} else {
			v.Detail.Cancels = *r.Cancels
		}
	}
	if len(r.LineItems) > maxLines {
		f.Add("line_items", store.FTooMany, fmt.Sprintf("must have at most %d lines", maxLines), "max", maxLines)
		return
	}
	for i, l := range r.LineItems {
		at := fmt.Sprintf("line_items[%d]", i)
		var line tse.SaleLine
		ok := true
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
			c := l.UnitPrice.cents(f, at+".unit_price")
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
		} else if !slices.Contains(vatRates, *l.VATRate) {
			f.Add(at+".vat_rate", store.FOneOf, "must be one of "+strings.Join(vatRates, ", "), "values", vatRates)
			ok = false
		} else {
			line.VATRate = *l.VATRate
		}
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
		if l.BusinessCase != nil {
			if !slices.Contains(businessCases, *l.BusinessCase) {
				f.Add(at+".business_case", store.FOneOf, "must be a DSFinV-K GV_TYP: "+strings.Join(businessCases, ", "), "values", businessCases)
			} else {
				line.BusinessCase = *l.BusinessCase
			}
		}
		if ok {
			line.TotalCents, _ = tse.LineTotal(line.QuantityMilli, line.UnitPriceCents)
			if line.DiscountID != "" && line.TotalCents > 0 {
				f.Add(at, store.FDiscountAdds, "a discount line (with discount_id) must not add to the total: its quantity × unit_price must be 0 or less")
			}
		}
		v.Detail.Lines = append(v.Detail.Lines, line)
	}
}

// validateOrder reads an order: line items are required, it has no
// payments and (unless it is given and agrees) its amounts per VAT rate
// are the lines' sums.
func (r *tseSaleRequest) validateOrder() (tse.Sale, error) {
	var f store.Fields
	var v tse.Sale
	if r.ClientSerial == nil {
		f.Add("client_serial", store.FRequired, "is required")
	} else if s := *r.ClientSerial; !clientSerialRE.MatchString(s) || strings.TrimSpace(s) != s {
		f.Add("client_serial", store.FBadFormat, "must be 1-70 characters of A-Z a-z 0-9 space ' ( ) + , - . : = ? (no / or _), without leading or trailing spaces")
	} else {
		v.ClientSerial = s
	}
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
	given := map[string]int64{}
	for i, l := range r.AmountsPerVATRate {
		at := fmt.Sprintf("amounts_per_vat_rate[%d]", i)
		if l.VATRate == nil || !slices.Contains(vatRates, *l.VATRate) {
			f.Add(at+".vat_rate", store.FOneOf, "must be one of "+strings.Join(vatRates, ", "), "values", vatRates)
			continue
		}
		if _, dup := given[*l.VATRate]; dup {
			f.Add(at+".vat_rate", store.FDuplicate, "appears twice; give one line per rate")
		}
		if l.Amount == nil {
			f.Add(at+".amount", store.FRequired, "is required")
			continue
		}
		given[*l.VATRate] = l.Amount.cents(&f, at+".amount")
	}
	if err := f.Err(); err != nil {
		return v, err
	}
	sums := lineSums(v.Detail.Lines)
	if len(r.AmountsPerVATRate) > 0 {
		var amounts []tse.AmountPerVATRate
		for rate, c := range given {
			amounts = append(amounts, tse.AmountPerVATRate{VATRate: rate, Amount: amountString(c)})
		}
		if err := linesMatch(v.Detail.Lines, amounts); err != nil {
			return v, err
		}
	}
	v.Receipt.ReceiptType = "ORDER"
	v.Order = &tse.Order{}
	for _, rate := range vatRates {
		if c, ok := sums[rate]; ok {
			v.Receipt.AmountsPerVATRate = append(v.Receipt.AmountsPerVATRate, tse.AmountPerVATRate{VATRate: rate, Amount: amountString(c)})
			v.TotalCents += c
		}
	}
	for _, l := range v.Detail.Lines {
		v.Order.LineItems = append(v.Order.LineItems, tse.OrderLineItem{Quantity: quantityString(l.QuantityMilli),
			Text: l.Text, PricePerUnit: amountString(l.UnitPriceCents)})
	}
	return v, nil
}

// lineSums is the lines' totals per VAT rate.
func lineSums(lines []tse.SaleLine) map[string]int64 {
	sums := map[string]int64{}
	for _, l := range lines {
		sums[l.VATRate] += l.TotalCents
	}
	return sums
}

// linesMatch is the rule that ties line items to the amounts: per VAT
// rate, the lines' totals (each quantity × unit price rounded to the
// cent) add up to that rate's amount exactly, and no rate has lines
// without an amount or an amount without lines.
func linesMatch(lines []tse.SaleLine, amounts []tse.AmountPerVATRate) error {
	sums := lineSums(lines)
	for _, a := range amounts {
		want := tse.Cents(a.Amount)
		got, ok := sums[a.VATRate]
		if !ok && want != 0 {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("no line has vat_rate %s, but its amount is %s", a.VATRate, a.Amount))
		}
		if got != want {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("the lines at %s add up to %s, but its amount is %s", a.VATRate, amountString(got), a.Amount))
		}
		delete(sums, a.VATRate)
	}
	for _, rate := range vatRates {
		if c, ok := sums[rate]; ok {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("the lines at %s add up to %s, but amounts_per_vat_rate has no line for it", rate, amountString(c)))
		}
	}
	return nil
}

// milli reads a quantity with at most three decimals (DSFinV-K MENGE) in
// thousandths; zero is refused.
func (d decimal2) milli(f *store.Fields, field string) (int64, bool) {
	s := string(d)
	if strings.ContainsAny(s, "eE") {
		f.Add(field, store.FNotDecimal, "must be a plain decimal number such as 2 or 0.5")
		return 0, false
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 3 {
		f.Add(field, store.FTooManyDecimals, "must have at most 3 decimal places", "places", 3)
		return 0, false
	}
	frac += strings.Repeat("0", 3-len(frac))
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || v > maxQuantityMilli {
		f.Add(field, store.FTooLarge, "must be at most 99999.999 in size", "max", "99999.999")
		return 0, false
	}
	if v == 0 {
		f.Add(field, store.FZero, "must not be 0")
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// quantityString writes thousandths as fiskaly's quantity: "2", "0.5".
func quantityString(m int64) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	s := sign + strconv.FormatInt(m/1000, 10)
	if frac := m % 1000; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%03d", frac), "0")
	}
	return s
}
