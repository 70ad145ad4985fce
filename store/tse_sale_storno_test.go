package store

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"posbox/store/storetest"
)

// receiptOf is a sale of r (12.50 at 19 % unless vat says otherwise)
// with its detail, as the queue records it.
func receiptOf(r *Restaurant, receiptType, cancels string, vat ...TSESaleVAT) NewTSESale {
	n := newTSESaleFor(r, tssA, "KASSE-01", "c0a1b2c3-0000-4000-8000-000000000001")
	if len(vat) == 0 {
		vat = []TSESaleVAT{{VATRate: "NORMAL", Cents: 1250}}
	}
	n.ReceiptType, n.TotalCents = receiptType, 0
	for _, v := range vat {
		n.TotalCents += v.Cents
	}
	n.Detail = &TSESaleDetail{Kind: SaleKindReceipt, BusinessCase: "Umsatz", CancelsTxID: cancels, VAT: vat,
		Payments: []TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: n.TotalCents}}}
	return n
}

// storno is the full reversal of a 12.50 sale.
func storno(r *Restaurant, of string) NewTSESale {
	return receiptOf(r, "RECEIPT", of, TSESaleVAT{VATRate: "NORMAL", Cents: -1250})
}

// A sale is reversed once: the storno is recorded and linked both ways;
// a second one is 409 already_cancelled and writes nothing; a storno of
// a storno, of an order, of another restaurant's sale, of another type
// or with other amounts is 422 on the field at fault.
func TestStornoOncePerSale(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "R")
	other := mustRestaurant(t, st, "Other")
	sale := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	s1 := mustTSESale(t, st, storno(r, sale.TxID))
	if s1.Cancels != sale.TxID || s1.CancelledBy != "" {
		t.Fatalf("storno links %q %q", s1.Cancels, s1.CancelledBy)
	}
	if got := mustTSETx(t, st, r.ID, sale.TxID); got.CancelledBy != s1.TxID || got.Cancels != "" {
		t.Fatalf("sale links %q %q", got.Cancels, got.CancelledBy)
	}
	before := queryInt(t, st, `SELECT count(*) FROM tse_transactions`)
	if _, _, err := st.CreateTSESale(ctx, storno(r, sale.TxID)); ErrorCode(err) != EAlreadyCancelled {
		t.Fatalf("second storno: %v", err)
	}
	order := receiptOf(r, "ORDER", "")
	order.Detail.Kind = SaleKindOrder
	ord := mustTSESale(t, st, order)
	training := mustTSESale(t, st, receiptOf(r, "TRAINING", ""))
	fresh := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	foreign := receiptOf(other, "RECEIPT", "")
	foreign.ClientSerial = "KASSE-09"
	foreign.ClientID = "c0a1b2c3-0000-4000-8000-000000000009"
	theirs := mustTSESale(t, st, foreign)
	before += 4
	for name, c := range map[string]struct {
		n     NewTSESale
		field string
	}{
		"of a storno":          {storno(r, s1.TxID), "cancels"},
		"of an order":          {storno(r, ord.TxID), "cancels"},
		"of a training":        {receiptOf(r, "TRAINING", training.TxID, TSESaleVAT{VATRate: "NORMAL", Cents: -1250}), "cancels"},
		"of another's sale":    {storno(r, theirs.TxID), "cancels"},
		"as a cancellation":    {receiptOf(r, "CANCELLATION", fresh.TxID, TSESaleVAT{VATRate: "NORMAL", Cents: -1250}), "receipt_type"},
		"with part of it":      {receiptOf(r, "RECEIPT", fresh.TxID, TSESaleVAT{VATRate: "NORMAL", Cents: -1000}), "amounts_per_vat_rate"},
		"at another VAT rate":  {receiptOf(r, "RECEIPT", fresh.TxID, TSESaleVAT{VATRate: "REDUCED_1", Cents: -1250}), "amounts_per_vat_rate"},
		"with the same amount": {receiptOf(r, "RECEIPT", fresh.TxID), "amounts_per_vat_rate"},
	} {
		_, _, err := st.CreateTSESale(ctx, c.n)
		var e *Error
		if ErrorCode(err) != EValidation || !errors.As(err, &e) || e.Fields[0].Field != c.field {
			t.Errorf("%s: %v, want 422 on %s", name, err, c.field)
		}
	}
	if n := queryInt(t, st, `SELECT count(*) FROM tse_transactions`); n != before {
		t.Fatalf("%d transactions after the refusals, want %d", n, before)
	}
	if s := mustTSESale(t, st, storno(r, fresh.TxID)); s.Cancels != fresh.TxID {
		t.Fatalf("storno of the other sale %+v", s)
	}
}

// Sixteen stornos of one sale at once: the check runs in the write
// transaction, so exactly one is recorded and the others are refused.
func TestStornoOnceUnderConcurrency(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sale := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, _, errs[i] = st.CreateTSESale(context.Background(), storno(r, sale.TxID))
		}()
	}
	close(start)
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case ErrorCode(err) != EAlreadyCancelled:
			t.Errorf("a storno failed with %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d stornos recorded, want 1", won)
	}
	if c := queryInt(t, st, `SELECT count(*) FROM tse_sale_details WHERE cancels_tx_id = ?`, sale.TxID); c != 1 {
		t.Fatalf("%d stornos stored", c)
	}
}

