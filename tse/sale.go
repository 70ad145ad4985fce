package tse

import "time"

// Sale is a validated sale to sign: the terminal, the receipt in fiskaly's
// terms and its gross total in cents.
type Sale struct {
	ClientSerial string
	Receipt      Receipt
	TotalCents   int64
	// Order, when set, makes the sale an order for table service, signed
	// as standard_v1.order (processType Bestellung-V1) instead of the
	// receipt; Receipt.ReceiptType is then ORDER and its amounts are the
	// lines' sums.
	Order *Order
	// Detail is what the DSFinV-K export needs beyond what is signed.
	Detail SaleDetail
}

// SaleDetail is a sale's business data for the DSFinV-K beyond its
// amounts (those are the receipt's): the business case (GV_TYP), the
// table (ABRECHNUNGSKREIS), the sale it cancels and the line items.
type SaleDetail struct {
	BusinessCase    string // DSFinV-K GV_TYP of the sale, default Umsatz
	AllocationGroup string // "" for none
	Cancels         string // tx id of the sale this one cancels, "" for none
	Lines           []SaleLine
	// Operator is who sold (DSFinV-K BEDIENER_ID/_NAME). It is not part
	// of the request: a retry by another user is the same sale.
	OperatorID   string `json:"-"`
	OperatorName string `json:"-"`
}

// Cents reads an amount as UpsertBody sends it ("21.42", "-0.50") in
// cents; amounts with more than two decimals are cut.
func Cents(amount string) int64 { return parseAmount(amount) / 1000 }

// SaleLine is one line item. TotalCents is QuantityMilli × UnitPriceCents
// / 1000, rounded half away from zero.
type SaleLine struct {
	Text           string
	QuantityMilli  int64
	UnitPriceCents int64
	TotalCents     int64
	VATRate        string
	ItemNumber     string // "" for none
	DiscountID     string // the discount this line grants, "" for none
	BusinessCase   string // GV_TYP: Umsatz, Rabatt, ...
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

// The API's TSS states besides TSSInitialized.
const (
	StateDisabled       = "DISABLED"
	StateDecommissioned = "DECOMMISSIONED"
)

// PublicState maps the provider's state to the API's three values
// (docs/API.md, "GET /api/tse/info"). An expired certificate can never
// sign again (fiskaly answers E_CERTIFICATE_EXPIRED and a new TSS is
// needed), so it counts as DECOMMISSIONED even while the raw state is
// INITIALIZED.
func PublicState(raw string, certNotAfter, now time.Time) string {
	switch raw {
	case TSSInitialized:
		if !certNotAfter.IsZero() && !certNotAfter.After(now) {
			return StateDecommissioned
		}
		return TSSInitialized
	case TSSCreated, TSSUninitialized:
		return StateDisabled
	}
	return StateDecommissioned
}

// DaysUntil is whole days from now to t, rounded down (negative once past).
func DaysUntil(t, now time.Time) int {
	d := t.Sub(now)
	days := int(d / (24 * time.Hour))
	if d < 0 && d%(24*time.Hour) != 0 {
		days--
	}
	return days
}
