package closing

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
)

type jobEnv struct {
	st    *store.Store
	clock *storetest.Clock
	r     *store.Restaurant
}

func newJobEnv(t testing.TB, at time.Time) *jobEnv {
	t.Helper()
	clock := storetest.NewClock(at)
	st, err := store.Open(context.Background(), t.TempDir(), store.Options{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &store.Restaurant{Name: "Zum Löwen", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return &jobEnv{st: st, clock: clock, r: r}
}

// record writes a sale as the queue records it (not yet signed: the
// closing does not wait for signatures).
func (e *jobEnv) record(t testing.TB, serial string, cents int64) string {
	t.Helper()
	id := tse.NewUUID4()
	_, _, err := e.st.CreateTSESale(context.Background(), store.NewTSESale{RestaurantID: e.r.ID, TSSID: "tss", TxID: id,
		ClientSerial: serial, ClientID: "client-" + serial, ReceiptType: "RECEIPT", TotalCents: cents,
		StartBody: []byte(`{}`), FinishBody: []byte(`{}`),
		Detail: &store.TSESaleDetail{Kind: store.SaleKindReceipt, BusinessCase: "Umsatz",
			VAT: []store.TSESaleVAT{{VATRate: "NORMAL", Cents: cents}}, Payments: []store.TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: cents}}}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The automatic closing runs once the local time has passed closing_time,
// closes yesterday's registers that had sales and were not closed by the
// POS, and closes nothing twice.
func TestAutoCloserClosesYesterdayOnce(t *testing.T) {
	// 22:30 local (CET) on 21 Nov.
	e := newJobEnv(t, time.Date(2026, 11, 21, 21, 30, 0, 0, time.UTC))
	e.record(t, "KASSE-01", 1000)
	e.record(t, "KASSE-02", 500)
	e.record(t, "KASSE-03", 700)
	ctx := context.Background()
	// The POS of KASSE-03 closes itself.
	if _, err := e.st.CreateTSEClosing(ctx, store.NewTSEClosing{RestaurantID: e.r.ID, ClientSerial: "KASSE-03", BusinessDate: "2026-11-21",
		Until: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	// After midnight: a sale of the new day, which the closing must leave.
	e.clock.Set(time.Date(2026, 11, 21, 23, 30, 0, 0, time.UTC)) // 00:30 local, 22 Nov
	late := e.record(t, "KASSE-01", 300)

	job := &AutoCloser{St: e.st, At: "05:00"}
	e.clock.Set(time.Date(2026, 11, 22, 3, 59, 0, 0, time.UTC)) // 04:59 local
	if err := job.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if cs, _ := e.st.TSEClosings(ctx, e.r.ID, store.ClosingFilter{}); len(cs) != 1 {
		t.Fatalf("closed before closing_time: %d closings", len(cs))
	}
	e.clock.Set(time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)) // 05:00 local
	for range 3 {
		if err := job.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := e.st.TSEClosings(ctx, e.r.ID, store.ClosingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*store.TSEClosing{}
	for _, c := range cs {
		got[c.ClientSerial] = c
	}
	if len(cs) != 3 || got["KASSE-01"].TotalCents != 1000 || !got["KASSE-01"].Automatic || got["KASSE-01"].BusinessDate != "2026-11-21" ||
		got["KASSE-02"].ZNr != 1 || got["KASSE-03"].Automatic {
		t.Fatalf("closings %+v", cs)
	}
	ids, err := e.st.TSEClosingTxIDs(ctx, got["KASSE-01"].ID)
	if err != nil || len(ids) != 1 || ids[0] == late {
		t.Fatalf("KASSE-01 covers %v (%v)", ids, err)
	}
	// The next morning the after-midnight sale is closed as 22 Nov, Z_NR 2.
	e.clock.Set(time.Date(2026, 11, 23, 4, 30, 0, 0, time.UTC))
	if err := job.Run(ctx); err != nil {
		t.Fatal(err)
	}
	cs, _ = e.st.TSEClosings(ctx, e.r.ID, store.ClosingFilter{ClientSerial: "KASSE-01"})
	if len(cs) != 2 || cs[1].ZNr != 2 || cs[1].BusinessDate != "2026-11-22" || cs[1].TotalCents != 300 {
		t.Fatalf("second day %+v", cs)
	}
}
