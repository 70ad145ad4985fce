package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/tse"
)

// A sale is signed within the budget: 201, the fields the receipt prints,
// and a signature that verifies with the TSS public key.
func TestTSESaleSignedAndVerifies(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	status, tx := e.sell(t, sale("KASSE-01", 2142), staffTok)
	if status != http.StatusCreated {
		t.Fatalf("status %d, want 201: %v", status, tx)
	}
	if tx["signed"] != true || tx["tse_unavailable"] != false || tx["state"] != "FINISHED" || num(tx["number"]) != 1 {
		t.Fatalf("not a signed transaction: %v", tx)
	}
	for _, k := range []string{"time_start", "time_end", "signature", "qr_code_data", "tse_serial_number", "client_id"} {
		if s, _ := tx[k].(string); s == "" {
			t.Fatalf("%s is empty: %v", k, tx)
		}
	}
	if tx["total"] != 21.42 {
		t.Fatalf("total %v, want 21.42", tx["total"])
	}
	ptx := e.providerTx(t, tx["id"].(string))
	if ptx.State != tse.TxFinished || ptx.Signature.Value != tx["signature"] || int(ptx.Signature.Counter) != num(tx["signature_counter"]) {
		t.Fatalf("API %v differs from the provider's %+v", tx, ptx)
	}
	if err := tse.VerifyTx(e.sim.PublicKey(), ptx); err != nil {
		t.Fatalf("signature does not verify: %v", err)
	}
	if !strings.Contains(ptx.ProcessData, "Beleg^21.42_0.00_0.00_0.00_0.00^21.42:Bar") {
		t.Fatalf("process data %q", ptx.ProcessData)
	}
	// The same object through GET, for any user of the restaurant.
	rec := e.do(t, "GET", "/api/tse/transactions/"+tx["id"].(string), nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	if got := decodeJSON(t, rec)["transaction"].(map[string]any); got["signature"] != tx["signature"] || got["number"] != tx["number"] {
		t.Fatalf("GET %v differs from POST %v", got, tx)
	}
	// The admin list from the mirror: [from, to] inclusive, bare array.
	at := e.clock.Now().Format(time.RFC3339)
	rec = e.do(t, "GET", "/api/tse/transactions?from="+at+"&to="+at, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if !strings.HasPrefix(rec.Body.String(), "[") || !strings.Contains(rec.Body.String(), `"signature_counter":`+strconv.Itoa(num(tx["signature_counter"]))) {
		t.Fatalf("list %s", rec.Body.String())
	}
	st := e.status(t)
	if st["healthy"] != true || st["queue_depth"] != 0.0 || st["provider"] != "simulator" {
		t.Fatalf("status %v", st)
	}
}

// Bad bodies get 422 naming the field and record nothing.
func TestTSESaleValidation(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	cases := []struct {
		name, field string
		edit        func(m map[string]any)
	}{
		{"no serial", "client_serial", func(m map[string]any) { delete(m, "client_serial") }},
		{"underscore serial", "client_serial", func(m map[string]any) { m["client_serial"] = "KASSE_01" }},
		{"slash serial", "client_serial", func(m map[string]any) { m["client_serial"] = "KASSE/01" }},
		{"long serial", "client_serial", func(m map[string]any) { m["client_serial"] = strings.Repeat("K", 71) }},
		{"padded serial", "client_serial", func(m map[string]any) { m["client_serial"] = " KASSE" }},
		{"receipt type", "receipt_type", func(m map[string]any) { m["receipt_type"] = "ANNULATION" }},
		{"no vat lines", "amounts_per_vat_rate", func(m map[string]any) { m["amounts_per_vat_rate"] = []any{} }},
		{"vat rate", "amounts_per_vat_rate[0].vat_rate", func(m map[string]any) {
			m["amounts_per_vat_rate"] = []any{map[string]any{"vat_rate": "19", "amount": 1}}
		}},
		{"three decimals", "amounts_per_vat_rate[0].amount", func(m map[string]any) {
			m["amounts_per_vat_rate"] = []any{map[string]any{"vat_rate": "NORMAL", "amount": 1.005}}
		}},
		{"amount as string", "amounts_per_vat_rate.amount", func(m map[string]any) {
			m["amounts_per_vat_rate"] = []any{map[string]any{"vat_rate": "NORMAL", "amount": "21.42"}}
		}},
		{"payment type", "amounts_per_payment_type[0].payment_type", func(m map[string]any) {
			m["amounts_per_payment_type"] = []any{map[string]any{"payment_type": "CARD", "amount": 21.42}}
		}},
		{"payments differ", "amounts_per_payment_type", func(m map[string]any) {
			m["amounts_per_payment_type"] = []any{map[string]any{"payment_type": "CASH", "amount": 20}}
		}},
		{"currency", "amounts_per_payment_type[0].currency_code", func(m map[string]any) {
			m["amounts_per_payment_type"] = []any{map[string]any{"payment_type": "CASH", "amount": 21.42, "currency_code": "eur"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := sale("KASSE-01", 2142)
			c.edit(body)
			wantFieldError(t, e.do(t, "POST", "/api/tse/transactions", body, e.adminToken), c.field)
		})
	}
	wantProblem(t, e.do(t, "POST", "/api/tse/transactions", `{"client_serial":"K","extra":1}`, e.adminToken), 400, eUnknownField)
	wantProblem(t, e.do(t, "POST", "/api/tse/transactions", sale("K", 1), ""), 401, eUnauthenticated)
	q := e.queue(t)
	if q["pending"] != 0.0 || len(q["items"].([]any)) != 0 {
		t.Fatalf("a rejected sale was queued: %v", q)
	}
	rec := e.do(t, "GET", "/api/tse/transactions?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z", nil, e.adminToken)
	if rec.Body.String() != "[]\n" {
		t.Fatalf("list %s", rec.Body.String())
	}
	// The list's own 422 rules.
	wantFieldError(t, e.do(t, "GET", "/api/tse/transactions?to=2026-11-23T00:00:00Z", nil, e.adminToken), "from")
	wantFieldError(t, e.do(t, "GET", "/api/tse/transactions?from=2026-11-22T00:00:00&to=2026-11-23T00:00:00Z", nil, e.adminToken), "from")
	wantFieldError(t, e.do(t, "GET", "/api/tse/transactions?from=2026-11-24T00:00:00Z&to=2026-11-23T00:00:00Z", nil, e.adminToken), "from")
	_, staffTok := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "GET", "/api/tse/queue", nil, staffTok), 403, eForbidden)
}

// A retried POST with the same Idempotency-Key answers the first answer
// and makes no second fiscal transaction, also when the retries race.
func TestTSEIdempotencyKey(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	first := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 500), e.adminToken, "Idempotency-Key", "k-1")
	wantStatus(t, first, http.StatusCreated)
	again := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 500), e.adminToken, "Idempotency-Key", "k-1")
	if again.Code != first.Code || again.Body.String() != first.Body.String() {
		t.Fatalf("retry answered %d %s, first %d %s", again.Code, again.Body.String(), first.Code, first.Body.String())
	}
	wantProblem(t, e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 501), e.adminToken, "Idempotency-Key", "k-1"),
		http.StatusUnprocessableEntity, "idempotency_key_reused")

	var wg sync.WaitGroup
	bodies := make([]string, 12)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-02", 700), e.adminToken, "Idempotency-Key", "k-2")
			bodies[i] = strconv.Itoa(rec.Code) + rec.Body.String()
		}()
	}
	wg.Wait()
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatalf("concurrent duplicates answered differently:\n%s\n%s", bodies[0], b)
		}
	}
	page, err := e.sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 {
		t.Fatalf("provider has %d transactions, want 2", page.Count)
	}
}

