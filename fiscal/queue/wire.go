package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// A sale arrives as a fiscal.Sale in cents. Two things are made from it
// here: what the store keeps of it (SaleDetail, straight from the cents)
// and fiskaly's wire form (WireSale; the seeder signs its history with both), the only place amounts become
// decimal strings: the finishing revision the provider signs, and the
// idempotency hash, which earlier releases computed over that form.

// SaleDetail is what the store keeps of a sale for the DSFinV-K export.
func SaleDetail(s *fiscal.Sale) *store.TSESaleDetail {
	out := &store.TSESaleDetail{Kind: store.SaleKindReceipt, BusinessCase: s.BusinessCase,
		AllocationGroup: s.AllocationGroup, CancelsTxID: s.Cancels, OperatorID: s.OperatorID, OperatorName: s.OperatorName}
	if s.Kind == fiscal.KindOrder {
		out.Kind = store.SaleKindOrder
	}
	if out.BusinessCase == "" {
		out.BusinessCase = "Umsatz"
	}
	// The amounts are the signed receipt's (an order's are its lines').
	for _, v := range s.VAT {
		out.VAT = append(out.VAT, store.TSESaleVAT{VATRate: v.VATRate, Cents: v.Cents})
	}
	for _, p := range s.Payments {
		cur := strings.ToUpper(p.CurrencyCode)
		if cur == "" {
			cur = "EUR"
		}
		eur := p.Cents // an EUR amount is its euro value
		if p.Foreign() {
			eur = p.EURCents
		}
		out.Payments = append(out.Payments, store.TSESalePayment{PaymentType: p.PaymentType, CurrencyCode: cur, Cents: p.Cents, EURCents: &eur})
	}
	for _, l := range s.Lines {
		out.Lines = append(out.Lines, store.TSESaleLine{Text: l.Text, QuantityMilli: l.QuantityMilli, UnitPriceCents: l.UnitPriceCents,
			TotalCents: l.TotalCents, VATRate: l.VATRate, ItemNumber: l.ItemNumber, DiscountID: l.DiscountID, BusinessCase: l.BusinessCase,
			RedemptionID: l.RedemptionID})
	}
	return out
}

// WireSale is the sale in fiskaly's standard_v1 terms: the receipt's
// amounts as decimal strings, and an order's lines when it is one (then
// signed as Bestellung-V1 instead of the receipt).
func WireSale(s *fiscal.Sale) tse.Sale {
	w := tse.Sale{Receipt: tse.Receipt{ReceiptType: s.ReceiptType}}
	for _, v := range s.VAT {
		w.Receipt.AmountsPerVATRate = append(w.Receipt.AmountsPerVATRate, tse.AmountPerVATRate{VATRate: v.VATRate, Amount: fiscal.Amount(v.Cents)})
	}
	for _, p := range s.Payments {
		w.Receipt.AmountsPerPaymentType = append(w.Receipt.AmountsPerPaymentType,
			tse.AmountPerPayment{PaymentType: p.PaymentType, Amount: fiscal.Amount(p.Cents), CurrencyCode: p.CurrencyCode})
	}
	if s.Kind == fiscal.KindOrder {
		w.Order = &tse.Order{}
		for _, l := range s.Lines {
			w.Order.LineItems = append(w.Order.LineItems, tse.OrderLineItem{Quantity: fiscal.Quantity(l.QuantityMilli),
				Text: l.Text, PricePerUnit: fiscal.Amount(l.UnitPriceCents)})
		}
	}
	return w
}

// hashedDetail is the form the hash gives a sale's DSFinV-K members (the
// member names are the JSON keys, as they were when the detail travelled
// inside the wire form); the operator is not part of it.
type hashedDetail struct {
	BusinessCase    string
	AllocationGroup string
	Cancels         string
	Lines           []hashedLine
}

// hashedLine is a fiscal.Line as the hash names its members.
type hashedLine struct {
	Text           string
	QuantityMilli  int64
	UnitPriceCents int64
	TotalCents     int64
	VATRate        string
	ItemNumber     string
	DiscountID     string
	BusinessCase   string
	// Left out when empty, so a line without one hashes as before
	// redemptions were booked on sales.
	RedemptionID string `json:",omitempty"`
}

// requestHash identifies a sale for Idempotency-Key reuse checks: the
// sha256 of the canonical JSON of the client serial, the wire form w and
// the DSFinV-K members, so a key sent again with any other value is
// refused. A plain receipt hashes as it did before line items existed,
// and every sale as it did when the hash was made in server, so keys
// stored then still match (wire_test.go pins them).
func requestHash(s *fiscal.Sale, w tse.Sale) string {
	var v any = struct {
		S string
		R tse.Receipt
	}{s.ClientSerial, w.Receipt}
	if w.Order != nil || s.BusinessCase != "" || s.AllocationGroup != "" || s.Cancels != "" || len(s.Lines) > 0 {
		d := hashedDetail{BusinessCase: s.BusinessCase, AllocationGroup: s.AllocationGroup, Cancels: s.Cancels}
		for _, l := range s.Lines {
			d.Lines = append(d.Lines, hashedLine(l))
		}
		v = struct {
			S string
			R tse.Receipt
			O *tse.Order
			D hashedDetail
		}{s.ClientSerial, w.Receipt, w.Order, d}
	}
	// A foreign payment's euro value is posbox's, not in the wire form: it
	// joins the hash only when there is one, so every other sale's hash
	// stays as it was.
	var eur []int64
	for _, p := range s.Payments {
		if p.Foreign() {
			eur = append(eur, p.EURCents)
		}
	}
	if eur != nil {
		v = struct {
			V   any
			EUR []int64
		}{v, eur}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs of strings and numbers come here
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
