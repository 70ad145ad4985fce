package tse

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ProcessTypeReceipt is the TR-03151 processType of a standard_v1 receipt.
const ProcessTypeReceipt = "Kassenbeleg-V1"

// ProcessTypeOrder is the TR-03151 processType of a standard_v1 order.
const ProcessTypeOrder = "Bestellung-V1"

// AmountPattern is the pattern of an amount in fiskaly's schema: a
// decimal with 2 to 5 places.
const AmountPattern = `^-?\d+(\.\d{2,5})$`

// bonTyp maps fiskaly's receipt_type to the DSFinV-K BON_TYP that starts
// the Kassenbeleg-V1 processData.
var bonTyp = map[string]string{
	"RECEIPT":         "Beleg",
	"TRAINING":        "AVTraining",
	"TRANSFER":        "AVTransfer",
	"ORDER":           "AVBestellung",
	"CANCELLATION":    "AVBelegabbruch",
	"ABORT":           "AVBelegabbruch",
	"BENEFIT_IN_KIND": "AVSachbezug",
	"INVOICE":         "AVRechnung",
	"OTHER":           "AVSonstige",
	"ANNULATION":      "AVBelegstorno",
}

// vatOrder is the order of the five gross amounts in processData:
// 19 %, 7 %, 10.7 %, 5.5 %, 0 %.
var vatOrder = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}

// deprecatedVAT maps the quoted decimals fiskaly's schema still accepts
// for vat_rate (DSFinV-K's UST_SATZ, marked deprecated) to the rate names
// in the same order as vatOrder.
var deprecatedVAT = map[string]string{
	"19": "NORMAL", "7": "REDUCED_1", "10.7": "SPECIAL_RATE_1", "5.5": "SPECIAL_RATE_2", "0": "NULL",
}

// vatName is the rate name of a vat_rate as sent: a name as it is, a
// deprecated decimal as its name, anything else "".
func vatName(rate string) string {
	if slices.Contains(vatOrder, rate) {
		return rate
	}
	return deprecatedVAT[rate]
}

var (
	amountRe = regexp.MustCompile(AmountPattern)
	// currencyRe is the schema's pattern: ISO 4217 letters in either case.
	currencyRe = regexp.MustCompile(`^[a-zA-Z]{3}$`)
)

// ValidateReceipt checks a receipt as fiskaly's schema validation does;
// the message names the first offending field.
func ValidateReceipt(r *Receipt) error {
	if _, ok := bonTyp[r.ReceiptType]; !ok {
		return fmt.Errorf("schema.standard_v1.receipt.receipt_type: %q is not one of RECEIPT, TRAINING, TRANSFER, ORDER, CANCELLATION, ABORT, BENEFIT_IN_KIND, INVOICE, OTHER, ANNULATION", r.ReceiptType)
	}
	for i, a := range r.AmountsPerVATRate {
		if vatName(a.VATRate) == "" {
			return fmt.Errorf("schema.standard_v1.receipt.amounts_per_vat_rate[%d].vat_rate: %q is not one of NORMAL, REDUCED_1, SPECIAL_RATE_1, SPECIAL_RATE_2, NULL (or the deprecated 19, 7, 10.7, 5.5, 0)", i, a.VATRate)
		}
		if !amountRe.MatchString(a.Amount) {
			return fmt.Errorf("schema.standard_v1.receipt.amounts_per_vat_rate[%d].amount: %q must match %s", i, a.Amount, amountRe)
		}
	}
	for i, p := range r.AmountsPerPaymentType {
		if p.PaymentType != "CASH" && p.PaymentType != "NON_CASH" {
			return fmt.Errorf("schema.standard_v1.receipt.amounts_per_payment_type[%d].payment_type: %q is not CASH or NON_CASH", i, p.PaymentType)
		}
		if !amountRe.MatchString(p.Amount) {
			return fmt.Errorf("schema.standard_v1.receipt.amounts_per_payment_type[%d].amount: %q must match %s", i, p.Amount, amountRe)
		}
		if p.CurrencyCode != "" && !currencyRe.MatchString(p.CurrencyCode) {
			return fmt.Errorf("schema.standard_v1.receipt.amounts_per_payment_type[%d].currency_code: %q is not three letters (ISO 4217)", i, p.CurrencyCode)
		}
	}
	return nil
}

