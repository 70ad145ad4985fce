package server

// Fuzz targets for every route that reads a JSON body: the real handler
// on a real store in a temp dir. Whatever the body, the answer is never a
// 5xx (nor a panic), and every 4xx is problem+json with a status and a
// code. `make fuzz` runs each for FUZZTIME; `make test` runs the seeds.

import (
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fuzzTarget is one route under fuzzing: the env, the path (fresh ids
// when the route needs them) and the caller's token.
type fuzzTarget struct {
	e      *testEnv
	method string
	path   func(tb testing.TB) string
	token  string
	before func(tb testing.TB) // per input, e.g. clock in before a clock-out
}

// commonSeeds are bodies every route must refuse cleanly.
var commonSeeds = []string{"", "{}", "null", "[]", "x", `{"a":1}`, "{\"name\":\"\xff\"}", `{"`, "0", `""`,
	strings.Repeat("[", 10000), `{"value":1e400}`, `{"name":"a","name":"b"}`}

// minimizeTime bounds how long a fuzz worker minimizes an input that
// found new coverage (go test's default is 60 s). Minimizing a body is
// quadratic in its length (minimizeBytes tries every byte range) and
// almost every candidate breaks the JSON, so it runs to the limit: a
// 500-800-byte sale body took 15-60 s of both workers (the TSE sale
// handler runs ~8k bodies/s per worker), while the coordinator showed
// "0/sec" and a 10 s run seemed stuck. The handler never was: no body
// took over 100 ms. An explicit -fuzzminimizetime wins.
const minimizeTime = "3s"

// fuzzRoute runs the target on every input as a JSON body and holds the
// answer to the error contract.
func fuzzRoute(f *testing.F, tg fuzzTarget, seeds ...string) {
	defaultMinimizeTime(f)
	for _, s := range append(seeds, commonSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if tg.before != nil {
			tg.before(t)
		}
		req := httptest.NewRequest(tg.method, tg.path(t), strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tg.token)
		rec := httptest.NewRecorder()
		tg.e.h.ServeHTTP(rec, req)
		checkFuzzAnswer(t, body, rec)
	})
}

// checkFuzzAnswer: no 5xx; a 4xx is problem+json naming its status and a
// code.
func checkFuzzAnswer(t *testing.T, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("body %q: status %d: %s", body, rec.Code, rec.Body.String())
	}
	if rec.Code < 400 {
		return
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("body %q: status %d with Content-Type %q: %s", body, rec.Code, ct, rec.Body.String())
	}
	var p struct {
		Status int    `json:"status"`
		Code   string `json:"code"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Code == "" {
		t.Fatalf("body %q: status %d, problem %s (%v)", body, rec.Code, rec.Body.String(), err)
	}
}

// defaultMinimizeTime sets -test.fuzzminimizetime to minimizeTime unless
// the command line set it; testing reads it when f.Fuzz starts fuzzing.
func defaultMinimizeTime(f *testing.F) {
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", minimizeTime); err != nil {
			f.Fatal(err)
		}
	}
}

func fixed(p string) func(testing.TB) string { return func(testing.TB) string { return p } }

// created posts body as the admin and returns the new object's id.
func (e *testEnv) created(tb testing.TB, path, key string, body any) string {
	tb.Helper()
	rec := e.do(tb, "POST", path, body, e.adminToken)
	wantStatus(tb, rec, http.StatusCreated)
	return decodeJSON(tb, rec)[key].(map[string]any)["id"].(string)
}

func FuzzLogin(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/auth/login")},
		`{"email":"admin@test.local","password":"password1"}`, `{"email":"admin@test.local","password":"wrong"}`,
		`{"email":"admin@test.local"}`, `{"email":1,"password":true}`,
		`{"staff_number":"K-7","pin":"4711"}`, `{"staff_number":"K-7","pin":"47a1","restaurant_id":"x"}`, `{"staff_number":"1","pin":"1234","email":"a@b.c"}`)
}

func FuzzCreateUser(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/users"), token: e.adminToken},
		`{"email":"sam@example.com","name":"Sam Weber","role":"staff","password":"correct-horse"}`,
		`{"email":"ada@example.com","name":"Ada","role":"admin","password":"correct-horse","is_active":false}`,
		`{"email":"x","name":"","role":"chef","password":"1"}`,
		`{"name":"Kim","role":"staff","staff_number":"K-7","pin":"4711"}`, `{"name":"Kim","role":"admin","staff_number":"K-7","pin":"12"}`)
}

func FuzzUpdateUser(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/users/" + u.ID), token: e.adminToken},
		`{"name":"Sam Weber-Krause"}`, `{"is_active":false}`, `{"is_active":true,"role":"admin"}`,
		`{"password":"another-horse"}`, `{"email":"admin@test.local"}`, `{"name":null}`)
}

func FuzzClockOut(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Sam Staff")
	before := func(tb testing.TB) {
		req := httptest.NewRequest("POST", "/api/shifts/clock-in", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		e.h.ServeHTTP(httptest.NewRecorder(), req) // 201, or 409 when still in
		e.clock.Add(2 * time.Hour)
	}
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/shifts/clock-out"), token: tok, before: before},
		`{"break_minutes": 1}`, `{"break_minutes": 90}`, `{"break_minutes":1.5}`, `{"break_minutes":-1}`, `{"break_minutes":null}`)
}

func shiftSeeds(userID string) []string {
	return []string{
		`{"user_id":"` + userID + `","shift_date":"2026-11-27","start_time":"18:00","end_time":"02:00","break_minutes":30,"role":"bar","notes":"Friday late"}`,
		`{"user_id":"` + userID + `","shift_date":"2026-03-29","start_time":"02:30","end_time":"03:00"}`,
		`{"user_id":"` + userID + `","shift_date":"2026-11-31","start_time":"9:00","end_time":"18:00"}`,
		`{"user_id":"` + userID + `","shift_date":"2026-11-30","start_time":"09:00","end_time":"09:00","break_minutes":-5}`,
		`{"shift_date":"2026-11-27","start_time":"17:00","end_time":"19:00"}`, `{"end_time":"01:30","notes":null}`,
		`{"start_time":null}`, `{"status":"confirmed"}`,
	}
}

func FuzzCreateShift(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/shifts"), token: e.adminToken}, shiftSeeds(u.ID)...)
}

func FuzzUpdateShift(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	id := e.created(f, "/api/shifts", "shift", map[string]any{"user_id": u.ID, "shift_date": "2026-11-27", "start_time": "18:00", "end_time": "22:00"})
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/shifts/" + id), token: e.adminToken}, shiftSeeds(u.ID)...)
}

func FuzzSetShiftStatus(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	id := e.created(f, "/api/shifts", "shift", map[string]any{"user_id": u.ID, "shift_date": "2026-11-27", "start_time": "18:00", "end_time": "22:00"})
	fuzzRoute(f, fuzzTarget{e: e, method: "PATCH", path: fixed("/api/shifts/" + id + "/status"), token: e.adminToken},
		`{"status":"confirmed"}`, `{"status":"cancelled"}`, `{"status":"pending"}`, `{"status":"done"}`, `{"status":null}`)
}

var discountSeeds = []string{
	`{"name":"Happy hour","discount_type":"percentage","value":12.5,"min_order_amount":10,"max_discount_amount":5,"usage_limit":3}`,
	`{"name":"Five off","discount_type":"fixed","value":5,"applicable_to":"item","item_id":"0e086079-fd53-45db-8b70-7e54eae44d30"}`,
	`{"name":"Bad","discount_type":"percentage","value":12.345,"valid_from":"2026-12-01T10:00:00"}`,
	`{"name":"Winter","discount_type":"percentage","value":10,"valid_from":"2026-12-01T10:00:00+01:00","valid_until":"2026-11-01T10:00:00Z"}`,
	`{"value":150}`, `{"is_active":false}`, `{"valid_until":null,"is_active":true}`, `{"value":9999999999999.99}`,
	`{"usage_limit":0}`, `{"applicable_to":"category","category_id":null}`,
	`{"combinable":true,"priority":1000}`, `{"priority":-1001}`, `{"combinable":null}`, `{"priority":2.5}`,
}

func FuzzCreateDiscount(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/discounts"), token: e.adminToken}, discountSeeds...)
}

func FuzzUpdateDiscount(f *testing.F) {
	e := newTestEnv(f)
	id := e.created(f, "/api/discounts", "discount", map[string]any{"name": "Lunch", "discount_type": "fixed", "value": 2})
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/discounts/" + id), token: e.adminToken}, discountSeeds...)
}

func FuzzRedeemDiscount(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Sam Staff")
	order := e.created(f, "/api/discounts", "discount", map[string]any{"name": "Lunch", "discount_type": "percentage", "value": 15, "usage_limit": 1000000})
	item := e.created(f, "/api/discounts", "discount", map[string]any{"name": "Cake", "discount_type": "fixed", "value": 2,
		"applicable_to": "item", "item_id": "0e086079-fd53-45db-8b70-7e54eae44d30"})
	paths := []string{"/api/discounts/" + order + "/redeem", "/api/discounts/" + item + "/redeem"}
	n := 0
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", token: tok, path: func(testing.TB) string { n++; return paths[n%2] }},
		`{"order_total":33.33}`, `{"order_total":120,"eligible_amount":20}`, `{"order_total":18.4,"eligible_amount":20}`,
		`{"order_total":-1}`, `{"order_total":0.005}`, `{"order_total":"10"}`,
		`{"order_total":10,"code":"k7qp-mx3d"}`, `{"order_total":10,"code":"K7QP-MX3D","guest_ref":"Karte 7"}`, `{"order_total":10,"guest_ref":""}`,
		`{"order_ref":"T4","lines":[{"quantity":2,"unit_price":3.9,"vat_rate":"NORMAL"},{"item_id":"0e086079-fd53-45db-8b70-7e54eae44d30","quantity":1,"unit_price":4.5,"vat_rate":"REDUCED_1"}]}`,
		`{"order_total":7.8,"lines":[{"quantity":2,"unit_price":3.9,"vat_rate":"NORMAL"}],"eligible_amount":1}`,
		`{"order_total":10,"reason":"Reklamation","approval":{"email":"admin@test.local","password":"password1"}}`)
}

func FuzzCodeBatch(f *testing.F) {
	e := newTestEnv(f)
	id := e.created(f, "/api/discounts", "discount", map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5, "requires_code": true})
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/discounts/" + id + "/code-batches"), token: e.adminToken},
		`{"count":3}`, `{"count":2,"uses_per_code":5,"once_per_guest":true}`, `{"count":0}`, `{"count":1001}`,
		`{"count":1,"uses_per_code":"2"}`, `{"count":1.5}`)
}

func FuzzCatalogue(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Till Terminal")
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/catalogue"), token: tok},
		`{"categories":[{"id":"019a0000-0000-7000-8000-0000000000c1","name":"Pasta"}],"items":[{"id":"019a0000-0000-7000-8000-0000000000a1","name":"Penne","category_id":"019a0000-0000-7000-8000-0000000000c1","vat_rate":"REDUCED_1"}]}`,
		`{"categories":[],"items":[]}`, `{"categories":[null],"items":[{}]}`, `{"categories":[{"id":1}],"items":[{"vat_rate":7}]}`,
		`{"categories":[],"items":[{"id":"019a0000-0000-7000-8000-0000000000a1","name":"","vat_rate":"NULL"}]}`)
}

func FuzzTSESale(f *testing.F) {
	// The real worker and the embedded simulator: without a worker a new
	// terminal's first sale waits for its registration, and the fuzzer
	// stalls.
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	raw, _ := json.Marshal(sale("KASSE-01", 2142))
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/tse/transactions"), token: e.adminToken},
		string(raw),
		`{"client_serial":"KASSE 02","receipt_type":"TRAINING","amounts_per_vat_rate":[{"vat_rate":"REDUCED_1","amount":-3.5},{"vat_rate":"NORMAL","amount":10}],"amounts_per_payment_type":[{"payment_type":"NON_CASH","amount":6.5,"currency_code":"EUR"}]}`,
		`{"client_serial":"KASSE/01","receipt_type":"ANNULATION","amounts_per_vat_rate":[],"amounts_per_payment_type":[{"payment_type":"CASH","amount":1.001}]}`,
		`{"client_serial":"K","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":1}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":1.1,"currency_code":"USD","amount_eur":1}]}`,
		`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":2.8}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":2.8}],`+
			`"line_items":[{"text":"Bier","quantity":2,"unit_price":3.9,"vat_rate":"NORMAL"},{"text":"Rabatt","quantity":1,"unit_price":-5,"vat_rate":"NORMAL",`+
			`"discount_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01","redemption_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a02"}]}`)
}

