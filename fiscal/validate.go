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
	paid := r.validatePayments(&f, &v)
	if err := f.Err(); err != nil {
		return v, err
	}
	// The payments' euro values (a foreign payment's amount_eur) add up to
	// the gross, which is in euro (docs/API.md).
	if paid != v.TotalCents {
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

// validatePayments reads a receipt's amounts_per_payment_type: the euro
// value of what was paid in all.
func (r *Request) validatePayments(f *store.Fields, v *Sale) (paidEUR int64) {
	if len(r.AmountsPerPaymentType) == 0 {
		f.Add("amounts_per_payment_type", store.FTooFew, "must have at least one line", "min", 1)
	}
	for i, l := range r.AmountsPerPaymentType {
		field := fmt.Sprintf("amounts_per_payment_type[%d]", i)
		if l.PaymentType == nil {
			f.Add(field+".payment_type", store.FRequired, "is required")
		} else if !slices.Contains(PaymentTypes, *l.PaymentType) {
			f.Add(field+".payment_type", store.FOneOf, "must be one of "+strings.Join(PaymentTypes, ", "), "values", PaymentTypes)
		}
		p := Payment{}
		if l.CurrencyCode != nil {
			if !currencyRE.MatchString(*l.CurrencyCode) {
				f.Add(field+".currency_code", store.FNotCurrency, "must be an ISO 4217 code such as EUR")
			}
			p.CurrencyCode = *l.CurrencyCode
		}
		amountOK := false
		if l.Amount == nil {
			f.Add(field+".amount", store.FRequired, "is required")
		} else {
			before := len(*f)
			p.Cents = l.Amount.Cents(f, field+".amount")
			amountOK = len(*f) == before
		}
		p.EURCents = euroValue(f, field, l, p, amountOK)
		paidEUR += p.EURCents
		if l.PaymentType != nil && l.Amount != nil {
			p.PaymentType = *l.PaymentType
			v.Payments = append(v.Payments, p)
		}
	}
	return paidEUR
}

// euroValue reads a payment's amount_eur: required for a foreign
// currency, with the amount's sign (0 only for 0), and absent for EUR,
// whose amount is its euro value.
func euroValue(f *store.Fields, field string, l PaymentLine, p Payment, amountOK bool) int64 {
	at := field + ".amount_eur"
	if !currencyRE.MatchString(p.CurrencyCode) && p.CurrencyCode != "" {
		return 0 // the currency is refused already
	}
	if !p.Foreign() {
		if l.AmountEUR != nil {
			f.Add(at, store.FNotAllowed, "must be absent for a payment in EUR: its amount is the euro value")
		}
		return p.Cents
	}
	if l.AmountEUR == nil {
		f.Add(at, store.FRequired, "is required for a payment in "+p.CurrencyCode+": the euro value of amount, as the receipt shows it")
		return 0
	}
	before := len(*f)
	eur := l.AmountEUR.Cents(f, at)
	if len(*f) == before && amountOK && sign(eur) != sign(p.Cents) {
		f.Add(at, store.FSignOfField, "must have the sign of amount (0 only when amount is 0)", "field", field+".amount")
	}
	return eur
}

func sign(c int64) int {
	switch {
	case c > 0:
		return 1
	case c < 0:
		return -1
	}
	return 0
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
