package store

import (
	"context"
	"testing"

	"posbox/store/storetest"
)

// A sale recorded before 00025: its EUR payment's euro value is its
// amount; its franc payment's was never sent and stays unknown, so a
// closing over it counts the francs in its own currency and says the
// euro sums are unknown instead of leaving the francs out. A new payment
// without a euro value is refused by the database.
func TestMigrationPaymentEuroValue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := "2026-11-22T08:00:00.000Z"
	db := databaseAt(t, dir, 24,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '`+now+`')`,
		`INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents, state,
			business_time, created_at, updated_at) VALUES ('t1', 'r1', 's1', 'c1', 'KASSE-01', 'RECEIPT', 2000, 'FINISHED', '`+now+`', '`+now+`', '`+now+`')`,
		`INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case) VALUES ('t1', 'r1', 'receipt', 'Umsatz')`,
		`INSERT INTO tse_sale_vat (tx_id, vat_rate, cents) VALUES ('t1', 'NORMAL', 2000)`,
		`INSERT INTO tse_sale_payments (tx_id, seq, payment_type, currency_code, cents) VALUES ('t1', 1, 'CASH', 'EUR', 1000), ('t1', 2, 'CASH', 'CHF', 950)`,
	)
	db.Close()
	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d, err := st.TSESaleDetail(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if eur, ok := d.Payments[0].EUR(); !ok || eur != 1000 || d.Payments[0].EURCents == nil {
		t.Fatalf("EUR payment's euro value %d %v", eur, ok)
	}
	if _, ok := d.Payments[1].EUR(); ok {
		t.Fatalf("the francs' euro value is known: %+v", d.Payments[1])
	}
	c, err := st.CreateTSEClosing(ctx, NewTSEClosing{RestaurantID: "r1", ClientSerial: "KASSE-01", BusinessDate: "2026-11-22", Until: testStart})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Payments) != 2 || c.Payments[1].CurrencyCode != "CHF" || c.Payments[1].Cents != 950 {
		t.Fatalf("closing payments %+v", c.Payments)
	}
	if _, ok := c.PaidEUR(); ok {
		t.Fatal("the closing claims to know its payments in euro")
	}
	if _, ok := c.CashEUR(); ok {
		t.Fatal("the closing claims to know its cash in euro")
	}
	if got, ok := c.EURSum("NON_CASH"); !ok || got != 0 {
		t.Fatalf("non-cash %d %v", got, ok)
	}
	err = st.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tse_sale_payments (tx_id, seq, payment_type, currency_code, cents) VALUES ('t1', 3, 'CASH', 'CHF', 100)`)
		return err
	})
	if err == nil {
		t.Fatal("a new payment without a euro value was stored")
	}
}
