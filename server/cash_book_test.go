package server

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
)

// book posts a cash movement and returns the movement; status must be 201.
func (e *tseEnv) book(tb testing.TB, token string, body map[string]any) map[string]any {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/cash/movements", body, token)
	wantStatus(tb, rec, http.StatusCreated)
	return decodeJSON(tb, rec)["movement"].(map[string]any)
}

// expected is a register's expected cash as the API shows it ("" for
// none).
func (e *tseEnv) expected(tb testing.TB, serial string) string {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/cash/registers", nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	for _, r := range jsonNumbers(tb, rec.Body.Bytes())["registers"].([]any) {
		reg := r.(map[string]any)
		if reg["client_serial"] == serial {
			if reg["expected"] == nil {
				return ""
			}
			return string(reg["expected"].(json.Number))
		}
	}
	return "no register"
}

// The cash book from the till's and the owner's side: the expected cash
// begins with the float, follows cash sales and movements but not card
// sales; staff book the float and tip payouts only; an expense needs its
// reason and receipt; a movement is reversed once by a counter-entry; a
// count books its difference, signed.
func TestCashBookMovementsAndCount(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	e.sell(t, sale("KASSE-01", 1000), staffTok) // before the book begins: not in it
	if got := e.expected(t, "KASSE-01"); got != "" {
		t.Fatalf("expected before the book began %q", got)
	}
	wantProblem(t, e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01", "counted": json.Number("10")}, staffTok),
		http.StatusConflict, "cash_book_not_started")

	float := e.book(t, staffTok, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("150.00")})
	if float["amount"] != 150.0 || float["business_case"] != "Anfangsbestand" || float["number"] != 1.0 || float["signed"] != true {
		t.Fatalf("float %v", float)
	}
	e.sell(t, sale("KASSE-01", 2390), staffTok)
	card := sale("KASSE-01", 4000)
	card["amounts_per_payment_type"] = []any{map[string]any{"payment_type": "NON_CASH", "amount": json.Number("40.00")}}
	e.sell(t, card, staffTok)
	if got := e.expected(t, "KASSE-01"); got != "173.9" {
		t.Fatalf("expected after float and sales %q, want 173.9", got)
	}

	wantProblem(t, e.do(t, "POST", "/api/cash/movements", map[string]any{"client_serial": "KASSE-01", "kind": "transfer_out",
		"amount": json.Number("100")}, staffTok), http.StatusForbidden, "forbidden")
	p := wantProblem(t, e.do(t, "POST", "/api/cash/movements", map[string]any{"client_serial": "KASSE-01", "kind": "expense",
		"amount": json.Number("-3"), "reason": " "}, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
	if n := len(p["errors"].([]any)); n != 3 {
		t.Fatalf("expense errors %v", p["errors"])
	}
	e.book(t, staffTok, map[string]any{"client_serial": "KASSE-01", "kind": "tip_payout", "amount": json.Number("4.00"), "reason": "Sam"})
	drop := e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "transfer_out", "amount": json.Number("100.00")})
	exp := e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "expense", "amount": json.Number("12.49"),
		"reason": "Zitronen", "voucher_no": "R-77"})
	if exp["amount"] != -12.49 || drop["amount"] != -100.0 {
		t.Fatalf("signs %v %v", exp["amount"], drop["amount"])
	}
	// 150 + 23.90 - 4 - 100 - 12.49
	if got := e.expected(t, "KASSE-01"); got != "57.41" {
		t.Fatalf("expected %q, want 57.41", got)
	}

	// Reversal: admins only, once, with a reason; it books the opposite.
	path := "/api/cash/movements/" + exp["id"].(string) + "/reverse"
	wantStatus(t, e.do(t, "POST", path, map[string]any{"reason": "falsch"}, staffTok), http.StatusForbidden)
	wantProblem(t, e.do(t, "POST", path, map[string]any{}, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
	rec := e.do(t, "POST", path, map[string]any{"reason": "doppelt gebucht"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	rev := decodeJSON(t, rec)["movement"].(map[string]any)
	if rev["amount"] != 12.49 || rev["reverses"] != exp["id"] || rev["kind"] != "expense" {
		t.Fatalf("reversal %v", rev)
	}
	wantProblem(t, e.do(t, "POST", path, map[string]any{"reason": "nochmal"}, e.adminToken), http.StatusConflict, "already_cancelled")
	if got := e.expected(t, "KASSE-01"); got != "69.9" {
		t.Fatalf("expected after the reversal %q, want 69.9", got)
	}

	// A count by denomination: 50 + 10 + 5 + 2 × 2 + 0.50 = 69.50, 0.40 short.
	rec = e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01",
		"denominations": map[string]any{"50.00": 1, "10": 1, "5.00": 1, "2.00": 2, "0.50": 1, "0.20": 0}}, staffTok)
	wantStatus(t, rec, http.StatusCreated)
	c := jsonNumbers(t, rec.Body.Bytes())["count"].(map[string]any)
	if c["expected"] != json.Number("69.9") || c["counted"] != json.Number("69.5") || c["difference"] != json.Number("-0.4") ||
		c["difference_movement"] == nil || c["number"] != json.Number("1") {
		t.Fatalf("count %v", c)
	}
	if got := e.expected(t, "KASSE-01"); got != "69.5" {
		t.Fatalf("expected after the count %q", got)
	}
	wantProblem(t, e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01",
		"denominations": map[string]any{"3.00": 1}}, staffTok), http.StatusUnprocessableEntity, "validation_failed")
	// A count that matches books no difference.
	rec = e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01", "counted": json.Number("69.50")}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	if c := decodeJSON(t, rec)["count"].(map[string]any); c["difference"] != 0.0 || c["difference_movement"] != nil {
		t.Fatalf("matching count %v", c)
	}

	rec = e.do(t, "GET", "/api/cash/movements?client_serial=KASSE-01", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	ms := decodeJSON(t, rec)["movements"].([]any)
	var kinds []string
	for i, m := range ms {
		mm := m.(map[string]any)
		if mm["number"] != float64(i+1) {
			t.Fatalf("movement %d numbered %v", i, mm["number"])
		}
		kinds = append(kinds, mm["kind"].(string))
	}
	if want := "opening_float tip_payout transfer_out expense expense difference"; joinStr(kinds) != want {
		t.Fatalf("movements %q, want %q", joinStr(kinds), want)
	}
}