// ProcessData builds the Kassenbeleg-V1 processData of a valid receipt:
// "Beleg^<19 %>_<7 %>_<10.7 %>_<5.5 %>_<0 %>^<amount>:<Bar|Unbar>[:<currency>]_...",
// gross sums per rate, cash before non-cash, EUR before other currencies.
// A deprecated decimal vat_rate counts as its named rate, and a currency
// code is written in capitals whichever case was sent.
func ProcessData(r *Receipt) string {
	sums := map[string]int64{}
	for _, a := range r.AmountsPerVATRate {
		sums[vatName(a.VATRate)] += parseAmount(a.Amount)
	}
	vat := make([]string, len(vatOrder))
	for i, rate := range vatOrder {
		vat[i] = formatAmount(sums[rate])
	}
	type group struct {
		cash     bool
		currency string
		sum      int64
	}
	var groups []*group
	find := map[[2]string]*group{}
	for _, p := range r.AmountsPerPaymentType {
		cur := strings.ToUpper(p.CurrencyCode)
		if cur == "" {
			cur = "EUR"
		}
		k := [2]string{p.PaymentType, cur}
		g := find[k]
		if g == nil {
			g = &group{cash: p.PaymentType == "CASH", currency: cur}
			find[k] = g
			groups = append(groups, g)
		}
		g.sum += parseAmount(p.Amount)
	}
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i].cash != groups[j].cash {
			return groups[i].cash
		}
		return groups[i].currency == "EUR" && groups[j].currency != "EUR"
	})
	pay := make([]string, len(groups))
	for i, g := range groups {
		kind := "Unbar"
		if g.cash {
			kind = "Bar"
		}
		pay[i] = formatAmount(g.sum) + ":" + kind
		if g.currency != "EUR" {
			pay[i] += ":" + g.currency
		}
	}
	return bonTyp[r.ReceiptType] + "^" + strings.Join(vat, "_") + "^" + strings.Join(pay, "_")
}

// parseAmount reads a validated decimal string in units of 10^-5.
func parseAmount(s string) int64 {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac += strings.Repeat("0", 5-len(frac))
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	v := w*100000 + f
	if neg {
		v = -v
	}
	return v
}

// formatAmount writes units of 10^-5 with two decimals, more only when
// needed.
func formatAmount(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	frac := fmt.Sprintf("%05d", v%100000)
	frac = strings.TrimRight(frac, "0")
	for len(frac) < 2 {
		frac += "0"
	}
	return sign + strconv.FormatInt(v/100000, 10) + "." + frac
}

// qrTime is the ISO 8601 form of the QR code's times.
const qrTime = "2006-01-02T15:04:05.000Z"

// QRCodeData is the DSFinV-K Annex I string of a finished transaction, in
// the format fiskaly returns.
func QRCodeData(t Tx) string {
	return strings.Join([]string{
		"V0",
		t.ClientSerialNumber,
		t.ProcessType,
		t.ProcessData,
		strconv.FormatUint(t.Number, 10),
		strconv.FormatUint(t.Signature.Counter, 10),
		t.TimeStart.UTC().Format(qrTime),
		t.LogTime.UTC().Format(qrTime),
		SignatureAlgorithm,
		"unixTime",
		t.Signature.Value,
		t.Signature.PublicKey,
	}, ";")
}

// BonTyp is the DSFinV-K BON_TYP of a receipt_type ("" when unknown).
func BonTyp(receiptType string) string { return bonTyp[receiptType] }
