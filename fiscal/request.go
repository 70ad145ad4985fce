package fiscal

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"posbox/store"
)

// Request is a sale as the till sends it (POST /api/tse/transactions):
// fiskaly's standard_v1 receipt with amounts as JSON numbers, and
// optionally what the DSFinV-K needs besides (line items, business case,
// table, the sale it cancels) or an order for table service (kind
// "order"). A nil member was absent. Validate turns it into a Sale.
type Request struct {
	ClientSerial          *string       `json:"client_serial"`
	Kind                  *string       `json:"kind"`
	ReceiptType           *string       `json:"receipt_type"`
	AmountsPerVATRate     []VATLine     `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []PaymentLine `json:"amounts_per_payment_type"`
	LineItems             []LineItem    `json:"line_items"`
	BusinessCase          *string       `json:"business_case"`
	AllocationGroup       *string       `json:"allocation_group"`
	Cancels               *string       `json:"cancels"`
	// OperatorID is who sold when the till is not that user (a till
	// account selling for a waiter): a user id the server checks. It is
	// not part of the idempotency hash, as the operator never was.
	OperatorID *string `json:"operator_id"`
}

// VATLine is one member of amounts_per_vat_rate.
type VATLine struct {
	VATRate *string  `json:"vat_rate"`
	Amount  *Decimal `json:"amount"`
}

// PaymentLine is one member of amounts_per_payment_type. AmountEUR is
// posbox's own member, never sent to fiskaly: a foreign amount's euro
// value (DSFinV-K BASISWAEH_BETRAG).
type PaymentLine struct {
	PaymentType  *string  `json:"payment_type"`
	Amount       *Decimal `json:"amount"`
	CurrencyCode *string  `json:"currency_code"`
	AmountEUR    *Decimal `json:"amount_eur"`
}

// LineItem is one line of a sale or an order.
type LineItem struct {
	Text         *string  `json:"text"`
	Quantity     *Decimal `json:"quantity"`
	UnitPrice    *Decimal `json:"unit_price"`
	VATRate      *string  `json:"vat_rate"`
	ItemNumber   *string  `json:"item_number"`
	DiscountID   *string  `json:"discount_id"`
	BusinessCase *string  `json:"business_case"`
	// RedemptionID books a redemption of the line's discount on the sale
	// (docs/API.md, "Booking a redemption on the sale").
	RedemptionID *string `json:"redemption_id"`
}

// Decimal is a JSON number kept as its literal, so no binary float ever
// touches money; Cents and milli turn it into exact integers. The server
// reads every amount of the API with it (sales, discounts, redemptions).
type Decimal string

// UnmarshalJSON accepts only a JSON number; anything else is a type error
// that names the field (422).
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return &json.UnmarshalTypeError{Value: "non-number", Type: reflect.TypeFor[float64]()}
	}
	*d = Decimal(s)
	return nil
}

// Cents reads an amount with at most two decimals in hundredths (cents,
// or hundredths of a percent); more decimals, an exponent or an overflow
// are field errors (0 then).
func (d Decimal) Cents(f *store.Fields, field string) int64 {
	v, broken := scaled(string(d), 2)
	switch {
	case broken == store.FNotDecimal:
		// 1e2 is valid JSON, but tills send plain decimals and one plain
		// rule is easier to document than exponent arithmetic.
		f.Add(field, store.FNotDecimal, "must be a plain decimal number such as 12.5")
	case broken == store.FTooManyDecimals:
		f.Add(field, store.FTooManyDecimals, "must have at most 2 decimal places", "places", 2)
	case broken == store.FTooLarge || v > maxCents || v < -maxCents:
		f.Add(field, store.FTooLarge, "is too large", "max", "9999999999999.99")
	default:
		return v
	}
	return 0
}

// maxCents is 9999999999999.99: thirteen digits before the point.
const maxCents = 999_999_999_999_999

// milli reads a quantity with at most three decimals (DSFinV-K MENGE) in
// thousandths; zero is refused.
func (d Decimal) milli(f *store.Fields, field string) (int64, bool) {
	v, broken := scaled(string(d), 3)
	switch {
	case broken == store.FNotDecimal:
		f.Add(field, store.FNotDecimal, "must be a plain decimal number such as 2 or 0.5")
	case broken == store.FTooManyDecimals:
		f.Add(field, store.FTooManyDecimals, "must have at most 3 decimal places", "places", 3)
	case broken == store.FTooLarge || v > maxQuantityMilli || v < -maxQuantityMilli:
		f.Add(field, store.FTooLarge, "must be at most 99999.999 in size", "max", "99999.999")
	case v == 0:
		f.Add(field, store.FZero, "must not be 0")
	default:
		return v, true
	}
	return 0, false
}

// Milli is milli for the other readers of quantities (a basket the till
// asks to price): the same literal rules and bounds as a sale's lines.
func (d Decimal) Milli(f *store.Fields, field string) (int64, bool) { return d.milli(f, field) }

// scaled reads a JSON number's literal with at most places decimals as
// an integer of 10^-places units, or names the first rule it breaks: an
// exponent (FNotDecimal), more decimals (FTooManyDecimals), more digits
// than an int64 holds (FTooLarge). Amounts and quantities differ only in
// places, bounds and wording.
func scaled(s string, places int) (int64, store.FieldCode) {
	if strings.ContainsAny(s, "eE") {
		return 0, store.FNotDecimal
	}
	neg := strings.HasPrefix(s, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > places {
		return 0, store.FTooManyDecimals
	}
	v, err := strconv.ParseInt(whole+frac+strings.Repeat("0", places-len(frac)), 10, 64)
	if err != nil {
		return 0, store.FTooLarge
	}
	if neg {
		v = -v
	}
	return v, store.FieldCode{}
}
