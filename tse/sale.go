package tse

import "time"

// Sale is a sale in fiskaly's standard_v1 terms, the content of its
// finishing revision (FinishBody): the receipt with its amounts as
// decimal strings, or, when Order is set, the order for table service,
// signed as standard_v1.order (processType Bestellung-V1) instead of the
// receipt. The fiscal domain's sale (package fiscal) carries cents; its
// queue (fiscal/queue) makes this form where the provider is called.
type Sale struct {
	Receipt Receipt
	Order   *Order
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
