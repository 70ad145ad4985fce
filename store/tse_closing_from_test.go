package store

import (
	"context"
	"testing"
	"time"
)

// recordSale writes a counted cash sale of cents on register serial as
// the queue records it (not yet signed).
func recordSale(t *testing.T, st *Store, r *Restaurant, serial string, cents int64) string {
	t.Helper()
	id := NewID()
	_, _, err := st.CreateTSESale(context.Background(), NewTSESale{RestaurantID: r.ID, TSSID: "tss", TxID: id,
		ClientSerial: serial, ClientID: "client-" + serial, ReceiptType: "RECEIPT", TotalCents: cents,
		StartBody: []byte(`{}`), FinishBody: []byte(`{}`),
		Detail: &TSESaleDetail{Kind: SaleKindReceipt, BusinessCase: "Umsatz",
			VAT: []TSESaleVAT{{VATRate: "NORMAL", Cents: cents}}, Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: cents}}}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A closing reads a register's sales from its last closing on (less a
// day): a sale recorded after the box's clock was stepped back, so
// before the last closing's end, is still closed by the next closing
// and still makes its register unclosed.
func TestClosingAfterTheClockSteppedBackKeepsEverySale(t *testing.T) {
	st, clock := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Zum Anker")
	recordSale(t, st, r, "KASSE-01", 1000)
	first, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: r.ID, ClientSerial: "KASSE-01", BusinessDate: "2026-11-22", Until: clock.Now()})
	if err != nil || first.TxCount != 1 {
		t.Fatalf("first closing = %+v, %v", first, err)
	}
	clock.Set(testStart.Add(-2 * time.Hour)) // NTP steps the clock back
	late := recordSale(t, st, r, "KASSE-01", 250)
	clock.Set(testStart.Add(time.Hour))
	if regs, err := st.UnclosedRegisters(ctx, r.ID, clock.Now()); err != nil || len(regs) != 1 || regs[0] != "KASSE-01" {
		t.Fatalf("UnclosedRegisters = %v, %v; want KASSE-01", regs, err)
	}
	second, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: r.ID, ClientSerial: "KASSE-01", BusinessDate: "2026-11-22", Until: clock.Now()})
	if err != nil || second.TxCount != 1 || second.LastTxID != late || second.TotalCents != 250 || second.ZNr != 2 {
		t.Fatalf("second closing = %+v, %v; want the late sale of 250 cents as Z 2", second, err)
	}
	if regs, err := st.UnclosedRegisters(ctx, r.ID, clock.Now()); err != nil || len(regs) != 0 {
		t.Fatalf("UnclosedRegisters after both closings = %v, %v; want none", regs, err)
	}
}
