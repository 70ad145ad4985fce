package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"posbox/discount"
	"posbox/store"
)

// makeCodes posts a batch as the admin, wants 201 and returns its codes.
func (e *testEnv) makeCodes(tb testing.TB, discountID, body string) []string {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/discounts/"+discountID+"/code-batches", body, e.adminToken)
	wantStatus(tb, rec, http.StatusCreated)
	var out struct {
		Batch struct {
			Codes []struct {
				Code string `json:"code"`
			} `json:"codes"`
		} `json:"batch"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		tb.Fatal(err)
	}
	codes := make([]string, 0, len(out.Batch.Codes))
	for _, c := range out.Batch.Codes {
		codes = append(codes, c.Code)
	}
	return codes
}

// TestCodeBatch: a batch makes count distinct codes of the alphabet,
// shown with their uses; bad sizes are 422, a foreign discount 404.
func TestCodeBatch(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	id := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	if got := e.getDiscount(t, id)["requires_code"]; got != true {
		t.Fatalf("requires_code %v, want true", got)
	}
	codes := e.makeCodes(t, id, `{"count":50,"uses_per_code":3,"once_per_guest":true}`)
	seen := map[string]bool{}
	for _, c := range codes {
		if n, ok := discount.Normalize(c); !ok || n != c || seen[c] {
			t.Fatalf("code %q: not a fresh normalised code", c)
		}
		seen[c] = true
	}
	if len(codes) != 50 {
		t.Fatalf("%d codes, want 50", len(codes))
	}
	rec := e.do(t, "GET", "/api/discounts/"+id+"/codes", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	list := jsonNumbers(t, rec.Body.Bytes())["codes"].([]any)
	if len(list) != 50 {
		t.Fatalf("%d codes listed, want 50", len(list))
	}
	first := list[0].(map[string]any)
	if first["uses"] != json.Number("0") || first["max_uses"] != json.Number("3") || first["once_per_guest"] != true || first["last_used_at"] != nil {
		t.Fatalf("listed code %v", first)
	}
	for _, tc := range []struct{ body, field string }{
		{`{"count":0}`, "count"}, {`{"count":1001}`, "count"}, {`{}`, "count"},
		{`{"count":1,"uses_per_code":0}`, "uses_per_code"}, {`{"count":1,"uses_per_code":1001}`, "uses_per_code"},
	} {
		p := wantProblem(t, e.do(t, "POST", "/api/discounts/"+id+"/code-batches", tc.body, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
		if f := p["errors"].([]any)[0].(map[string]any)["field"]; f != tc.field {
			t.Errorf("%s: field %v, want %s", tc.body, f, tc.field)
		}
	}
	wantProblem(t, e.do(t, "POST", "/api/discounts/"+store.NewID()+"/code-batches", `{"count":1}`, e.adminToken), http.StatusNotFound, store.ENotFound)
	_, staff := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "POST", "/api/discounts/"+id+"/code-batches", `{"count":1}`, staff), http.StatusForbidden)
	wantStatus(t, e.do(t, "GET", "/api/discounts/"+id+"/codes", nil, staff), http.StatusForbidden)
}

// TestRedeemWithCode: the rules at the till, one by one.
func TestRedeemWithCode(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	other := e.createDiscount(t, `{"name":"Other","discount_type":"fixed","value":1}`)["id"].(string)
	code := e.makeCodes(t, id, `{"count":1,"uses_per_code":2}`)[0]
	otherCode := e.makeCodes(t, other, `{"count":1}`)[0]

	wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusUnprocessableEntity, store.EDiscountCodeRequired)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"ABCD-EFGH"}`, staff), http.StatusUnprocessableEntity, store.EDiscountCodeInvalid)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"not a code at all"}`, staff), http.StatusUnprocessableEntity, store.EDiscountCodeInvalid)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"`+otherCode+`"}`, staff), http.StatusUnprocessableEntity, store.EDiscountCodeInvalid)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"guest_ref":"T12"}`, staff), http.StatusUnprocessableEntity, store.EValidation)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"`+code+`","guest_ref":""}`, staff), http.StatusUnprocessableEntity, store.EValidation)

	// Any case, with or without the hyphen, with spaces.
	typed := strings.ToLower(strings.Replace(code, "-", " ", 1))
	rec := e.redeem(t, id, `{"order_total":10,"code":"`+typed+`"}`, staff)
	wantStatus(t, rec, http.StatusOK)
	red := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any)
	if c := red["code"].(map[string]any); c["code"] != code || c["uses"] != json.Number("1") || c["max_uses"] != json.Number("2") {
		t.Fatalf("redemption's code %v", c)
	}
	wantStatus(t, e.redeem(t, id, `{"order_total":10,"code":"`+strings.ReplaceAll(code, "-", "")+`"}`, staff), http.StatusOK)
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"`+code+`"}`, staff), http.StatusConflict, store.EDiscountCodeUsedUp)
	if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions WHERE discount_id = ? AND code = ?`, id, code); n != 2 {
		t.Fatalf("%d redemptions record the code, want 2", n)
	}
	// A refusal counts nothing: the discount's count is the two uses.
	if got := e.getDiscount(t, id)["usage_count"]; got != json.Number("2") {
		t.Fatalf("usage_count %v, want 2", got)
	}
	// A discount without requires_code still takes and counts its code.
	wantStatus(t, e.redeem(t, other, `{"order_total":10}`, staff), http.StatusOK)
	wantStatus(t, e.redeem(t, other, `{"order_total":10,"code":"`+otherCode+`"}`, staff), http.StatusOK)
	wantProblem(t, e.redeem(t, other, `{"order_total":10,"code":"`+otherCode+`"}`, staff), http.StatusConflict, store.EDiscountCodeUsedUp)
	// Switching the requirement off and on.
	wantStatus(t, e.do(t, "PUT", "/api/discounts/"+id, `{"requires_code":false}`, e.adminToken), http.StatusOK)
	wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
	wantProblem(t, e.do(t, "PUT", "/api/discounts/"+id, `{"requires_code":null}`, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
}

// TestRedeemCodeOncePerGuest: a once-per-guest code needs the guest's
// reference and takes each guest once, up to its uses.
func TestRedeemCodeOncePerGuest(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Club","discount_type":"percentage","value":10,"requires_code":true}`)["id"].(string)
	code := e.makeCodes(t, id, `{"count":1,"uses_per_code":3,"once_per_guest":true}`)[0]
	body := func(guest string) string {
		return `{"order_total":10,"code":"` + code + `","guest_ref":"` + guest + `"}`
	}
	wantProblem(t, e.redeem(t, id, `{"order_total":10,"code":"`+code+`"}`, staff), http.StatusUnprocessableEntity, store.EValidation)
	wantStatus(t, e.redeem(t, id, body("Karte 17"), staff), http.StatusOK)
	wantProblem(t, e.redeem(t, id, body("Karte 17"), staff), http.StatusConflict, store.EDiscountCodeGuestUsed)
	wantStatus(t, e.redeem(t, id, body("Karte 18"), staff), http.StatusOK)
	wantStatus(t, e.redeem(t, id, body("Karte 19"), staff), http.StatusOK)
	wantProblem(t, e.redeem(t, id, body("Karte 20"), staff), http.StatusConflict, store.EDiscountCodeUsedUp)
	// The refused guest use left no trace: three uses, three guests.
	if n := e.countRows(t, `SELECT uses FROM discount_codes WHERE code = ?`, code); n != 3 {
		t.Fatalf("uses %d, want 3", n)
	}
	if n := e.countRows(t, `SELECT count(*) FROM discount_code_guest_uses`); n != 3 {
		t.Fatalf("%d guest uses, want 3", n)
	}
	wantProblem(t, e.redeem(t, id, body(strings.Repeat("x", 101)), staff), http.StatusUnprocessableEntity, store.EValidation)
}

// TestRedeemCodeIdempotent: a retry with the key answers the first
// redemption without using the code again; the same key with another
// code or guest is another request.
func TestRedeemCodeIdempotent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	codes := e.makeCodes(t, id, `{"count":2,"once_per_guest":true}`)
	body := `{"order_total":10,"code":"` + codes[0] + `","guest_ref":"A"}`
	first := e.do(t, "POST", "/api/discounts/"+id+"/redeem", body, staff, "Idempotency-Key", "k1")
	wantStatus(t, first, http.StatusOK)
	again := e.do(t, "POST", "/api/discounts/"+id+"/redeem", body, staff, "Idempotency-Key", "k1")
	wantStatus(t, again, http.StatusOK)
	if !bytes.Equal(first.Body.Bytes(), again.Body.Bytes()) {
		t.Fatalf("retry answered %s, first %s", again.Body, first.Body)
	}
	for _, other := range []string{
		`{"order_total":10,"code":"` + codes[1] + `","guest_ref":"A"}`,
		`{"order_total":10,"code":"` + codes[0] + `","guest_ref":"B"}`,
	} {
		wantProblem(t, e.do(t, "POST", "/api/discounts/"+id+"/redeem", other, staff, "Idempotency-Key", "k1"),
			http.StatusUnprocessableEntity, store.EIdempotencyKeyReused)
	}
	if n := e.countRows(t, `SELECT uses FROM discount_codes WHERE code = ?`, codes[0]); n != 1 {
		t.Fatalf("uses %d, want 1", n)
	}
}

