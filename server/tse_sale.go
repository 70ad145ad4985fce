package server

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"posbox/store"
	"posbox/tse"
)

// tseSaleRequest is POST /api/tse/transactions: fiskaly's standard_v1
// receipt with amounts as JSON numbers, and optionally what the DSFinV-K
// needs besides (line items, business case, table, the sale it cancels)
// or an order for table service (kind "order").
type tseSaleRequest struct {
	ClientSerial          *string         `json:"client_serial"`
	Kind                  *string         `json:"kind"`
	ReceiptType           *string         `json:"receipt_type"`
	AmountsPerVATRate     []tseVATLine    `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []tsePaymentRow `json:"amounts_per_payment_type"`
	LineItems             []tseLineItem   `json:"line_items"`
	BusinessCase          *string         `json:"business_case"`
	AllocationGroup       *string         `json:"allocation_group"`
	Cancels               *string         `json:"cancels"`
}

type tseVATLine struct {
	VATRate *string   `json:"vat_rate"`
	Amount  *decimal2 `json:"amount"`
}

type tsePaymentRow struct {
	PaymentType  *string   `json:"payment_type"`
	Amount       *decimal2 `json:"amount"`
	CurrencyCode *string   `json:"currency_code"`
}

// fiskaly's client serial rule minus "/" and "_" (DSFinV-K): 1-70 chars.
var clientSerialRE = regexp.MustCompile(`^[A-Za-z0-9 '()+,\-.:=?]{1,70}$`)
var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

var (
	receiptTypes = []string{"RECEIPT", "TRAINING", "TRANSFER", "ORDER", "CANCELLATION", "ABORT", "BENEFIT_IN_KIND", "INVOICE", "OTHER"}
	vatRates     = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}
	paymentTypes = []string{"CASH", "NON_CASH"}
)

// validate checks every field and names each bad one.
func (r *tseSaleRequest) validate() (tse.Sale, error) {
	if r.Kind != nil && *r.Kind == kindOrder {
		return r.validateOrder()
	}
	var f store.Fields
	var v tse.Sale
	if r.Kind != nil && *r.Kind != kindReceipt {
		f.Add("kind", store.FOneOf, "must be receipt or order", "values", []string{"receipt", "order"})
	}
	r.validateDetail(&f, &v)
	if r.ClientSerial == nil {
		f.Add("client_serial", store.FRequired, "is required")
	} else if s := *r.ClientSerial; !clientSerialRE.MatchString(s) || strings.TrimSpace(s) != s {
		f.Add("client_serial", store.FBadFormat, "must be 1-70 characters of A-Z a-z 0-9 space ' ( ) + , - . : = ? (no / or _), without leading or trailing spaces")
	} else {
		v.ClientSerial = s
	}
	if r.ReceiptType == nil {
		f.Add("receipt_type", store.FRequired, "is required")
	} else if !slices.Contains(receiptTypes, *r.ReceiptType) {
		f.Add("receipt_type", store.FOneOf, "must be one of "+strings.Join(receiptTypes, ", "), "values", receiptTypes)
	} else {
		v.Receipt.ReceiptType = *r.ReceiptType
		// A storno moves money back, so it is a receipt of the type of
		// the sale it reverses; CANCELLATION and ABORT are aborted
		// transactions (AVBelegabbruch), which reverse nothing.
		if r.Cancels != nil && !slices.Contains(store.ClosingCountedTypes, *r.ReceiptType) {
			f.Add("receipt_type", store.FOneOf, "a storno (with cancels) must be a RECEIPT with the sale's amounts negated; "+
				*r.ReceiptType+" records an aborted or moneyless transaction and cancels no sale", "values", store.ClosingCountedTypes)
		}
	}
	if len(r.AmountsPerVATRate) == 0 {
		f.Add("amounts_per_vat_rate", store.FTooFew, "must have at least one line", "min", 1)
	}
	seen := map[string]bool{}
	for i, l := range r.AmountsPerVATRate {
		field := fmt.Sprintf("amounts_per_vat_rate[%d]", i)
		switch {
		case l.VATRate == nil:
			f.Add(field+".vat_rate", store.FRequired, "is required")
		case !slices.Contains(vatRates, *l.VATRate):
			f.Add(field+".vat_rate", store.FOneOf, "must be one of "+strings.Join(vatRates, ", "), "values", vatRates)
		case seen[*l.VATRate]:
			f.Add(field+".vat_rate", store.FDuplicate, "appears twice; give one line per rate")
		default:
			seen[*l.VATRate] = true
		}
		if l.Amount == nil {
			f.Add(field+".amount", store.FRequired, "is required")
			continue
		}
		c := l.Amount.cents(&f, field+".amount")
		v.TotalCents += c
		if l.VATRate != nil {
			v.Receipt.AmountsPerVATRate = append(v.Receipt.AmountsPerVATRate, tse.AmountPerVATRate{VATRate: *l.VATRate, Amount: amountString(c)})
		}
	}
	if len(r.AmountsPerPaymentType) == 0 {
		f.Add("amounts_per_payment_type", store.FTooFew, "must have at least one line", "min", 1)
	}
	var paid int64
	allEUR := true
	for i, l := range r.AmountsPerPaymentType {
		field := fmt.Sprintf("amounts_per_payment_type[%d]", i)
		if l.PaymentType == nil {
			f.Add(field+".payment_type", store.FRequired, "is required")
		} else if !slices.Contains(paymentTypes, *l.PaymentType) {
			f.Add(field+".payment_type", store.FOneOf, "must be one of "+strings.Join(paymentTypes, ", "), "values", paymentTypes)
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
		c := l.Amount.cents(&f, field+".amount")
		paid += c
		if l.PaymentType != nil {
			v.Receipt.AmountsPerPaymentType = append(v.Receipt.AmountsPerPaymentType,
				tse.AmountPerPayment{PaymentType: *l.PaymentType, Amount: amountString(c), CurrencyCode: cur})
		}
	}
	if err := f.Err(); err != nil {
		return v, err
	}
	// Payments in a foreign currency cannot be compared with the EUR
	// gross; then the rule is skipped (documented in docs/API.md).
	if allEUR && paid != v.TotalCents {
		return v, store.Invalid("amounts_per_payment_type", store.FSumMismatch, fmt.Sprintf("payments add up to %s but the VAT lines to %s",
			amountString(paid), amountString(v.TotalCents)))
	}
	if len(v.Detail.Lines) > 0 {
		if err := linesMatch(v.Detail.Lines, v.Receipt.AmountsPerVATRate); err != nil {
			return v, err
		}
	}
	return v, nil
}

// amountString renders cents as fiskaly's decimal string: "21.42", "-0.50".
func amountString(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// requestHash identifies a request body for Idempotency-Key reuse checks:
// the canonical JSON of the validated sale, so whitespace and key order
// do not matter but any value does. A plain receipt hashes as it did
// before line items existed, so keys stored then still match.
func requestHash(v tse.Sale) string {
	if v.Order == nil && v.Detail.BusinessCase == "" && v.Detail.AllocationGroup == "" && v.Detail.Cancels == "" && len(v.Detail.Lines) == 0 {
		return hashOf(struct {
			S string
			R tse.Receipt
		}{v.ClientSerial, v.Receipt})
	}
	return hashOf(struct {
		S string
		R tse.Receipt
		O *tse.Order
		D tse.SaleDetail
	}{v.ClientSerial, v.Receipt, v.Order, v.Detail})
}
