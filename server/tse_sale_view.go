package server

import (
	"encoding/json"

	"posbox/fiscal"
	"posbox/store"
)

// What a sale contained, as the transaction list shows it (GET
// /api/tse/transactions): its amounts, payments and line items, so an
// admin sees a receipt's content beside its signature.

type saleVATJSON struct {
	VATRate string      `json:"vat_rate"`
	Amount  json.Number `json:"amount"`
}

// salePaymentJSON is one payment; amount_eur is its euro value (the
// amount for EUR), null for a foreign one recorded before posbox took it.
type salePaymentJSON struct {
	PaymentType  string       `json:"payment_type"`
	CurrencyCode string       `json:"currency_code"`
	Amount       json.Number  `json:"amount"`
	AmountEUR    *json.Number `json:"amount_eur"`
}

func paymentView(p store.TSESalePayment) salePaymentJSON {
	out := salePaymentJSON{PaymentType: p.PaymentType, CurrencyCode: p.CurrencyCode, Amount: money(p.Cents)}
	if eur, ok := p.EUR(); ok {
		out.AmountEUR = moneyPtr(&eur)
	}
	return out
}

type saleLineJSON struct {
	Text       string      `json:"text"`
	Quantity   json.Number `json:"quantity"`
	UnitPrice  json.Number `json:"unit_price"`
	Total      json.Number `json:"total"`
	VATRate    string      `json:"vat_rate"`
	ItemNumber *string     `json:"item_number"`
}

// saleContent is the detail's part of a list item; a transaction the
// reconciler learnt from the provider has none (empty lists, kind null).
type saleContent struct {
	Kind                  *string           `json:"kind"`
	AmountsPerVATRate     []saleVATJSON     `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []salePaymentJSON `json:"amounts_per_payment_type"`
	LineItems             []saleLineJSON    `json:"line_items"`
	Cancels               *string           `json:"cancels"`
}

func saleContentView(d *store.TSESaleDetail) saleContent {
	out := saleContent{AmountsPerVATRate: []saleVATJSON{}, AmountsPerPaymentType: []salePaymentJSON{}, LineItems: []saleLineJSON{}}
	if d == nil {
		return out
	}
	out.Kind, out.Cancels = strPtr(d.Kind), strPtr(d.CancelsTxID)
	for _, v := range d.VAT {
		out.AmountsPerVATRate = append(out.AmountsPerVATRate, saleVATJSON{v.VATRate, money(v.Cents)})
	}
	for _, p := range d.Payments {
		out.AmountsPerPaymentType = append(out.AmountsPerPaymentType, paymentView(p))
	}
	for _, l := range d.Lines {
		out.LineItems = append(out.LineItems, saleLineJSON{Text: l.Text, Quantity: json.Number(fiscal.Quantity(l.QuantityMilli)),
			UnitPrice: money(l.UnitPriceCents), Total: money(l.TotalCents), VATRate: l.VATRate, ItemNumber: strPtr(l.ItemNumber)})
	}
	return out
}
