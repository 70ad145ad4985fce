package dsfinvk

import (
	"context"
	"io"
	"testing"
	"time"

	"posbox/store"
	"posbox/tse"
)

// BenchmarkExportDay exports one closing of 1,000 sales of three lines
// each (a busy restaurant's day) from a real SQLite file.
func BenchmarkExportDay(b *testing.B) {
	e := newExportEnv(b, time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	for range 1000 {
		_, _, err := e.st.CreateTSESale(ctx, store.NewTSESale{RestaurantID: e.r.ID, TSSID: "tss", TxID: tse.NewUUID4(),
			ClientSerial: "KASSE-01", ClientID: "client-KASSE-01", ReceiptType: "RECEIPT", TotalCents: 2070,
			StartBody: []byte(`{}`), FinishBody: []byte(`{}`),
			Detail: &store.TSESaleDetail{Kind: store.SaleKindReceipt, BusinessCase: "Umsatz", AllocationGroup: "Tisch 4",
				VAT:      []store.TSESaleVAT{{VATRate: "NORMAL", Cents: 780}, {VATRate: "REDUCED_1", Cents: 1290}},
				Payments: []store.TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 2070}},
				Lines: []store.TSESaleLine{
					{Text: "Bier", QuantityMilli: 2000, UnitPriceCents: 390, TotalCents: 780, VATRate: "NORMAL", BusinessCase: "Umsatz"},
					{Text: "Schnitzel", QuantityMilli: 1000, UnitPriceCents: 1490, TotalCents: 1490, VATRate: "REDUCED_1", BusinessCase: "Umsatz"},
					{Text: "Rabatt", QuantityMilli: 1000, UnitPriceCents: -200, TotalCents: -200, VATRate: "REDUCED_1", BusinessCase: "Rabatt"},
				}}})
		if err != nil {
			b.Fatal(err)
		}
	}
	if _, err := e.st.CreateTSEClosing(ctx, store.NewTSEClosing{RestaurantID: e.r.ID, ClientSerial: "KASSE-01", BusinessDate: "2026-11-22",
		Until: e.clock.Now()}); err != nil {
		b.Fatal(err)
	}
	x := &Exporter{St: e.st, SoftwareVersion: "bench"}
	b.ResetTimer()
	for range b.N {
		if err := x.Export(ctx, e.r, store.ClosingFilter{DateFrom: "2026-11-22", DateTo: "2026-11-22"}, store.TSEInfo{}, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