// Terminals selling at once: every sale signed, numbers gap-free in the
// order the sales were recorded, each terminal registered once.
func TestTSEConcurrentTerminalsKeepOrder(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	const terminals, each = 4, 8
	var wg sync.WaitGroup
	for k := range terminals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				rec := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-0"+strconv.Itoa(k+1), 100+i), e.adminToken)
				if rec.Code != http.StatusCreated {
					t.Errorf("terminal %d sale %d: %d %s", k, i, rec.Code, rec.Body.String())
				}
			}
		}()
	}
	wg.Wait()
	// The order the sales were recorded is the order of their start jobs.
	rows, err := e.st.ReadDB().Query(`SELECT t.number, t.state FROM tse_jobs j JOIN tse_transactions t ON t.tx_id = j.tx_id
		WHERE j.revision = 1 ORDER BY j.seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := 1
	for rows.Next() {
		var n int
		var state string
		if err := rows.Scan(&n, &state); err != nil {
			t.Fatal(err)
		}
		if n != want || state != "FINISHED" {
			t.Fatalf("sale %d got number %d state %s", want, n, state)
		}
		want++
	}
	if want-1 != terminals*each {
		t.Fatalf("%d sales signed, want %d", want-1, terminals*each)
	}
	clients, err := e.st.TSEClients(context.Background(), e.tssID)
	if err != nil || len(clients) != terminals {
		t.Fatalf("clients %v %v", clients, err)
	}
}
