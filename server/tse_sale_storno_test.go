package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// amountOf writes cents as a JSON amount, negative ones too: -1250 → -12.50.
func amountOf(cents int) json.Number {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return json.Number(fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100))
}

// stornoBody reverses a sale of cents at 19 %, paid in cash, with
// receiptType (RECEIPT for a storno).
func stornoBody(serial, receiptType string, cents int, of any) map[string]any {
	return map[string]any{
		"client_serial": serial, "receipt_type": receiptType, "cancels": of,
		"amounts_per_vat_rate":     []any{map[string]any{"vat_rate": "NORMAL", "amount": amountOf(-cents)}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": amountOf(-cents)}},
	}
}

// listed is the list item of a transaction in GET /api/tse/transactions
// of the test's day.
func (e *tseEnv) listed(t *testing.T, id any) map[string]any {
	t.Helper()
	rec := e.do(t, "GET", "/api/tse/transactions?from=2026-11-20T00:00:00Z&to=2026-11-30T00:00:00Z", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var items []map[string]any
	decodeInto(t, rec.Body.Bytes(), &items)
	for _, it := range items {
		if it["id"] == id {
			return it
		}
	}
	t.Fatalf("transaction %v not listed", id)
	return nil
}

// Issue 19 (a): one 12,50 € sale reversed three times. The first storno
// is recorded; the others are 409 already_cancelled and record nothing;
// the day's closing is 0,00 €, and the sale names its storno.
func TestStornoOfOneSaleThreeTimes(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, orig := e.sell(t, sale("KASSE-01", 1250), e.adminToken)
	status, sto := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 1250, orig["id"]), e.adminToken)
	if status != http.StatusCreated || sto["cancels"] != orig["id"] || sto["cancelled_by"] != nil {
		t.Fatalf("storno %d %v", status, sto)
	}
	for range 2 {
		rec := e.do(t, "POST", "/api/tse/transactions", stornoBody("KASSE-01", "RECEIPT", 1250, orig["id"]), e.adminToken)
		wantProblem(t, rec, http.StatusConflict, "already_cancelled")
	}
	if got := e.tx(t, orig["id"].(string)); got["cancelled_by"] != sto["id"] {
		t.Fatalf("sale %v", got)
	}
	if it := e.listed(t, orig["id"]); it["cancelled_by"] != sto["id"] || it["cancels"] != nil {
		t.Fatalf("listed sale %v", it)
	}
	if it := e.listed(t, sto["id"]); it["cancels"] != orig["id"] || it["cancelled_by"] != nil {
		t.Fatalf("listed storno %v", it)
	}
	code, body := e.closeRegister(t, e.adminToken, "KASSE-01")
	if code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	if c := body["closing"].(map[string]any); c["total"] != 0.0 || c["cash"] != 0.0 || num(c["transactions"]) != 2 {
		t.Fatalf("closing %v", c)
	}
}

// Issue 19 (b): a storno sent as an aborted transaction (CANCELLATION,
// ABORT) is refused with the way to do it, and so is a storno of
// another type than the sale's or with other amounts; nothing is
// recorded, and the proper storno then goes through.
func TestStornoMustBeAReceiptThatNegatesTheSale(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, orig := e.sell(t, sale("KASSE-01", 1250), e.adminToken)
	cases := map[string]struct {
		body  map[string]any
		field string
	}{
		"as a cancellation": {stornoBody("KASSE-01", "CANCELLATION", 1250, orig["id"]), "receipt_type"},
		"as an abort":       {stornoBody("KASSE-01", "ABORT", 1250, orig["id"]), "receipt_type"},
		"as an invoice":     {stornoBody("KASSE-01", "INVOICE", 1250, orig["id"]), "receipt_type"},
		"of part of it":     {stornoBody("KASSE-01", "RECEIPT", 1000, orig["id"]), "amounts_per_vat_rate"},
		"at another rate": {func() map[string]any {
			b := stornoBody("KASSE-01", "RECEIPT", 1250, orig["id"])
			b["amounts_per_vat_rate"] = []any{map[string]any{"vat_rate": "REDUCED_1", "amount": amountOf(-1250)}}
			return b
		}(), "amounts_per_vat_rate"},
		"of an unknown sale": {stornoBody("KASSE-01", "RECEIPT", 1250, "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"), "cancels"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			wantFieldError(t, e.do(t, "POST", "/api/tse/transactions", c.body, e.adminToken), c.field)
		})
	}
	var n int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM tse_transactions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d transactions recorded (%v)", n, err)
	}
	_, sto := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 1250, orig["id"]), e.adminToken)
	rec := e.do(t, "POST", "/api/tse/transactions", stornoBody("KASSE-01", "RECEIPT", -1250, sto["id"]), e.adminToken)
	wantFieldError(t, rec, "cancels") // a storno of the storno
}

