package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// movementOf is a cash movement of serial as the cash book records it:
// one line of its business case, VAT NULL, euro cash.
func movementOf(r *Restaurant, serial, clientID, kind, gv string, cents int64) NewTSESale {
	n := newTSESaleFor(r, tssA, serial, clientID)
	n.TotalCents = cents
	n.Detail = &TSESaleDetail{Kind: SaleKindReceipt, BusinessCase: gv, VAT: []TSESaleVAT{{VATRate: "NULL", Cents: cents}},
		Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: cents}},
		Lines:    []TSESaleLine{{LineNo: 1, Text: gv, QuantityMilli: 1000, UnitPriceCents: cents, TotalCents: cents, VATRate: "NULL", BusinessCase: gv}}}
	n.Movement = &NewCashMovement{Kind: kind, Cents: cents, BookedByName: "Ada"}
	return n
}

var cashClients = map[string]string{"KASSE-01": "c0a1b2c3-0000-4000-8000-00000000c001", "KASSE-02": "c0a1b2c3-0000-4000-8000-00000000c002"}

// Movements and cash sales booked at once on two registers, with daily
// closings taken meanwhile: every register's movements are numbered 1..n
// without a gap, its balance is the sum of its cash since the book began,
// and every movement ends up in exactly one closing, none in a closing
// taken before it was recorded.
func TestCashBookUnderConcurrency(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Zur Post")
	for serial, client := range cashClients {
		mustTSESale(t, st, movementOf(r, serial, client, "opening_float", "Anfangsbestand", 10000))
	}
	const workers, each = 8, 12
	var wg sync.WaitGroup
	errs := make(chan error, workers*each+64)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			serial := "KASSE-01"
			if w%2 == 1 {
				serial = "KASSE-02"
			}
			for i := range each {
				var n NewTSESale
				switch i % 3 {
				case 0:
					n = movementOf(r, serial, cashClients[serial], "tip_payout", "TrinkgeldAN", -100)
				case 1:
					n = movementOf(r, serial, cashClients[serial], "deposit", "Einzahlung", 250)
				default:
					n = receiptOf(r, "RECEIPT", "")
					n.ClientSerial, n.ClientID = serial, cashClients[serial]
				}
				if _, _, err := st.CreateTSESale(ctx, n); err != nil {
					errs <- err
				}
			}
		}()
	}
	stop := make(chan struct{})
	var closers sync.WaitGroup
	closers.Add(1)
	go func() {
		defer closers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for serial := range cashClients {
				if _, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: r.ID, ClientSerial: serial, BusinessDate: "2026-11-22",
					Until: st.Now().Add(1e12)}); err != nil && ErrorCode(err) != EClosingEmpty {
					errs <- err
				}
			}
		}
	}()
	wg.Wait()
	close(stop)
	closers.Wait()
	for serial := range cashClients {
		if _, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: r.ID, ClientSerial: serial, BusinessDate: "2026-11-22",
			Until: st.Now().Add(1e12)}); err != nil && ErrorCode(err) != EClosingEmpty {
			t.Fatal(err)
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Per register: 1 float + 4 workers × (4 payouts + 4 deposits) movements,
	// 4 × 4 sales of 12.50; cash 100 + 16 × (−1 + 2.50 + 12.50).
	for serial := range cashClients {
		n := queryInt(t, st, `SELECT count(*) FROM cash_movements WHERE client_serial = ?`, serial)
		if max := queryInt(t, st, `SELECT max(movement_no) FROM cash_movements WHERE client_serial = ?`, serial); n != 33 || max != n {
			t.Errorf("%s: %d movements numbered up to %d, want 33 without a gap", serial, n, max)
		}
		b, err := st.CashBalanceOf(ctx, r.ID, serial)
		if err != nil || b.Cents != 10000+16*(-100+250+1250) {
			t.Errorf("%s: balance %d (%v), want %d", serial, b.Cents, err, 10000+16*(-100+250+1250))
		}
		closed := queryInt(t, st, `SELECT coalesce(sum(t.cents), 0) FROM tse_closing_totals t JOIN tse_closings c ON c.id = t.closing_id
			WHERE c.client_serial = ? AND t.kind = 'payment' AND t.code = 'CASH'`, serial)
		if closed != b.Cents {
			t.Errorf("%s: the closings hold %d cents of cash, the cash book %d", serial, closed, b.Cents)
		}
	}
	if n := queryInt(t, st, `SELECT count(*) FROM cash_movements m WHERE (SELECT count(*) FROM tse_closing_transactions ct WHERE ct.tx_id = m.tx_id) != 1`); n != 0 {
		t.Errorf("%d movements are not in exactly one closing", n)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM cash_movements m JOIN tse_transactions x ON x.tx_id = m.tx_id
		JOIN tse_closing_transactions ct ON ct.tx_id = m.tx_id JOIN tse_closings c ON c.id = ct.closing_id
		WHERE x.business_time > c.covered_until`); n != 0 {
		t.Errorf("%d movements are in a closing taken before they were recorded", n)
	}
}

// The cash book is append-only in the database: no update or delete of
// a movement, a count or a balance row gets through, a reversal must
// negate its original, a balance must add up, and a count must compare
// with the register's current balance.
func TestCashBookRefusedByTheDatabase(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Zur Post")
	float := mustTSESale(t, st, movementOf(r, "KASSE-01", cashClients["KASSE-01"], "opening_float", "Anfangsbestand", 10000))
	b, err := st.CashBalanceOf(ctx, r.ID, "KASSE-01")
	if err != nil || !b.Started || b.Cents != 10000 {
		t.Fatalf("balance %+v %v", b, err)
	}
	if _, err := st.CreateCashCount(ctx, r.ID, NewCashCount{ClientSerial: "KASSE-01", LedgerSeq: b.LedgerSeq, ExpectedCents: 10000,
		CountedCents: 10000, CountedByName: "Ada"}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE cash_movements SET cents = 1`, `DELETE FROM cash_movements`,
		`UPDATE cash_counts SET counted_cents = 1`, `DELETE FROM cash_counts`,
		`UPDATE cash_ledger SET cents = 1`, `DELETE FROM cash_ledger`,
		`INSERT INTO cash_ledger (restaurant_id, client_serial, tx_id, cents, balance_cents, created_at)
			VALUES ('` + r.ID + `', 'KASSE-01', '` + float.TxID + `', 5, 5, 'x')`,
		// A stale balance: the count compares with 99.00, the drawer holds 100.00.
		fmt.Sprintf(`INSERT INTO cash_counts (id, restaurant_id, client_serial, count_no, ledger_seq, expected_cents, counted_cents,
			difference_cents, counted_by_name, created_at) VALUES ('x', '%s', 'KASSE-01', 2, %d, 9900, 9900, 0, 'Ada', 'x')`, r.ID, b.LedgerSeq),
	} {
		if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil {
			t.Errorf("%s: went through", strings.Fields(q)[0]+" "+strings.Fields(q)[1]+" "+strings.Fields(q)[2])
		}
	}
	// A reversal must be the same kind for the opposite amount.
	rev := movementOf(r, "KASSE-01", cashClients["KASSE-01"], "opening_float", "Anfangsbestand", -5000)
	rev.Movement.ReversesTxID = float.TxID
	if _, _, err := st.CreateTSESale(ctx, rev); err == nil {
		t.Error("a reversal of half the float went through")
	}
	if n := queryInt(t, st, `SELECT count(*) FROM tse_transactions`); n != 1 {
		t.Errorf("%d transactions after the refusals, want 1", n)
	}
}

// A cash sale the TSE cancels leaves the expected cash, as it leaves the
// closing.
func TestCashBookForgetsASaleTheTSECancelled(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Zur Post")
	mustTSESale(t, st, movementOf(r, "KASSE-01", cashClients["KASSE-01"], "opening_float", "Anfangsbestand", 10000))
	n := receiptOf(r, "RECEIPT", "")
	n.ClientID = cashClients["KASSE-01"]
	sale := mustTSESale(t, st, n)
	if b, _ := st.CashBalanceOf(ctx, r.ID, "KASSE-01"); b.Cents != 11250 {
		t.Fatalf("balance with the sale %d", b.Cents)
	}
	if err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_transactions SET state = 'CANCELLED', updated_at = ? WHERE tx_id = ?`, tx.NowText(), sale.TxID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if b, _ := st.CashBalanceOf(ctx, r.ID, "KASSE-01"); b.Cents != 10000 {
		t.Fatalf("balance after the TSE cancelled the sale %d, want 10000", b.Cents)
	}
}
