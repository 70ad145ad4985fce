package tse

import "time"

// Sale is a validated sale to sign: the terminal, the receipt in fiskaly's
// terms and its gross total in cents.
type Sale struct {
	ClientSerial string
	Receipt      Receipt
	TotalCents   int64
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
