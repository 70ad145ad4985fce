package fiscal

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"posbox/store"
)

// fiskaly's client serial rule minus "/" and "_" (DSFinV-K): 1-70 chars.
var clientSerialRE = regexp.MustCompile(`^[A-Za-z0-9 '()+,\-.:=?]{1,70}$`)
var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// The values the request's enumerations take.
var (
	ReceiptTypes = []string{"RECEIPT", "TRAINING", "TRANSFER", "ORDER", "CANCELLATION", "ABORT", "BENEFIT_IN_KIND", "INVOICE", "OTHER"}
	VATRates     = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}
	PaymentTypes = []string{"CASH", "NON_CASH"}
)

// ValidClientSerial says whether s is a till's serial as a sale may name
// it: 1-70 characters of fiskaly's set without "/" and "_", no leading or
// trailing spaces.
func ValidClientSerial(s string) bool {
	return clientSerialRE.MatchString(s) && strings.TrimSpace(s) == s
}

// Validate checks every field of a request and names each bad one, as
// store field errors (the API's 422 validation_failed); a valid request
// is the Sale.
func (r *Request) Validate() (Sale, error) {
	if r.Kind != nil && *r.Kind == KindOrder {
		return r.validateOrder()
	}
	var f store.Fields
	v := Sale{Kind: KindReceipt}
	if r.Kind != nil && *r.Kind != KindReceipt {
		f.Add("kind", store.FOneOf, "must be receipt or order", "values", []string{KindReceipt, KindOrder})
	}
	r.validateDetail(&f, &v)
	v.ClientSerial = clientSerial(&f, r.ClientSerial)
	r.validateReceiptType(&f, &v)
	r.validateVAT(&f, &v)
	paid, allEUR := r.validatePayments(&f, &v)
	if err := f.Err(); err != nil {
		return v, err
	}
	// Payments in a foreign currency cannot be compared with the EUR
	// gross; then the rule is skipped (documented in docs/API.md).
	if allEUR && paid != v.TotalCents {
		return v, store.Invalid("amounts_per_payment_type", store.FSumMismatch, fmt.Sprintf("payments add up to %s but the VAT lines to %s",
			Amount(paid), Amount(v.TotalCents)))
	}
	if len(v.Lines) > 0 {
		if err := linesMatch(v.Lines, v.VAT); err != nil {
			return v, err
		}
	}
	return v, nil
}

// clientSerial reads client_serial, which a receipt and an order share.
func clientSerial(f *store.Fields, s *string) string {
	switch {
	case s == nil:
		f.Add("client_serial", store.FRequired, "is required")
	case !ValidClientSerial(*s):
		f.Add("client_serial", store.FBadFormat, "must be 1-70 characters of A-Z a-z 0-9 space ' ( ) + , - . : = ? (no / or _), without leading or trailing spaces")
	default:
		return *s
	}
	return ""
}

// validateReceiptType reads receipt_type and the storno rule on it.
func (r *Request) validateReceiptType(f *store.Fields, v *Sale) {
	switch {
	case r.ReceiptType == nil:
		f.Add("receipt_type", store.FRequired, "is required")
	case !slices.Contains(ReceiptTypes, *r.ReceiptType):
		f.Add("receipt_type", store.FOneOf, "must be one of "+strings.Join(ReceiptTypes, ", "), "values", ReceiptTypes)
	default:
		v.ReceiptType = *r.ReceiptType
		// A storno moves money back, so it is a receipt of the type of
		// the sale it reverses; CANCELLATION and ABORT are aborted
		// transactions (AVBelegabbruch), which reverse nothing.
		if r.Cancels != nil && !slices.Contains(store.ClosingCountedTypes, *r.ReceiptType) {
			f.Add("receipt_type", store.FOneOf, "a storno (with cancels) must be a RECEIPT with the sale's amounts negated; "+
				*r.ReceiptType+" records an aborted or moneyless transaction and cancels no sale", "values", store.ClosingCountedTypes)
		}
	}
}