// Issue 19 (c): sixteen tills reverse the same receipt at once: exactly
// one storno is recorded, the others get 409, and the closing counts
// the storno once.
func TestStornoRaceOverHTTP(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, orig := e.sell(t, sale("KASSE-01", 1250), e.adminToken)
	const n = 16
	codes := make([]int, n)
	problems := make([]string, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			rec := e.do(t, "POST", "/api/tse/transactions", stornoBody("KASSE-0"+strconv.Itoa(1+i%3), "RECEIPT", 1250, orig["id"]), e.adminToken)
			codes[i] = rec.Code
			var p map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &p)
			problems[i], _ = p["code"].(string)
		}()
	}
	close(start)
	wg.Wait()
	won := 0
	for i, c := range codes {
		switch {
		case c == http.StatusCreated || c == http.StatusAccepted:
			won++
		case c != http.StatusConflict || problems[i] != "already_cancelled":
			t.Errorf("storno %d: %d %s", i, c, problems[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d stornos accepted, want 1 (%v)", won, codes)
	}
	var total float64
	for _, serial := range []string{"KASSE-01", "KASSE-02", "KASSE-03"} {
		code, body := e.closeRegister(t, e.adminToken, serial)
		if code == http.StatusConflict {
			continue // this register's stornos were all refused
		}
		if code != http.StatusCreated {
			t.Fatalf("closing %s: %d %v", serial, code, body)
		}
		total += body["closing"].(map[string]any)["total"].(float64)
	}
	if total != 0 {
		t.Fatalf("the closings add up to %v, want 0", total)
	}
}

// Every combination of a sale and its stornos: the closings' totals,
// what GET /api/tse/closings shows, and the DSFinV-K export's
// transactions_vat, lines_vat, businesscases and payments agree to the
// cent (checkTotals), and the transactions show who cancelled what.
func TestStornoClosingAndExportAgree(t *testing.T) {
	type step func(t *testing.T, e *tseEnv, ids map[string]any)
	sell := func(name string, body func(ids map[string]any) map[string]any) step {
		return func(t *testing.T, e *tseEnv, ids map[string]any) {
			_, tx := e.sell(t, body(ids), e.adminToken)
			ids[name] = tx["id"]
		}
	}
	refused := func(status int, body func(ids map[string]any) map[string]any) step {
		return func(t *testing.T, e *tseEnv, ids map[string]any) {
			wantStatus(t, e.do(t, "POST", "/api/tse/transactions", body(ids), e.adminToken), status)
		}
	}
	closing := func(t *testing.T, e *tseEnv, ids map[string]any) {
		code, body := e.closeRegister(t, e.adminToken, "KASSE-01")
		if code != http.StatusCreated {
			t.Fatalf("closing %d %v", code, body)
		}
	}
	nextDay := func(t *testing.T, e *tseEnv, ids map[string]any) {
		e.advance(24 * time.Hour)
		tok, err := IssueToken(testKey, e.admin, e.clock.Now(), time.Hour) // the day's login
		if err != nil {
			t.Fatal(err)
		}
		e.adminToken = tok
	}
	theSale := sell("sale", func(map[string]any) map[string]any { return sale("KASSE-01", 1250) })
	storno := func(name string) step {
		return sell(name, func(ids map[string]any) map[string]any { return stornoBody("KASSE-01", "RECEIPT", 1250, ids["sale"]) })
	}
	again := refused(http.StatusConflict, func(ids map[string]any) map[string]any {
		return stornoBody("KASSE-01", "RECEIPT", 1250, ids["sale"])
	})
	aborted := sell("aborted", func(map[string]any) map[string]any {
		b := sale("KASSE-01", 1250)
		b["receipt_type"] = "CANCELLATION"
		return b
	})
	cancellationOfSale := refused(http.StatusUnprocessableEntity, func(ids map[string]any) map[string]any {
		return stornoBody("KASSE-01", "CANCELLATION", 1250, ids["sale"])
	})
	for _, c := range []struct {
		name      string
		steps     []step
		totals    []float64 // per closing, in order
		cancelled bool      // the sale names its storno
	}{
		{"sale alone", []step{theSale, closing}, []float64{12.5}, false},
		{"sale and storno", []step{theSale, storno("storno"), closing}, []float64{0}, true},
		{"storno the next day", []step{theSale, closing, nextDay, storno("storno"), closing}, []float64{12.5, -12.5}, true},
		{"second storno refused", []step{theSale, storno("storno"), again, again, closing}, []float64{0}, true},
		{"second storno refused in a later closing", []step{theSale, storno("storno"), closing, nextDay, again, theSale, closing}, []float64{0, 12.5}, true},
		{"aborted sale", []step{theSale, aborted, closing}, []float64{12.5}, false},
		{"cancellation naming the sale refused", []step{theSale, cancellationOfSale, closing}, []float64{12.5}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newTSEEnv(t, tseEnvOpts{})
			ids := map[string]any{}
			var firstSale any
			for _, s := range c.steps {
				s(t, e, ids)
				if firstSale == nil {
					firstSale = ids["sale"]
				}
			}
			rec := e.do(t, "GET", "/api/tse/closings?client_serial=KASSE-01", nil, e.adminToken)
			wantStatus(t, rec, http.StatusOK)
			closings := decodeJSON(t, rec)["closings"].([]any)
			if len(closings) != len(c.totals) {
				t.Fatalf("%d closings, want %d", len(closings), len(c.totals))
			}
			x := e.readExport(t, "from=2026-11-22&to=2026-11-23")
			for i, cl := range closings {
				m := cl.(map[string]any)
				if m["total"] != c.totals[i] {
					t.Errorf("closing %d total %v, want %v", i+1, m["total"], c.totals[i])
				}
				checkTotals(t, x, m)
			}
			got := e.tx(t, firstSale.(string))
			if c.cancelled != (got["cancelled_by"] != nil) || (c.cancelled && got["cancelled_by"] != ids["storno"]) {
				t.Fatalf("sale cancelled_by %v, storno %v", got["cancelled_by"], ids["storno"])
			}
			if c.cancelled {
				refs := x.rows("references.csv", "BON_ID", ids["storno"].(string))
				if len(refs) != 1 || refs[0]["REF_BON_ID"] != firstSale || refs[0]["REF_Z_NR"] != "1" {
					t.Fatalf("the storno's reference %v", refs)
				}
				if st := x.rows("transactions.csv", "BON_ID", ids["storno"].(string)); len(st) != 1 || st[0]["BON_STORNO"] != "1" || st[0]["BON_TYP"] != "Beleg" {
					t.Fatalf("the storno's record %v", st)
				}
			}
			if id, ok := ids["aborted"].(string); ok {
				if r := x.rows("transactions.csv", "BON_ID", id); len(r) != 1 || r[0]["BON_TYP"] != "AVBelegabbruch" || r[0]["BON_STORNO"] != "0" {
					t.Fatalf("the aborted sale's record %v", r)
				}
			}
		})
	}
}