// The database refuses a second storno even from a writer that skips
// the store's check; a storno the TSE aborted frees the sale for a new
// one.
func TestStornoUniqueIndexAndAbortedStorno(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "R")
	sale := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	first := mustTSESale(t, st, storno(r, sale.TxID))
	second := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	err := st.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_sale_details SET cancels_tx_id = ? WHERE tx_id = ?`, sale.TxID, second.TxID)
		return err
	})
	if !isUnique(err) {
		t.Fatalf("a second storno written past the check: %v", err)
	}
	if err := st.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_transactions SET state = 'CANCELLED' WHERE tx_id = ?`, first.TxID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := mustTSETx(t, st, r.ID, sale.TxID); got.CancelledBy != "" {
		t.Fatalf("an aborted storno still cancels the sale: %q", got.CancelledBy)
	}
	again := mustTSESale(t, st, storno(r, sale.TxID))
	if got := mustTSETx(t, st, r.ID, sale.TxID); got.CancelledBy != again.TxID {
		t.Fatalf("cancelled by %q, want %q", got.CancelledBy, again.TxID)
	}
}

// A database of version 11 that holds what the old check let through
// (a sale reversed three times, an aborted transaction sent with cancels,
// a storno the TSE aborted) takes 00012: the first storno of each sale is
// its storno, the others are kept as recorded and marked, and from then
// on the database holds one storno per sale.
func TestMigrationOneStornoPerSale(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	at := "2026-11-01T10:00:00.000Z"
	tx := func(id, typ, state string, cents int) string {
		return `INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents, state,
			business_time, created_at, updated_at) VALUES ('` + id + `', 'r1', 's1', 'c1', 'KASSE-01', '` + typ + `', ` +
			strconv.Itoa(cents) + `, '` + state + `', '` + at + `', '` + at + `', '` + at + `')`
	}
	detail := func(id, cancels string) string {
		c := "NULL"
		if cancels != "" {
			c = "'" + cancels + "'"
		}
		return `INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case, cancels_tx_id) VALUES ('` + id + `', 'r1', 'receipt', 'Umsatz', ` + c + `)`
	}
	vat := func(id string, cents int) string {
		return `INSERT INTO tse_sale_vat (tx_id, vat_rate, cents) VALUES ('` + id + `', 'NORMAL', ` + strconv.Itoa(cents) + `)`
	}
	const (
		sale1 = "a0000000-0000-4000-8000-000000000001" // reversed three times
		sale2 = "a0000000-0000-4000-8000-000000000002" // "reversed" by a CANCELLATION
		sale3 = "a0000000-0000-4000-8000-000000000003" // its storno was aborted at the TSE
	)
	db := databaseAt(t, dir, 11,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '`+at+`')`,
		tx(sale1, "RECEIPT", "FINISHED", 1250), detail(sale1, ""), vat(sale1, 1250),
		tx("s1", "RECEIPT", "FINISHED", -1250), detail("s1", sale1), vat("s1", -1250),
		tx("s2", "RECEIPT", "FINISHED", -1250), detail("s2", sale1), vat("s2", -1250),
		tx("s3", "RECEIPT", "ACTIVE", -1250), detail("s3", sale1), vat("s3", -1250),
		tx(sale2, "RECEIPT", "FINISHED", 1250), detail(sale2, ""), vat(sale2, 1250),
		tx("c1", "CANCELLATION", "FINISHED", -1250), detail("c1", sale2), vat("c1", -1250),
		tx(sale3, "RECEIPT", "FINISHED", 1250), detail(sale3, ""), vat(sale3, 1250),
		tx("a1", "RECEIPT", "CANCELLED", -1250), detail("a1", sale3), vat("a1", -1250),
	)
	db.Close()
	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for id, want := range map[string]int64{"s1": 0, "s2": 1, "s3": 1, "c1": 1, "a1": 1} {
		if got := queryInt(t, st, `SELECT cancels_void FROM tse_sale_details WHERE tx_id = ?`, id); got != want {
			t.Errorf("%s: cancels_void %d, want %d", id, got, want)
		}
	}
	for id, by := range map[string]string{sale1: "s1", sale2: "", sale3: ""} {
		if got := mustTSETx(t, st, "r1", id); got.CancelledBy != by {
			t.Errorf("%s cancelled by %q, want %q", id, got.CancelledBy, by)
		}
	}
	r := &Restaurant{ID: "r1"}
	if _, _, err := st.CreateTSESale(ctx, storno(r, sale1)); ErrorCode(err) != EAlreadyCancelled {
		t.Fatalf("a fourth storno: %v", err)
	}
	for _, id := range []string{sale2, sale3} {
		if s := mustTSESale(t, st, storno(r, id)); mustTSETx(t, st, "r1", id).CancelledBy != s.TxID {
			t.Fatalf("%s: the new storno does not cancel it", id)
		}
	}
}