func settingSeeds(url string) []string {
	return []string{
		`{"channel":"webhook","event_type":"new_order","is_enabled":true,"destination":"` + url + `"}`,
		`{"channel":"email","event_type":"daily_report","is_enabled":false,"destination":"boss@example.com"}`,
		`{"channel":"sms","event_type":"tse_error","is_enabled":true,"destination":"+4915112345678"}`,
		`{"channel":"fax","event_type":"New Order","is_enabled":"yes","destination":"Name <a@b>"}`,
		`{"channel":"webhook","destination":"ftp://x"}`, `{"is_enabled":null}`, `{"secret":"whsec_x"}`,
	}
}

func FuzzCreateNotificationSetting(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/notifications/settings"), token: e.adminToken},
		settingSeeds("http://127.0.0.1:9/hook")...)
}

func FuzzUpdateNotificationSetting(f *testing.F) {
	e := newTestEnv(f)
	id := e.created(f, "/api/notifications/settings", "setting", map[string]any{"channel": "email", "event_type": "new_order",
		"is_enabled": true, "destination": "boss@example.com"})
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/notifications/settings/" + id), token: e.adminToken},
		settingSeeds("http://127.0.0.1:9/hook")...)
}

func FuzzNotificationTest(f *testing.F) {
	e := newTestEnv(f)
	e.withNotifier(f)
	hook := newHookReceiver(f, http.StatusNoContent)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/notifications/test"), token: e.adminToken},
		`{"channel":"webhook","destination":"`+hook.URL+`"}`, `{"channel":"email","destination":"boss@example.com"}`,
		`{"channel":"sms","destination":"+4915112345678"}`, `{"channel":"webhook"}`)
}

