package cashbook

// Kind is one kind of cash movement.
type Kind struct {
	Name         string // the API's
	BusinessCase string // DSFinV-K GV_TYP
	Sign         int64  // +1 into the drawer, −1 out of it; 0: either (a count's difference)
	Label        string // German, as the receipt's line and the console name it
	StaffMay     bool   // staff may book it (else admins only)
	NeedsReason  bool
	NeedsVoucher bool
	// ForPerson: the movement is one person's (a waiter's float, a tip
	// paid out to them) and counts in their settlement (settlement.go).
	ForPerson bool
}

// Kinds are the movements posbox books, in the console's order. Staff
// book what a shift needs: the float they start with and card tips paid
// out in cash; everything else moves the owner's money and is an admin's
// (docs/CASHDESK.md, "Who books what").
var Kinds = []Kind{
	{"opening_float", "Anfangsbestand", +1, "Anfangsbestand (Wechselgeld)", true, false, false, true},
	{"tip_payout", "TrinkgeldAN", -1, "Trinkgeld-Auszahlung an Personal", true, false, false, true},
	{"transfer_out", "Geldtransit", -1, "Geldtransit an Bank oder Tresor", false, false, false, false},
	{"transfer_in", "Geldtransit", +1, "Geldtransit aus Bank oder Tresor", false, false, false, false},
	{"deposit", "Einzahlung", +1, "Einzahlung", false, false, false, false},
	{"private_deposit", "Privateinlage", +1, "Privateinlage", false, false, false, false},
	{"private_withdrawal", "Privatentnahme", -1, "Privatentnahme", false, false, false, false},
	{"wage", "Lohnzahlung", -1, "Lohnzahlung", false, true, false, false},
	{"expense", "Auszahlung", -1, "Auszahlung (Ausgabe)", false, true, true, false},
	{"difference", "DifferenzSollIst", 0, "Kassendifferenz", false, false, false, false},
}

// KindOf is a kind by its API name.
func KindOf(name string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Bookable are the kinds a movement may be booked as (a difference is
// booked by a count only).
func Bookable() []string {
	var out []string
	for _, k := range Kinds {
		if k.Sign != 0 {
			out = append(out, k.Name)
		}
	}
	return out
}
