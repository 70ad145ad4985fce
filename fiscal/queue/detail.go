package queue

import (
	"strings"

	"posbox/store"
	"posbox/tse"
)

// saleDetail is what the store keeps of a sale for the DSFinV-K export.
func saleDetail(s tse.Sale) *store.TSESaleDetail {
	d := s.Detail
	out := &store.TSESaleDetail{Kind: store.SaleKindReceipt, BusinessCase: d.BusinessCase,
		AllocationGroup: d.AllocationGroup, CancelsTxID: d.Cancels, OperatorID: d.OperatorID, OperatorName: d.OperatorName}
	if s.Order != nil {
		out.Kind = store.SaleKindOrder
	}
	if out.BusinessCase == "" {
		out.BusinessCase = "Umsatz"
	}
	// The amounts are the signed receipt's (an order's are its lines').
	for _, v := range s.Receipt.AmountsPerVATRate {
		out.VAT = append(out.VAT, store.TSESaleVAT{VATRate: v.VATRate, Cents: tse.Cents(v.Amount)})
	}
	for _, p := range s.Receipt.AmountsPerPaymentType {
		cur := strings.ToUpper(p.CurrencyCode)
		if cur == "" {
			cur = "EUR"
		}
		out.Payments = append(out.Payments, store.TSESalePayment{PaymentType: p.PaymentType, CurrencyCode: cur, Cents: tse.Cents(p.Amount)})
	}
	for _, l := range d.Lines {
		out.Lines = append(out.Lines, store.TSESaleLine{Text: l.Text, QuantityMilli: l.QuantityMilli, UnitPriceCents: l.UnitPriceCents,
			TotalCents: l.TotalCents, VATRate: l.VATRate, ItemNumber: l.ItemNumber, DiscountID: l.DiscountID, BusinessCase: l.BusinessCase})
	}
	return out
}
