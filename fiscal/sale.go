package fiscal

import (
	"fmt"
	"strconv"
	"strings"

	"posbox/store"
)

// The kinds of a sale: a receipt (the default, fiskaly's
// standard_v1.receipt) or an order for table service (standard_v1.order,
// Bestellung-V1).
const (
	KindReceipt = "receipt"
	KindOrder   = "order"
)

// Sale is a validated sale: what the till sold, in cents and thousandths,
// ready for the queue (package fiscal/queue) to record and sign. Amounts
// never travel as strings here; fiskaly's decimal strings are made where
// the provider is called.
type Sale struct {
	ClientSerial string // the till (fiskaly's client serial number)
	Kind         string // KindReceipt or KindOrder
	// ReceiptType is fiskaly's receipt_type (RECEIPT, TRAINING, ...);
	// ORDER for an order.
	ReceiptType string
	// VAT is the gross amount per rate: a receipt's as sent, in the
	// request's order; an order's are its lines' sums, in VATRates order.
	VAT []VATAmount
	// Payments are a receipt's, as sent; an order has none (a later
	// receipt pays it).
	Payments   []Payment
	TotalCents int64 // the VAT amounts' sum: the gross total

	// What the DSFinV-K needs beyond the signed amounts.
	BusinessCase    string // the sale's GV_TYP as sent, "" when absent (Umsatz)
	AllocationGroup string // the table (ABRECHNUNGSKREIS), "" for none
	Cancels         string // tx id of the sale this storno reverses, "" for none
	Lines           []Line // nil when the till sent none
	// Operator is who sold (DSFinV-K BEDIENER_ID/_NAME). It is not part
	// of the request: a retry by another user is the same sale.
	OperatorID, OperatorName string
	// CashMovement and CashCount: the sale is a cash movement's receipt
	// or books a count's difference (fiscal/cashbook); nil for a sale.
	CashMovement *store.NewCashMovement
	CashCount    *store.NewCashCount
}

// VATAmount is the gross amount at one VAT rate.
type VATAmount struct {
	VATRate string // one of VATRates
	Cents   int64
}

// Payment is an amount paid with one payment type.
type Payment struct {
	PaymentType  string // CASH or NON_CASH
	CurrencyCode string // ISO 4217 as sent, "" when absent (EUR)
	Cents        int64  // in the currency
	EURCents     int64  // the euro value: Cents for EUR, amount_eur for a foreign currency
}

// Foreign reports whether the payment is in a currency other than EUR.
func (p Payment) Foreign() bool { return p.CurrencyCode != "" && p.CurrencyCode != "EUR" }

// Line is one line item. TotalCents is LineTotal(QuantityMilli,
// UnitPriceCents). The fields' names and order are part of the
// idempotency hash of a sale with lines (fiscal/queue's wire.go).
type Line struct {
	Text           string
	QuantityMilli  int64
	UnitPriceCents int64
	TotalCents     int64
	VATRate        string
	ItemNumber     string // "" for none
	DiscountID     string // the discount this line grants, "" for none
	BusinessCase   string // GV_TYP: Umsatz, Rabatt, ...
	RedemptionID   string // the redemption this discount line books, "" for none
}

// LineTotal is quantity (thousandths) × unit price (cents) in cents,
// rounded half away from zero; ok is false on overflow.
func LineTotal(quantityMilli, unitCents int64) (int64, bool) {
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

// lineSums is the lines' totals per VAT rate.
func lineSums(lines []Line) map[string]int64 {
	sums := map[string]int64{}
	for _, l := range lines {
		sums[l.VATRate] += l.TotalCents
	}
	return sums
}

// Amount renders cents as a decimal with two places, as fiskaly's amounts
// and the API's messages write them: "21.42", "-0.50".
func Amount(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// Quantity renders thousandths as the shortest decimal, as fiskaly's
// order quantity and the API's line items write it: "2", "0.5".
func Quantity(m int64) string {
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
