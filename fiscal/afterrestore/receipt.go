package afterrestore

import (
	"regexp"
	"strings"

	"posbox/store"
	"posbox/tse"
)

// vatRates are the five gross amounts of a Kassenbeleg-V1's processData,
// in its order: 19 %, 7 %, 10.7 %, 5.5 %, 0 % (tse/processdata.go).
var vatRates = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}

// amountRe is an amount as processData writes it.
var amountRe = regexp.MustCompile(`^-?\d+\.\d{2,5}$`)

// receipt reads what a Kassenbeleg-V1 said: its BON_TYP, the gross
// amount of each rate it used and the amounts per payment type
// ("Beleg^21.42_0.00_0.00_0.00_0.00^21.42:Bar"). Anything else (an order,
// processData of another form) gives nothing; the raw text stays on the
// list for the owner.
func receipt(processType, processData string) (kind string, vat []store.TSEMissingVAT, pay []store.TSEMissingPayment) {
	vat, pay = []store.TSEMissingVAT{}, []store.TSEMissingPayment{}
	parts := strings.Split(processData, "^")
	if processType != tse.ProcessTypeReceipt || len(parts) != 3 || parts[0] == "" {
		return "", vat, pay
	}
	amounts := strings.Split(parts[1], "_")
	if len(amounts) != len(vatRates) {
		return "", vat, pay
	}
	for i, a := range amounts {
		if !amountRe.MatchString(a) {
			return "", []store.TSEMissingVAT{}, pay
		}
		if strings.Trim(a, "-0.") != "" {
			vat = append(vat, store.TSEMissingVAT{VATRate: vatRates[i], Amount: a})
		}
	}
	if parts[2] != "" {
		for p := range strings.SplitSeq(parts[2], "_") {
			f := strings.Split(p, ":")
			if len(f) < 2 || len(f) > 3 || !amountRe.MatchString(f[0]) || (f[1] != "Bar" && f[1] != "Unbar") {
				return "", []store.TSEMissingVAT{}, []store.TSEMissingPayment{}
			}
			m := store.TSEMissingPayment{PaymentType: "CASH", Amount: f[0], CurrencyCode: "EUR"}
			if f[1] == "Unbar" {
				m.PaymentType = "NON_CASH"
			}
			if len(f) == 3 {
				m.CurrencyCode = f[2]
			}
			pay = append(pay, m)
		}
	}
	return parts[0], vat, pay
}
