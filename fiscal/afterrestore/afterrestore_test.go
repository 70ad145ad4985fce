package afterrestore

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal"
	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// box is a posbox on a real SQLite file in dir, signing with sim through
// its running queue, as serve runs it.
type box struct {
	dir  string
	st   *store.Store
	q    *queue.Queue
	stop func()
	rest *store.Restaurant
}

func openBox(t *testing.T, dir string, sim tse.Provider, clk *storetest.Clock) *box {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, store.Options{Now: clk.Now, Logger: quiet, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	b := &box{dir: dir, st: st}
	rs, err := st.Restaurants(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 {
		b.rest = &store.Restaurant{Name: "Zur Linde", Timezone: "Europe/Berlin"}
		if err := st.CreateRestaurant(ctx, b.rest); err != nil {
			t.Fatal(err)
		}
	} else {
		b.rest = rs[0]
	}
	b.q, err = queue.New(ctx, sim, st, queue.Options{RestaurantID: b.rest.ID, Budget: 30 * time.Second, Jitter: func() float64 { return 1 }, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); b.q.Run(wctx) }()
	b.stop = func() { cancel(); <-done; st.Close() }
	t.Cleanup(b.close)
	return b
}

func (b *box) close() {
	if b.stop != nil {
		b.stop()
		b.stop = nil
	}
}

// sell records a sale and waits for its signature, as a till does.
func (b *box) sell(t *testing.T, s fiscal.Sale) *store.TSETransaction {
	t.Helper()
	tx, err := b.q.Sell(context.Background(), b.rest.ID, s, "")
	if err != nil {
		t.Fatal(err)
	}
	if tx.State != tse.TxFinished || tx.Number == nil {
		t.Fatalf("sale not signed: %+v", tx)
	}
	return tx
}

func receiptSale(vat []fiscal.VATAmount, pay []fiscal.Payment) fiscal.Sale {
	var total int64
	for _, v := range vat {
		total += v.Cents
	}
	return fiscal.Sale{ClientSerial: "KASSE-01", Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: total, VAT: vat, Payments: pay}
}

func cash(cents int64) fiscal.Sale {
	return receiptSale([]fiscal.VATAmount{{VATRate: "NORMAL", Cents: cents}}, []fiscal.Payment{{PaymentType: "CASH", Cents: cents}})
}

// failingList is the TSE unreachable for the list (the box still signs).
type failingList struct {
	tse.Provider
	err error
}

func (f *failingList) ListTx(context.Context, tse.ListQuery) (tse.TxPage, error) {
	return tse.TxPage{}, f.err
}

// The whole story: a box sells, the replica copies its database, the box
// sells two more and dies; a new box restored from the copy signs with the
// same TSS, cannot reach the TSE at first (pending, the box sells), then
// lists exactly the two later sales with what their receipts said; the
// owner acknowledges them; a restart keeps all of it.
func TestRestoredBoxListsWhatOnlyTheTSESigned(t *testing.T) {
	ctx := context.Background()
	clk := storetest.NewClock(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC))
	sim, err := tsesim.Open(tsesim.Config{Dir: t.TempDir(), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()

	old := openBox(t, t.TempDir(), sim, clk)
	for _, c := range []int64{450, 1290, 380} {
		old.sell(t, cash(c))
		clk.Add(20 * time.Second)
	}
	// The replica has everything up to here.
	through := clk.Now()
	restoredDir := t.TempDir()
	if err := old.st.Backup(ctx, filepath.Join(restoredDir, "posbox.db")); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Second)
	lost1 := old.sell(t, receiptSale([]fiscal.VATAmount{{VATRate: "NORMAL", Cents: 2380}, {VATRate: "REDUCED_1", Cents: 535}},
		[]fiscal.Payment{{PaymentType: "CASH", Cents: 1000}, {PaymentType: "NON_CASH", Cents: 1915}}))
	clk.Add(time.Second)
	lost2 := old.sell(t, receiptSale([]fiscal.VATAmount{{VATRate: "REDUCED_1", Cents: 799}}, []fiscal.Payment{{PaymentType: "NON_CASH", Cents: 799}}))
	old.close() // the card dies

	// posbox restore --from puts the copy in place and marks it.
	if err := MarkRestored(restoredDir, through); err != nil {
		t.Fatal(err)
	}
	clk.Add(10 * time.Minute)
	down := &failingList{Provider: sim, err: tse.NewError(0, "E_NETWORK", "TSE provider unreachable (network error)")}
	nb := openBox(t, restoredDir, sim, clk)
	c := New(down, nb.st, nb.rest.ID, quiet)
	if started, err := c.Begin(ctx, restoredDir); err != nil || !started {
		t.Fatalf("Begin: %v %v", started, err)
	}
	if _, err := os.Stat(filepath.Join(restoredDir, MarkerFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the marker stays after Begin: %v", err)
	}
	if pending, err := c.Attempt(ctx); !pending || err == nil {
		t.Fatalf("TSE unreachable: pending %v err %v", pending, err)
	}
	a, err := nb.st.LatestTSEAfterRestore(ctx, nb.rest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.State != store.AfterRestorePending || a.Attempts != 1 || !strings.Contains(a.LastError, "unreachable") ||
		a.ReplicatedThrough == nil || !a.ReplicatedThrough.Equal(through) {
		t.Fatalf("pending comparison: %+v", a)
	}
	// The restored box sells meanwhile, and the reconciler copies the two
	// lost transactions into the mirror: still no sale of the box's.
	newSale := nb.sell(t, cash(990))
	if err := nb.q.ReconcileJob(ctx); err != nil {
		t.Fatal(err)
	}

	c = New(sim, nb.st, nb.rest.ID, quiet)
	if pending, err := c.Attempt(ctx); pending || err != nil {
		t.Fatalf("TSE back: pending %v err %v", pending, err)
	}
	a, err = nb.st.LatestTSEAfterRestore(ctx, nb.rest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.State != store.AfterRestoreDone || a.ComparedAt == nil || len(a.Missing) != 2 {
		t.Fatalf("comparison: %+v", a)
	}
	wantMissing(t, a.Missing[0], lost1, "Beleg", "NORMAL 23.80, REDUCED_1 5.35", "CASH 10.00 EUR, NON_CASH 19.15 EUR")
	wantMissing(t, a.Missing[1], lost2, "Beleg", "REDUCED_1 7.99", "NON_CASH 7.99 EUR")
	for _, m := range a.Missing {
		if m.TxID == newSale.TxID {
			t.Fatal("the restored box's own sale is on the list")
		}
	}

	// The owner re-entered the first, then marks the rest.
	admin := &store.User{RestaurantID: nb.rest.ID, Email: "chefin@example.com", Name: "Anna Wirt", Role: "admin", IsActive: true}
	if err := nb.st.CreateUser(ctx, admin, "password1"); err != nil {
		t.Fatal(err)
	}
	if err := nb.st.AcknowledgeTSEMissing(ctx, nb.rest.ID, []string{lost1.TxID}, admin.ID); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute)
	var serr *store.Error
	if err := nb.st.AcknowledgeTSEMissing(ctx, nb.rest.ID, []string{lost2.TxID, store.NewID()}, admin.ID); !errors.As(err, &serr) ||
		len(serr.Fields) != 1 || serr.Fields[0].Field != "tx_ids[1]" || serr.Fields[0].Code != store.FUnknownSale {
		t.Fatalf("an id not on the list: %v", err)
	}
	if err := nb.st.AcknowledgeTSEMissing(ctx, nb.rest.ID, nil, admin.ID); err != nil {
		t.Fatal(err)
	}

	// Restart: the state, the list and who acknowledged when are kept,
	// and nothing is compared again.
	nb.close()
	nb = openBox(t, restoredDir, sim, clk)
	c = New(sim, nb.st, nb.rest.ID, quiet)
	if started, err := c.Begin(ctx, restoredDir); started || err != nil {
		t.Fatalf("Begin after the restart: %v %v", started, err)
	}
	if pending, err := c.Attempt(ctx); pending || err != nil {
		t.Fatalf("Attempt after the restart: %v %v", pending, err)
	}
	b, err := nb.st.LatestTSEAfterRestore(ctx, nb.rest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != a.ID || b.State != store.AfterRestoreDone || len(b.Missing) != 2 {
		t.Fatalf("after the restart: %+v", b)
	}
	first, second := b.Missing[0], b.Missing[1]
	if first.AcknowledgedName != "Anna Wirt" || second.AcknowledgedBy != admin.ID || first.AcknowledgedAt == nil || second.AcknowledgedAt == nil ||
		!second.AcknowledgedAt.After(*first.AcknowledgedAt) {
		t.Fatalf("acknowledged: %+v / %+v", first, second)
	}
}

// wantMissing checks a list entry against the sale the old box signed.
func wantMissing(t *testing.T, m store.TSEMissingTx, sold *store.TSETransaction, kind, vat, pay string) {
	t.Helper()
	var vs, ps []string
	for _, v := range m.VAT {
		vs = append(vs, v.VATRate+" "+v.Amount)
	}
	for _, p := range m.Payments {
		ps = append(ps, p.PaymentType+" "+p.Amount+" "+p.CurrencyCode)
	}
	if m.TxID != sold.TxID || m.Number != *sold.Number || m.SignatureCounter != *sold.SignatureCounter || m.State != tse.TxFinished ||
		m.ClientSerial != "KASSE-01" || m.ProcessType != tse.ProcessTypeReceipt || m.ReceiptKind != kind ||
		strings.Join(vs, ", ") != vat || strings.Join(ps, ", ") != pay {
		t.Fatalf("missing entry %+v\nsold %+v\nwant %s / %s / %s", m, sold, kind, vat, pay)
	}
}