func FuzzPublishEvent(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Sam Staff")
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/events"), token: tok},
		`{"type":"new_order","data":{"table":12,"items":[{"sku":"A1","qty":2}]}}`, `{"type":"New","data":{}}`,
		`{"type":"new_order","data":[]}`, `{"type":"new_order"}`, `{"type":"`+strings.Repeat("a", 65)+`","data":{}}`)
}

// The fuzz targets above cover every route whose handler reads a JSON
// body; a new one must get its target.
func TestEveryBodyRouteIsFuzzed(t *testing.T) {
	fuzzed := map[string]bool{
		"POST /api/auth/login": true, "POST /api/users": true, "PUT /api/users/:id": true,
		"POST /api/shifts/clock-out": true, "POST /api/shifts": true, "PUT /api/shifts/:id": true,
		"PATCH /api/shifts/:id/status": true, "POST /api/discounts": true, "PUT /api/discounts/:id": true,
		"POST /api/discounts/:id/redeem": true, "POST /api/tse/transactions": true, "POST /api/discounts/:id/code-batches": true, "PUT /api/catalogue": true,
		"POST /api/discounts/evaluate":     true,
		"POST /api/notifications/settings": true, "PUT /api/notifications/settings/:id": true,
		"POST /api/notifications/test": true, "POST /api/events": true,
		"POST /api/auth/password": true, "PATCH /api/restaurant": true, "POST /api/time-entries": true,
		"PATCH /api/time-entries/:id": true, "POST /api/time-entries/:id/close": true, "POST /api/tse/closings": true,
		"POST /api/tse/archives": true, "PUT /api/fiscal/master-data": true, "POST /api/fiscal/registration/submitted": true, "PUT /api/fiscal/procedure-document/owner-text": true,
		"POST /api/tse/archive-starts": true, "POST /api/tse/replacement": true,
		"PUT /api/settings/email": true, "PUT /api/settings/sms": true,
		"POST /api/shifts/publish": true, "POST /api/shifts/copy-week": true, "POST /api/tse/after-restore/acknowledge": true,
		"POST /api/replica/recovery-sheet/confirm": true, "POST /api/retention/confirm-clock": true,
		"PUT /api/fiscal/datev/accounts": true,
		"POST /api/cash/movements":       true, "POST /api/cash/movements/:id/reverse": true, "POST /api/cash/counts": true,
	}
	// Routes that take no body (checkBody still refuses one that is not JSON).
	noBody := map[string]bool{"POST /api/shifts/clock-in": true, "POST /api/tse/self-test": true,
		"POST /api/tse/queue/:id/retry": true, "POST /api/tse/queue/:id/cancel": true, "POST /api/users/:id/erase": true,
		"POST /api/tse/replacement/continue": true}
	e := newTestEnv(t)
	for _, r := range e.srv.registered {
		key := r.method + " " + r.path
		if r.method == "GET" || r.method == "DELETE" || noBody[key] {
			continue
		}
		if !fuzzed[key] {
			t.Errorf("%s reads a body and has no fuzz target", key)
		}
	}
}
