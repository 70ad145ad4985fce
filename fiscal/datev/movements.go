package datev

import (
	"strings"
	"unicode"

	"posbox/store"
)

// movementKey is the account a cash movement (a cash book entry, its
// DSFinV-K GV_TYP) books against cash. Opening float, deposits and money
// to or from the bank or the safe pass the transit account, which the
// bank statement or the next counting clears. TrinkgeldAN is not here: a
// tip paid out nets with the tips received in the tips account.
var movementKey = map[string]string{
	"Anfangsbestand":   "transit",
	"Einzahlung":       "transit",
	"Geldtransit":      "transit",
	"Privateinlage":    "private_deposit",
	"Privatentnahme":   "private_withdrawal",
	"Lohnzahlung":      "wages",
	"Auszahlung":       "expenses",
	"DifferenzSollIst": "cash_difference",
}

// movementWords name a movement whose line has no text.
var movementWords = map[string]string{"Anfangsbestand": "Anfangsbestand", "Einzahlung": "Einzahlung",
	"Geldtransit": "Geldtransit", "Privateinlage": "Privateinlage", "Privatentnahme": "Privatentnahme",
	"Lohnzahlung": "Lohnzahlung", "Auszahlung": "Auszahlung", "DifferenzSollIst": "Kassendifferenz Soll/Ist"}

// isMovement tells a cash book entry's line from a sale's.
func isMovement(l store.TSESaleLine) bool {
	_, ok := movementKey[l.BusinessCase]
	return ok
}

// movementText is the booking's text: the line's own (what was paid,
// the receipt's number), on one line, or the movement's name.
func movementText(l store.TSESaleLine) string {
	t := strings.Join(strings.FieldsFunc(l.Text, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if t == "" {
		return movementWords[l.BusinessCase]
	}
	return t
}
