package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"posbox/store"
)

// close posts a closing of serial and returns the status and the body.
func (e *tseEnv) closeRegister(tb testing.TB, token, serial string) (int, map[string]any) {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/tse/closings", map[string]any{"client_serial": serial}, token)
	return rec.Code, decodeJSON(tb, rec)
}

// A closing covers the register's sales not yet closed, counts the
// revenue per VAT rate and payment type, and numbers 1, 2, ... per
// register; a closing with nothing to close is refused.
func TestClosingTotalsAndNumbers(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	e.sell(t, sale("KASSE-01", 1000), staffTok)
	mixed := map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("5.95")},
			map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("12.90")}},
		"amounts_per_payment_type": []any{
			map[string]any{"payment_type": "CASH", "amount": json.Number("8.85")},
			map[string]any{"payment_type": "NON_CASH", "amount": json.Number("10.00")}}}
	e.sell(t, mixed, staffTok)
	training := sale("KASSE-01", 9999)
	training["receipt_type"] = "TRAINING"
	e.sell(t, training, staffTok)
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "kind": "order", "line_items": []any{line("Bier", "1", "3.90", "NORMAL")}}, staffTok)
	e.sell(t, sale("KASSE-02", 700), staffTok)

	status, body := e.closeRegister(t, staffTok, "KASSE-01")
	if status != http.StatusCreated {
		t.Fatalf("status %d: %v", status, body)
	}
	c := body["closing"].(map[string]any)
	if num(c["z_nr"]) != 1 || num(c["transactions"]) != 4 || c["total"] != 28.85 || c["cash"] != 18.85 || c["business_date"] != "2026-11-22" {
		t.Fatalf("closing %v", c)
	}
	vat, _ := json.Marshal(c["amounts_per_vat_rate"])
	pay, _ := json.Marshal(c["amounts_per_payment_type"])
	if string(vat) != `[{"amount":15.95,"vat_rate":"NORMAL"},{"amount":12.9,"vat_rate":"REDUCED_1"}]` ||
		string(pay) != `[{"amount":18.85,"amount_eur":18.85,"currency_code":"EUR","payment_type":"CASH"},{"amount":10,"amount_eur":10,"currency_code":"EUR","payment_type":"NON_CASH"}]` {
		t.Fatalf("totals %s %s", vat, pay)
	}
	rec := e.do(t, "POST", "/api/tse/closings", map[string]any{"client_serial": "KASSE-01"}, staffTok)
	wantStatus(t, rec, http.StatusConflict)
	if p := decodeJSON(t, rec); p["code"] != "closing_empty" {
		t.Fatalf("%v", p)
	}
	e.sell(t, sale("KASSE-01", 250), staffTok)
	_, body = e.closeRegister(t, staffTok, "KASSE-01")
	if c2 := body["closing"].(map[string]any); num(c2["z_nr"]) != 2 || num(c2["transactions"]) != 1 || c2["total"] != 2.5 {
		t.Fatalf("second closing %v", c2)
	}
	_, body = e.closeRegister(t, staffTok, "KASSE-02")
	if c3 := body["closing"].(map[string]any); num(c3["z_nr"]) != 1 {
		t.Fatalf("KASSE-02 closing %v", c3)
	}

	rec = e.do(t, "GET", "/api/tse/closings/"+c["id"].(string), nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	if got := decodeJSON(t, rec)["closing"].(map[string]any); got["total"] != 28.85 || got["created_by"] == nil {
		t.Fatalf("read back %v", got)
	}
	rec = e.do(t, "GET", "/api/tse/closings?client_serial=KASSE-01&from=2026-11-22&to=2026-11-22", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if list := decodeJSON(t, rec)["closings"].([]any); len(list) != 2 {
		t.Fatalf("list %v", list)
	}
}

// Z_NR stays gap-free per register while terminals sell and close at
// once: every closing answered has the next number, and every sale is in
// exactly one closing.
func TestClosingNumbersGapFreeUnderConcurrency(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	serials := []string{"KASSE-01", "KASSE-02"}
	const perRegister = 12
	var mu sync.Mutex
	znrs := map[string][]int{}
	var wg sync.WaitGroup
	errs := make(chan string, 4*perRegister)
	for _, serial := range serials {
		for range perRegister {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := e.do(t, "POST", "/api/tse/transactions", sale(serial, 100), staffTok)
				if rec.Code != http.StatusCreated {
					errs <- fmt.Sprintf("sale: %d %s", rec.Code, rec.Body.String())
					return
				}
				rec = e.do(t, "POST", "/api/tse/closings", map[string]any{"client_serial": serial}, staffTok)
				switch rec.Code {
				case http.StatusCreated:
					c := field(rec.Body.Bytes(), "closing")
					mu.Lock()
					znrs[serial] = append(znrs[serial], num(c["z_nr"]))
					mu.Unlock()
				case http.StatusConflict: // another closing took this sale
				default:
					errs <- fmt.Sprintf("closing: %d %s", rec.Code, rec.Body.String())
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	for _, serial := range serials {
		got := znrs[serial]
		slices.Sort(got)
		for i, z := range got {
			if z != i+1 {
				t.Fatalf("%s: Z_NRs %v are not 1..%d", serial, got, len(got))
			}
		}
		var covered, closings int
		if err := e.st.ReadDB().QueryRow(`SELECT coalesce(sum(tx_count), 0), count(*) FROM tse_closings WHERE client_serial = ?`, serial).
			Scan(&covered, &closings); err != nil {
			t.Fatal(err)
		}
		if covered != perRegister || closings != len(got) {
			t.Fatalf("%s: %d sales in %d closings, want %d in %d", serial, covered, closings, perRegister, len(got))
		}
	}
}

// A closing cannot change: the database refuses UPDATE and DELETE on the
// closing, its sales and its totals, and no route changes one.
func TestClosingIsImmutable(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 1000), e.adminToken)
	_, body := e.closeRegister(t, e.adminToken, "KASSE-01")
	id := body["closing"].(map[string]any)["id"].(string)
	for _, q := range []string{
		`UPDATE tse_closings SET total_cents = 1 WHERE id = ?`,
		`DELETE FROM tse_closings WHERE id = ?`,
		`UPDATE tse_closing_totals SET cents = 1 WHERE closing_id = ?`,
		`DELETE FROM tse_closing_totals WHERE closing_id = ?`,
		`DELETE FROM tse_closing_transactions WHERE closing_id = ?`,
		`UPDATE tse_closing_transactions SET tx_id = 'x' WHERE closing_id = ?`,
		`INSERT INTO tse_closings (id, restaurant_id, client_serial, z_nr, business_date, covered_until, tx_count, first_tx_id, last_tx_id,
			total_cents, cash_cents, created_at) SELECT 'gap', restaurant_id, client_serial, 3, business_date, covered_until, 1, first_tx_id,
			last_tx_id, 0, 0, created_at FROM tse_closings WHERE id = ?`,
	} {
		err := e.st.Write(context.Background(), func(tx *store.Tx) error {
			_, err := tx.ExecContext(context.Background(), q, id)
			return err
		})
		if err == nil {
			t.Errorf("%s: accepted", q)
		}
	}
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		rec := e.do(t, m, "/api/tse/closings/"+id, nil, e.adminToken)
		wantStatus(t, rec, http.StatusMethodNotAllowed)
	}
	rec := e.do(t, "GET", "/api/tse/closings/"+id, nil, e.adminToken)
	if c := decodeJSON(t, rec)["closing"].(map[string]any); c["total"] != 10.0 || num(c["z_nr"]) != 1 {
		t.Fatalf("changed: %v", c)
	}
}

// Bad bodies and queries get problem+json and change nothing.
func TestClosingValidation(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 1000), e.adminToken)
	for _, c := range []struct {
		body  any
		field string
	}{
		{map[string]any{}, "client_serial"},
		{map[string]any{"client_serial": "KASSE/01"}, "client_serial"},
		{map[string]any{"client_serial": "KASSE-01", "business_date": "22.11.2026"}, "business_date"},
		{map[string]any{"client_serial": "KASSE-01", "business_date": "2026-11-23"}, "business_date"},
	} {
		rec := e.do(t, "POST", "/api/tse/closings", c.body, e.adminToken)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		p := decodeJSON(t, rec)
		if errs := p["errors"].([]any); errs[0].(map[string]any)["field"] != c.field {
			t.Errorf("%v: %v", c.body, p)
		}
	}
	rec := e.do(t, "GET", "/api/tse/closings?from=2026-11-23&to=2026-11-22", nil, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	var n int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM tse_closings`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d closings (%v)", n, err)
	}
}