func joinStr(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out
}

// Two counts of one drawer at once book one difference: the other is
// refused (cash_changed) and books nothing; the movements stay gap-free.
func TestCashCountsAtOnceBookOneDifference(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("100")})
	const n = 8
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01", "counted": json.Number("95")}, e.adminToken).Code
		}()
	}
	wg.Wait()
	created := 0
	for _, c := range codes {
		switch c {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			t.Fatalf("count answered %d", c)
		}
	}
	rec := e.do(t, "GET", "/api/cash/counts", nil, e.adminToken)
	var diffs int
	var sum float64
	for _, c := range decodeJSON(t, rec)["counts"].([]any) {
		cc := c.(map[string]any)
		if cc["difference"] != 0.0 {
			diffs++
			sum += cc["difference"].(float64)
		}
	}
	if diffs != 1 || sum != -5 || created < 1 {
		t.Fatalf("%d counts booked, %d with a difference summing %v; want exactly one of -5", created, diffs, sum)
	}
	if got := e.expected(t, "KASSE-01"); got != "95" {
		t.Fatalf("expected %q, want 95", got)
	}
}

// A movement sent again with its Idempotency-Key (the till lost the
// answer) is booked once; the key with another amount is refused.
func TestCashMovementIdempotent(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	body := map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("80.00")}
	first := e.do(t, "POST", "/api/cash/movements", body, e.adminToken, "Idempotency-Key", "float-1")
	again := e.do(t, "POST", "/api/cash/movements", body, e.adminToken, "Idempotency-Key", "float-1")
	wantStatus(t, first, http.StatusCreated)
	wantStatus(t, again, http.StatusCreated)
	if a, b := decodeJSON(t, first)["movement"].(map[string]any)["id"], decodeJSON(t, again)["movement"].(map[string]any)["id"]; a != b {
		t.Fatalf("the retry booked a second movement: %v and %v", a, b)
	}
	body["amount"] = json.Number("90.00")
	wantProblem(t, e.do(t, "POST", "/api/cash/movements", body, e.adminToken, "Idempotency-Key", "float-1"),
		http.StatusUnprocessableEntity, "idempotency_key_reused")
	if got := e.expected(t, "KASSE-01"); got != "80" {
		t.Fatalf("expected %q, want 80", got)
	}
}

// A reversal sent again with its key gets its first answer; without the
// key, a second reversal is refused; either way one counter-entry.
func TestCashReversalIdempotent(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	m := e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "deposit", "amount": json.Number("20.00")})
	path := "/api/cash/movements/" + m["id"].(string) + "/reverse"
	first := e.do(t, "POST", path, map[string]any{"reason": "Irrtum"}, e.adminToken, "Idempotency-Key", "rev-1")
	again := e.do(t, "POST", path, map[string]any{"reason": "Irrtum"}, e.adminToken, "Idempotency-Key", "rev-1")
	wantStatus(t, first, http.StatusCreated)
	wantStatus(t, again, http.StatusCreated)
	if a, b := decodeJSON(t, first)["movement"].(map[string]any)["id"], decodeJSON(t, again)["movement"].(map[string]any)["id"]; a != b {
		t.Fatalf("the retry booked a second counter-entry: %v and %v", a, b)
	}
	wantProblem(t, e.do(t, "POST", path, map[string]any{"reason": "Irrtum"}, e.adminToken, "Idempotency-Key", "rev-2"),
		http.StatusConflict, "already_cancelled")
	if got := e.expected(t, "KASSE-01"); got != "0" {
		t.Fatalf("expected %q after one reversal, want 0", got)
	}
	wantProblem(t, e.do(t, "POST", "/api/cash/movements", map[string]any{"client_serial": "KASSE_01", "kind": "deposit",
		"amount": json.Number("1")}, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
}
