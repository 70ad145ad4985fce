package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkEntriesWarningsHistory reads a day's entries with their
// warnings (what GET /api/time-entries?date= answers) on day one and in
// year ten of benchHistory: with a bounded read the two stay level. Run
// with go test ./store -run '^$' -bench EntriesWarningsHistory -benchmem
func BenchmarkEntriesWarningsHistory(b *testing.B) {
	ctx := context.Background()
	for _, years := range []int{0, historyYears} {
		b.Run(fmt.Sprintf("years=%d", years), func(b *testing.B) {
			st, r, staff := benchHistory(b, years)
			// The day before the clock's start gets its entries in both runs.
			day := testStart.AddDate(0, 0, -1)
			err := st.Write(ctx, func(tx *Tx) error {
				for i, u := range staff[20:40] {
					if err := insertHistoryDay(ctx, tx, r, u, day, i); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			date := day.In(r.Location()).Format(DateFormat)
			b.ReportAllocs()
			for b.Loop() {
				es, err := st.TimeEntries(ctx, r, date)
				if err != nil || len(es) < 20 {
					b.Fatal(len(es), err)
				}
				if _, err := st.EntriesWarnings(ctx, r, es); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// closingHistoryDays is the long history of BenchmarkClosingHistory: 300
// sales a day on one register, each day closed.
const closingHistoryDays = 120

// seedClosedDays writes days of 300 signed cash sales of 1 € on KASSE-01,
// each day closed, ending the day before the test clock's start.
func seedClosedDays(b *testing.B, st *Store, r *Restaurant, days int) {
	b.Helper()
	ctx := context.Background()
	n := int64(0)
	for d := days; d > 0; d-- {
		day := testStart.Add(-time.Duration(d) * 24 * time.Hour).Truncate(24 * time.Hour)
		sales := make([]SeedSale, 300)
		ids := make([]string, 300)
		for i := range sales {
			n++
			at := day.Add(10*time.Hour + time.Duration(i)*time.Minute)
			ids[i] = NewID()
			sales[i] = SeedSale{NewTSESale: NewTSESale{RestaurantID: r.ID, TSSID: "tss", TxID: ids[i], ClientSerial: "KASSE-01",
				ClientID: "client-1", ReceiptType: "RECEIPT", TotalCents: 100, StartBody: []byte(`{}`), FinishBody: []byte(`{}`),
				Detail: &TSESaleDetail{Kind: SaleKindReceipt, BusinessCase: "Umsatz", VAT: []TSESaleVAT{{VATRate: "NORMAL", Cents: 100}},
					Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 100}}}},
				Start:      TSESigned{Number: n, State: tseTxActive, Revision: 1, TimeStart: at, LogTime: at, SignatureCounter: 2*n - 1},
				Finish:     TSESigned{Number: n, State: tseTxFinished, Revision: 2, TimeStart: at, LogTime: at, SignatureCounter: 2 * n},
				RecordedAt: at}
		}
		until := day.Add(24 * time.Hour)
		closing := SeedClosing{ClientSerial: "KASSE-01", BusinessDate: day.Format(DateFormat), Until: until, TxIDs: ids,
			TotalCents: 30000, CashCents: 30000, VAT: []TSESaleVAT{{VATRate: "NORMAL", Cents: 30000}},
			Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 30000}}, At: until.Add(4 * time.Hour)}
		if err := st.SeedFiscalDay(ctx, sales, []SeedClosing{closing}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClosingHistory records a sale and closes its register, on day
// one and after closingHistoryDays closed days. Run with
// go test ./store -run '^$' -bench ClosingHistory -benchmem
func BenchmarkClosingHistory(b *testing.B) {
	ctx := context.Background()
	for _, days := range []int{0, closingHistoryDays} {
		b.Run(fmt.Sprintf("days=%d", days), func(b *testing.B) {
			st, clock := newTestStore(b)
			r := mustRestaurant(b, st, "History")
			seedClosedDays(b, st, r, days)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				clock.Set(testStart.Add(time.Duration(i) * time.Second))
				if _, _, err := st.CreateTSESale(ctx, NewTSESale{RestaurantID: r.ID, TSSID: "tss", TxID: NewID(), ClientSerial: "KASSE-01",
					ClientID: "client-1", ReceiptType: "RECEIPT", TotalCents: 100, StartBody: []byte(`{}`), FinishBody: []byte(`{}`),
					Detail: &TSESaleDetail{Kind: SaleKindReceipt, BusinessCase: "Umsatz", VAT: []TSESaleVAT{{VATRate: "NORMAL", Cents: 100}},
						Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 100}}}}); err != nil {
					b.Fatal(err)
				}
				c, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: r.ID, ClientSerial: "KASSE-01",
					BusinessDate: testStart.Format(DateFormat), Until: clock.Now()})
				if err != nil || c.TxCount != 1 {
					b.Fatal(c, err)
				}
			}
		})
	}
}
