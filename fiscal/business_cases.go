package fiscal

import (
	"slices"
	"strings"

	"posbox/store"
	"posbox/tse"
)

// The business cases of a closing (DSFinV-K businesscases.csv, Z_GV_Typ),
// computed once here for the DSFinV-K export (fiscal/dsfinvk) and the
// Z-report (zreport.go), so that the two can never disagree.

// BusinessCase is the gross of a closing's counted sales' lines of one
// GV_TYP at one VAT rate.
type BusinessCase struct {
	Type       string // GV_TYP: Umsatz, Rabatt, TrinkgeldAN, ...
	VATRate    string // fiskaly's rate name: NORMAL, REDUCED_1, ...
	GrossCents int64
}

// vatRates are fiskaly's rate names in the order of their DSFinV-K keys
// (UST_SCHLUESSEL 1-5) with their rates in hundredths of a percent.
var vatRates = []struct {
	Name string
	BP   int64
}{{"NORMAL", 1900}, {"REDUCED_1", 700}, {"SPECIAL_RATE_1", 1070}, {"SPECIAL_RATE_2", 550}, {"NULL", 0}}

// VATRateBP is a rate name's rate in hundredths of a percent.
func VATRateBP(name string) int64 {
	for _, v := range vatRates {
		if v.Name == name {
			return v.BP
		}
	}
	return 0
}

// vatOrder is a rate name's place in vatRates (unknown ones last).
func vatOrder(name string) int {
	for i, v := range vatRates {
		if v.Name == name {
			return i
		}
	}
	return len(vatRates)
}

// SplitGross splits a gross amount (in any unit: cents, or the
// DSFinV-K's 10^-5) at a rate (hundredths of a percent) into net and
// VAT, the net rounded half away from zero.
func SplitGross(gross, bp int64) (net, vat int64) {
	if bp == 0 {
		return gross, 0
	}
	num := gross * 10000
	den := 10000 + bp
	neg := num < 0
	if neg {
		num = -num
	}
	net = (num + den/2) / den
	if neg {
		net = -net
	}
	return net, gross - net
}

// SaleDetail is a closed sale's detail; a sale recorded without one
// counts as a receipt of Umsatz.
func SaleDetail(s *store.ClosedSale) *store.TSESaleDetail {
	if s.Detail == nil {
		return &store.TSESaleDetail{Kind: store.SaleKindReceipt, BusinessCase: "Umsatz"}
	}
	return s.Detail
}

// Counted reports whether a sale moves money: the closing's rule
// (store.ClosingCountedTypes, not cancelled at the TSE).
func Counted(s *store.ClosedSale) bool {
	return SaleDetail(s).Kind == store.SaleKindReceipt && slices.Contains(store.ClosingCountedTypes, s.ReceiptType) && s.State != "CANCELLED"
}

// Aborted reports whether a sale is an aborted receipt (DSFinV-K
// AVBelegabbruch): recorded as CANCELLATION or ABORT, or a transaction
// the TSE cancelled.
func Aborted(s *store.ClosedSale) bool {
	return s.State == "CANCELLED" || tse.BonTyp(s.ReceiptType) == "AVBelegabbruch"
}

// IsStorno reports whether a sale reverses another: a counted receipt
// with cancels. An aborted transaction recorded with cancels (before
// migration 00012, or a storno the TSE aborted) reverses nothing.
func IsStorno(s *store.ClosedSale) bool { return SaleDetail(s).CancelsTxID != "" && Counted(s) }

// SaleLines is a sale's line items; a sale recorded without any gets one
// line per VAT rate with its amount, so that every receipt has lines and
// the lines add up to the VAT amounts.
func SaleLines(d *store.TSESaleDetail) []store.TSESaleLine {
	if len(d.Lines) > 0 {
		return d.Lines
	}
	out := make([]store.TSESaleLine, 0, len(d.VAT))
	for i, v := range d.VAT {
		out = append(out, store.TSESaleLine{LineNo: i + 1, Text: "Summe ohne Einzelpositionen", QuantityMilli: 1000,
			UnitPriceCents: v.Cents, TotalCents: v.Cents, VATRate: v.VATRate, BusinessCase: d.BusinessCase})
	}
	return out
}

// ClosingBusinessCases totals the lines of a closing's counted sales per GV_TYP
// and VAT rate: Umsatz first, then the others by name, each by VAT rate.
func ClosingBusinessCases(sales []*store.ClosedSale) []BusinessCase {
	type key struct{ typ, rate string }
	sums := map[key]int64{}
	var order []key
	for _, s := range sales {
		if !Counted(s) {
			continue
		}
		for _, l := range SaleLines(SaleDetail(s)) {
			k := key{l.BusinessCase, l.VATRate}
			if _, ok := sums[k]; !ok {
				order = append(order, k)
			}
			sums[k] += l.TotalCents
		}
	}
	slices.SortStableFunc(order, func(p, q key) int {
		if p.typ != q.typ {
			if p.typ == "Umsatz" {
				return -1
			}
			if q.typ == "Umsatz" {
				return 1
			}
			return strings.Compare(p.typ, q.typ)
		}
		return vatOrder(p.rate) - vatOrder(q.rate)
	})
	out := make([]BusinessCase, 0, len(order))
	for _, k := range order {
		out = append(out, BusinessCase{Type: k.typ, VATRate: k.rate, GrossCents: sums[k]})
	}
	return out
}