// TestRedeemCodeConcurrent: 64 terminals redeem one code at once. A
// single-use code is redeemed exactly once, a code of 3 uses exactly
// three times, a once-per-guest code by one guest once; every other
// terminal hears why.
func TestRedeemCodeConcurrent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tokens := make([]string, 8)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	const terminals = 64
	id := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	for _, tc := range []struct {
		name, batch string
		guest       func(i int) string
		want        map[string]int
	}{
		{"SingleUse", `{"count":1}`, nil,
			map[string]int{"200 ": 1, "409 " + store.EDiscountCodeUsedUp: terminals - 1}},
		{"ThreeUses", `{"count":1,"uses_per_code":3}`, nil,
			map[string]int{"200 ": 3, "409 " + store.EDiscountCodeUsedUp: terminals - 3}},
		{"OneGuest", `{"count":1,"uses_per_code":1000,"once_per_guest":true}`, func(int) string { return "Karte 7" },
			map[string]int{"200 ": 1, "409 " + store.EDiscountCodeGuestUsed: terminals - 1}},
		{"FourGuests", `{"count":1,"uses_per_code":1000,"once_per_guest":true}`, func(i int) string { return fmt.Sprint("Karte ", i%4) },
			map[string]int{"200 ": 4, "409 " + store.EDiscountCodeGuestUsed: terminals - 4}},
	} {
		code := e.makeCodes(t, id, tc.batch)[0]
		before := e.redemptions(t, id)
		got, _ := redeemAtOnce(t, e, id, tokens, terminals, func(i int) string {
			// Each terminal types it its own way.
			typed := code
			if i%2 == 1 {
				typed = strings.ToLower(code)
			}
			if tc.guest != nil {
				return `{"order_total":10,"code":"` + typed + `","guest_ref":"` + tc.guest(i) + `"}`
			}
			return `{"order_total":10,"code":"` + typed + `"}`
		})
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: answers %v, want %v", tc.name, got, tc.want)
		}
		if n := e.redemptions(t, id) - before; n != tc.want["200 "] {
			t.Errorf("%s: %d redemptions stored, want %d", tc.name, n, tc.want["200 "])
		}
		if n := e.countRows(t, `SELECT uses FROM discount_codes WHERE code = ?`, code); n != tc.want["200 "] {
			t.Errorf("%s: the code's uses %d, want %d", tc.name, n, tc.want["200 "])
		}
	}
}