// validateVAT reads a receipt's amounts_per_vat_rate: one line per rate,
// at least one; their sum is the total.
func (r *Request) validateVAT(f *store.Fields, v *Sale) {
	if len(r.AmountsPerVATRate) == 0 {
		f.Add("amounts_per_vat_rate", store.FTooFew, "must have at least one line", "min", 1)
	}
	seen := map[string]bool{}
	for i, l := range r.AmountsPerVATRate {
		field := fmt.Sprintf("amounts_per_vat_rate[%d]", i)
		switch {
		case l.VATRate == nil:
			f.Add(field+".vat_rate", store.FRequired, "is required")
		case !slices.Contains(VATRates, *l.VATRate):
			f.Add(field+".vat_rate", store.FOneOf, "must be one of "+strings.Join(VATRates, ", "), "values", VATRates)
		case seen[*l.VATRate]:
			f.Add(field+".vat_rate", store.FDuplicate, "appears twice; give one line per rate")
		default:
			seen[*l.VATRate] = true
		}
		if l.Amount == nil {
			f.Add(field+".amount", store.FRequired, "is required")
			continue
		}
		c := l.Amount.Cents(f, field+".amount")
		v.TotalCents += c
		if l.VATRate != nil {
			v.VAT = append(v.VAT, VATAmount{VATRate: *l.VATRate, Cents: c})
		}
	}
}

// validatePayments reads a receipt's amounts_per_payment_type: what was
// paid in all, and whether all of it in EUR.
func (r *Request) validatePayments(f *store.Fields, v *Sale) (paid int64, allEUR bool) {
	if len(r.AmountsPerPaymentType) == 0 {
		f.Add("amounts_per_payment_type", store.FTooFew, "must have at least one line", "min", 1)
	}
	allEUR = true
	for i, l := range r.AmountsPerPaymentType {
		field := fmt.Sprintf("amounts_per_payment_type[%d]", i)
		if l.PaymentType == nil {
			f.Add(field+".payment_type", store.FRequired, "is required")
		} else if !slices.Contains(PaymentTypes, *l.PaymentType) {
			f.Add(field+".payment_type", store.FOneOf, "must be one of "+strings.Join(PaymentTypes, ", "), "values", PaymentTypes)
		}
		cur := ""
		if l.CurrencyCode != nil {
			if !currencyRE.MatchString(*l.CurrencyCode) {
				f.Add(field+".currency_code", store.FNotCurrency, "must be an ISO 4217 code such as EUR")
			}
			cur = *l.CurrencyCode
		}
		if cur != "" && cur != "EUR" {
			allEUR = false
		}
		if l.Amount == nil {
			f.Add(field+".amount", store.FRequired, "is required")
			continue
		}
		c := l.Amount.Cents(f, field+".amount")
		paid += c
		if l.PaymentType != nil {
			v.Payments = append(v.Payments, Payment{PaymentType: *l.PaymentType, CurrencyCode: cur, Cents: c})
		}
	}
	return paid, allEUR
}

// linesMatch is the rule that ties line items to the amounts: per VAT
// rate, the lines' totals (each quantity × unit price rounded to the
// cent) add up to that rate's amount exactly, and no rate has lines
// without an amount or an amount without lines.
func linesMatch(lines []Line, amounts []VATAmount) error {
	sums := lineSums(lines)
	for _, a := range amounts {
		got, ok := sums[a.VATRate]
		if !ok && a.Cents != 0 {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("no line has vat_rate %s, but its amount is %s", a.VATRate, Amount(a.Cents)))
		}
		if got != a.Cents {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("the lines at %s add up to %s, but its amount is %s", a.VATRate, Amount(got), Amount(a.Cents)))
		}
		delete(sums, a.VATRate)
	}
	for _, rate := range VATRates {
		if c, ok := sums[rate]; ok {
			return store.Invalid("line_items", store.FSumMismatch, fmt.Sprintf("the lines at %s add up to %s, but amounts_per_vat_rate has no line for it", rate, Amount(c)))
		}
	}
	return nil
}
