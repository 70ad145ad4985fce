package store

import (
	"context"
	"testing"

	"posbox/store/storetest"
)

// A sale recorded before 00010 gets its amounts and payments from the
// finishing revision it was signed with, so it can be closed and exported.
func TestMigrationFillsOlderSalesDetail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := "2026-11-01T10:00:00.000Z"
	finish := `{"state":"FINISHED","client_id":"c1","schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT",` +
		`"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":"7.80"},{"vat_rate":"REDUCED_1","amount":"12.90"}],` +
		`"amounts_per_payment_type":[{"payment_type":"CASH","amount":"10.70"},{"payment_type":"NON_CASH","amount":"10.00","currency_code":"eur"}]}}}}`
	db := databaseAt(t, dir, 7,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '`+now+`')`,
		`INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents, state,
			business_time, created_at, updated_at) VALUES ('t1', 'r1', 's1', 'c1', 'KASSE-01', 'RECEIPT', 2070, 'FINISHED', '`+now+`', '`+now+`', '`+now+`')`,
		`INSERT INTO tse_jobs (id, restaurant_id, tss_id, client_id, tx_id, revision, target_state, body, status, next_attempt_at, created_at)
			VALUES ('j1', 'r1', 's1', 'c1', 't1', 1, 'ACTIVE', '{"state":"ACTIVE","client_id":"c1"}', 'done', '`+now+`', '`+now+`'),
			       ('j2', 'r1', 's1', 'c1', 't1', 2, 'FINISHED', '`+finish+`', 'done', '`+now+`', '`+now+`')`,
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
	if d.Kind != SaleKindReceipt || d.BusinessCase != "Umsatz" || len(d.VAT) != 2 || d.VAT[0].Cents != 780 || d.VAT[1].Cents != 1290 ||
		len(d.Payments) != 2 || d.Payments[0].Cents != 1070 || d.Payments[1].CurrencyCode != "EUR" || d.Payments[1].Cents != 1000 {
		t.Fatalf("detail %+v", d)
	}
}