// TestRedeemCodeAndUsageLimit: 64 terminals with 64 single-use codes of
// a discount allowed 10 uses: exactly 10 redemptions, and the 54 refused
// codes stay unused.
func TestRedeemCodeAndUsageLimit(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tokens := make([]string, 4)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	id := e.createDiscount(t, `{"name":"Ten","discount_type":"fixed","value":5,"requires_code":true,"usage_limit":10}`)["id"].(string)
	codes := e.makeCodes(t, id, `{"count":64}`)
	got, _ := redeemAtOnce(t, e, id, tokens, 64, func(i int) string { return `{"order_total":10,"code":"` + codes[i] + `"}` })
	if want := map[string]int{"200 ": 10, "409 " + store.EUsageLimitReached: 54}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("answers %v, want %v", got, want)
	}
	if n := e.countRows(t, `SELECT coalesce(sum(uses), 0) FROM discount_codes WHERE discount_id = ?`, id); n != 10 {
		t.Fatalf("%d code uses, want 10", n)
	}
}

// TestDiscountCodesCSVAndPrint: the file opens in a German Excel and
// the page lists every code in German.
func TestDiscountCodesCSVAndPrint(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Flyer <Herbst>","discount_type":"percentage","value":12.5,"requires_code":true}`)["id"].(string)
	codes := e.makeCodes(t, id, `{"count":3,"uses_per_code":2}`)
	wantStatus(t, e.redeem(t, id, `{"order_total":10,"code":"`+codes[1]+`"}`, staff), http.StatusOK)

	rec := e.do(t, "GET", "/api/discounts/"+id+"/codes.csv", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	body := rec.Body.String()
	if !strings.HasPrefix(body, "\ufeffCode;Charge vom;Eingelöst;Einlösungen höchstens;Einmal je Gast;Zuletzt eingelöst\r\n") {
		t.Fatalf("CSV head %q", body[:min(len(body), 120)])
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	// 09:00 UTC is 10:00 in Berlin.
	if !strings.Contains(body, codes[1]+";22.11.2026 10:00;1;2;nein;22.11.2026 10:00\r\n") ||
		!strings.Contains(body, codes[0]+";22.11.2026 10:00;0;2;nein;\r\n") {
		t.Fatalf("CSV rows:\n%s", body)
	}
	if lines := strings.Count(body, "\r\n"); lines != 4 {
		t.Fatalf("%d lines, want a head and 3 codes", lines)
	}
	en := e.do(t, "GET", "/api/discounts/"+id+"/codes.csv?lang=en", nil, e.adminToken).Body.String()
	if !strings.HasPrefix(en, "\ufeffCode;Batch of;Used;Uses at most;Once per guest;Last used\r\n") {
		t.Fatalf("English head %q", en[:60])
	}

	rec = e.do(t, "GET", "/api/discounts/"+id+"/codes/print", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	for _, want := range []string{`<html lang="de">`, "Rabattcodes: Flyer &lt;Herbst&gt;", "12,5 %", "ab 22.11.2026, 10:00 Uhr, ohne Ende",
		codes[0], codes[1], codes[2], "1 von 2", "0 von 2", `href="/assets/print.css"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if rec.Header().Get("Content-Security-Policy") == "" || strings.Contains(page, "<script") {
		t.Fatal("the page must carry the CSP and no script")
	}
	wantStatus(t, e.do(t, "GET", "/api/discounts/"+id+"/codes/print", nil, staff), http.StatusForbidden)
	wantProblem(t, e.do(t, "GET", "/api/discounts/"+id+"/codes?batch=x", nil, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
	wantProblem(t, e.do(t, "GET", "/api/discounts/"+id+"/codes?batch="+store.NewID(), nil, e.adminToken), http.StatusNotFound, store.ENotFound)
}

// TestDeleteDiscountWithCodes: the codes go with the discount; its
// redemptions keep the code's text.
func TestDeleteDiscountWithCodes(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	code := e.makeCodes(t, id, `{"count":2,"once_per_guest":true}`)[0]
	wantStatus(t, e.redeem(t, id, `{"order_total":10,"code":"`+code+`","guest_ref":"G"}`, staff), http.StatusOK)
	wantStatus(t, e.do(t, "DELETE", "/api/discounts/"+id, nil, e.adminToken), http.StatusNoContent)
	if n := e.countRows(t, `SELECT count(*) FROM discount_codes`) + e.countRows(t, `SELECT count(*) FROM discount_code_batches`) +
		e.countRows(t, `SELECT count(*) FROM discount_code_guest_uses`); n != 0 {
		t.Fatalf("%d code rows left", n)
	}
	if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions WHERE code = ?`, code); n != 1 {
		t.Fatalf("the redemption lost its code")
	}
}
