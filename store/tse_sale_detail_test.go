package store

import (
	"context"
	"reflect"
	"testing"
)

// A day's list reads every sale's content at once: each sale gets its
// own VAT amounts, payments and lines in their order, and a sale without
// a recorded detail (learnt from the provider) is simply absent.
func TestTSESaleDetailsReadsEachSale(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	one := receiptOf(r, "RECEIPT", "", TSESaleVAT{VATRate: "REDUCED_1", Cents: 300}, TSESaleVAT{VATRate: "NORMAL", Cents: 780})
	one.Detail.Lines = []TSESaleLine{
		{Text: "Bier", QuantityMilli: 2000, UnitPriceCents: 390, TotalCents: 780, VATRate: "NORMAL", BusinessCase: "Umsatz"},
		{Text: "Brezel", QuantityMilli: 1000, UnitPriceCents: 300, TotalCents: 300, VATRate: "REDUCED_1", BusinessCase: "Umsatz"},
	}
	two := receiptOf(r, "RECEIPT", "")
	two.Detail.Payments = []TSESalePayment{{PaymentType: "NON_CASH", CurrencyCode: "EUR", Cents: 1000}, {PaymentType: "CASH", CurrencyCode: "EUR", Cents: 250}}
	bare := receiptOf(r, "RECEIPT", "")
	bare.Detail = nil
	a, b, c := mustTSESale(t, st, one), mustTSESale(t, st, two), mustTSESale(t, st, bare)

	got, err := st.TSESaleDetails(context.Background(), []string{a.TxID, b.TxID, c.TxID})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[c.TxID] != nil {
		t.Fatalf("details for %d sales (the bare one: %v), want 2", len(got), got[c.TxID])
	}
	for _, id := range []string{a.TxID, b.TxID} {
		single, err := st.TSESaleDetail(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[id], single) {
			t.Fatalf("batch %+v, single %+v", got[id], single)
		}
	}
	if d := got[a.TxID]; len(d.Lines) != 2 || d.Lines[1].Text != "Brezel" || d.VAT[0].VATRate != "NORMAL" || len(d.Payments) != 1 {
		t.Fatalf("first sale read as %+v", d)
	}
	if d := got[b.TxID]; len(d.Lines) != 0 || len(d.Payments) != 2 || d.Payments[0].PaymentType != "NON_CASH" {
		t.Fatalf("second sale read as %+v", d)
	}
	if _, err := st.TSESaleDetail(context.Background(), c.TxID); !IsNotFound(err) {
		t.Fatalf("the bare sale's detail: %v, want not_found", err)
	}
}
