package server

// The contract audit: every route of the one route table is walked for
// the contract's general rules (shared API.md §1), so a route added later
// is audited without anyone remembering to. Area tests prove behaviour;
// these prove that every route speaks the same HTTP.

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

// contractEnv is an appliance with one record of every kind in the test
// restaurant and in a second restaurant (the foreign ids).
type contractEnv struct {
	*tseEnv
	staffToken string
	own        map[string]string // route family → id of a record of the test restaurant
	foreign    map[string]string // route family → id of a record of another restaurant
	samples    map[string][]byte // "METHOD path" → a success body, for the format checks
}

// families maps a path with :id to the kind of record the id names.
func family(path string) string {
	for _, f := range []string{"/api/users/", "/api/shifts/", "/api/time-entries/", "/api/discounts/", "/api/tse/transactions/", "/api/tse/queue/", "/api/tse/closings/", "/api/notifications/settings/", "/api/tse/archives/", "/api/fiscal/registration/submissions/", "/api/fiscal/procedure-document/versions/", "/api/cash/movements/"} {
		if strings.HasPrefix(path, f) {
			if f == "/api/tse/queue/" {
				return "/api/tse/transactions/" // queue actions name a transaction
			}
			return f
		}
	}
	return ""
}

func newContractEnv(tb testing.TB) *contractEnv {
	tb.Helper()
	e := &contractEnv{tseEnv: newTSEEnv(tb, tseEnvOpts{}), own: map[string]string{}, foreign: map[string]string{}, samples: map[string][]byte{}}
	e.withNotifier(tb)
	e.withSheetReplica(tb) // every GET answers 200: the recovery sheet needs replication on
	staff, staffToken := e.staff(tb, "Sam Staff")
	e.staffToken = staffToken
	e.own["/api/users/"] = staff.ID
	e.own["/api/shifts/"] = e.create(tb, "POST", "/api/shifts", e.adminToken, shiftBody(staff, "2026-11-23", "18:00", "02:00"), "shift")
	e.own["/api/time-entries/"] = e.create(tb, "POST", "/api/time-entries", e.adminToken, entryBody(staff.ID), "time_entry")
	e.own["/api/discounts/"] = e.create(tb, "POST", "/api/discounts", e.adminToken, map[string]any{
		"name": "Happy Hour", "discount_type": "percentage", "value": 12.5, "max_discount_amount": 5,
		"valid_until": "2026-12-31T23:00:00+01:00"}, "discount")
	e.own["/api/notifications/settings/"] = e.create(tb, "POST", "/api/notifications/settings", e.adminToken, map[string]any{
		"channel": "webhook", "event_type": "new_order", "is_enabled": false, "destination": "http://192.168.1.50/hook"}, "setting")
	e.own["/api/tse/transactions/"] = e.create(tb, "POST", "/api/tse/transactions", staffToken, sale("KASSE-01", 2142), "transaction")
	e.own["/api/tse/archives/"] = e.archiveRow(tb, e.restaurant.ID, e.tssID)
	e.own["/api/tse/closings/"] = e.create(tb, "POST", "/api/tse/closings", staffToken, map[string]any{"client_serial": "KASSE-01"}, "closing")
	e.own["/api/cash/movements/"] = e.create(tb, "POST", "/api/cash/movements", staffToken, map[string]any{"client_serial": "KASSE-01",
		"kind": "opening_float", "amount": 150}, "movement")
	e.create(tb, "POST", "/api/cash/counts", staffToken, map[string]any{"client_serial": "KASSE-01", "counted": 150}, "count")
	e.own["/api/fiscal/registration/submissions/"] = e.submission(tb, e.restaurant.ID)
	wantStatus(tb, e.do(tb, "GET", "/api/fiscal/procedure-document", nil, e.adminToken), http.StatusOK)
	e.own["/api/fiscal/procedure-document/versions/"] = "1"

	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		tb.Fatal(err)
	}
	_, otherAdmin := e.addUser(tb, other.ID, "admin@other.local", "Olga Other", store.RoleAdmin)
	otherStaff, _ := e.addUser(tb, other.ID, "staff@other.local", "Otto Other", store.RoleStaff)
	e.foreign["/api/users/"] = otherStaff.ID
	e.foreign["/api/shifts/"] = e.create(tb, "POST", "/api/shifts", otherAdmin, shiftBody(otherStaff, "2026-11-23", "10:00", "14:00"), "shift")
	e.foreign["/api/time-entries/"] = e.create(tb, "POST", "/api/time-entries", otherAdmin, entryBody(otherStaff.ID), "time_entry")
	e.foreign["/api/discounts/"] = e.create(tb, "POST", "/api/discounts", otherAdmin, map[string]any{
		"name": "Other", "discount_type": "fixed", "value": 2}, "discount")
	e.foreign["/api/notifications/settings/"] = e.create(tb, "POST", "/api/notifications/settings", otherAdmin, map[string]any{
		"channel": "email", "event_type": "new_order", "is_enabled": false, "destination": "boss@other.example"}, "setting")
	// The TSE serves one restaurant per appliance in these tests, so the
	// foreign transaction is an unknown one.
	e.foreign["/api/tse/transactions/"] = store.NewID()
	e.foreign["/api/tse/archives/"] = e.archiveRow(tb, other.ID, store.NewID())
	e.foreign["/api/tse/closings/"] = store.NewID()
	e.foreign["/api/cash/movements/"] = store.NewID() // a movement is a sale: the other restaurant has no TSE here
	e.foreign["/api/fiscal/registration/submissions/"] = e.submission(tb, other.ID)
	// Versions are numbered per restaurant: another's is a number this
	// one never had.
	e.foreign["/api/fiscal/procedure-document/versions/"] = "999"
	// HQ's route answers 404 on a box; hq_test.go holds it to the
	// contract on a server in HQ mode.
	e.srv.registered = slices.DeleteFunc(e.srv.registered, func(r registeredRoute) bool { return strings.HasPrefix(r.path, "/api/hq/") })
	return e
}

// archiveRow plans one archive range of restaurantID's TSS and returns its id.
func (e *contractEnv) archiveRow(tb testing.TB, restaurantID, tssID string) string {
	tb.Helper()
	rows, err := e.st.PlanTSEArchiveRanges(context.Background(), restaurantID, tssID, "ab", 10, 1000)
	if err != nil || len(rows) != 1 {
		tb.Fatalf("plan an archive range: %v (%d rows)", err, len(rows))
	}
	return rows[0].ID
}

// submission keeps a registration of restaurantID as submitted (the
// simulator these tests sign with makes no ELSTER file, so it is kept
// through the store) and returns its id.
func (e *contractEnv) submission(tb testing.TB, restaurantID string) string {
	tb.Helper()
	sub, err := e.st.SubmitRegistration(context.Background(), restaurantID, "2026-11-22", "<Aufzeichnung146a/>", e.admin.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return sub.ID
}

// entryBody enters a closed time entry of the day before the test clock.
func entryBody(userID string) map[string]any {
	return map[string]any{"user_id": userID, "clock_in": "2026-11-21T08:00:00Z", "clock_out": "2026-11-21T12:00:00Z", "reason": "forgot to clock in"}
}

// create posts body, wants 201 and returns the id under key.
func (e *contractEnv) create(tb testing.TB, method, path, token string, body any, key string) string {
	tb.Helper()
	rec := e.do(tb, method, path, body, token)
	wantStatus(tb, rec, http.StatusCreated)
	if _, ok := e.samples[method+" "+path]; !ok {
		e.samples[method+" "+path] = rec.Body.Bytes()
	}
	return decodeJSON(tb, rec)[key].(map[string]any)["id"].(string)
}

// path fills :id with the id of family's record in ids (or with id when given).
func (e *contractEnv) path(tb testing.TB, pattern string, ids map[string]string, id ...string) string {
	tb.Helper()
	if !strings.Contains(pattern, ":id") {
		return pattern
	}
	v, ok := ids[family(pattern)]
	if len(id) > 0 {
		v, ok = id[0], true
	}
	if !ok {
		tb.Fatalf("%s: no fixture for its :id; add one to newContractEnv", pattern)
	}
	return strings.Replace(pattern, ":id", v, 1)
}

// validBody is a body each route accepts, so a refusal a test sees is
// about what it checks (auth, id), not about the body.
var validBody = map[string]any{
	"POST /api/shifts/publish":                 map[string]any{"week": "2026-11-23"},
	"POST /api/replica/recovery-sheet/confirm": map[string]any{"public_key": "age1contract"},
	"POST /api/retention/confirm-clock":        map[string]any{"delete_before": "2019-01-01"},
	"POST /api/shifts/copy-week":               map[string]any{"from_week": "2026-11-16", "to_week": "2026-11-23"},
	"POST /api/auth/login":                     map[string]any{"email": "admin@test.local", "password": "password1"},
	"POST /api/users":                          map[string]any{"email": "new@test.local", "name": "New", "role": "staff", "password": "password1"},
	"PUT /api/users/:id":                       map[string]any{"name": "Renamed"},
	// A wrong current password (422): a right one would end the staff
	// token the walk goes on using.
	"POST /api/auth/password":              map[string]any{"current_password": "not-the-password", "new_password": "password2"},
	"PATCH /api/restaurant":                map[string]any{"min_rest_hours": 10},
	"PATCH /api/time-entries/:id":          map[string]any{"break_minutes": 15, "reason": "took a break"},
	"POST /api/time-entries/:id/close":     map[string]any{"clock_out": "2026-11-21T13:00:00Z", "reason": "forgot to clock out"},
	"POST /api/shifts/clock-out":           map[string]any{"break_minutes": 0},
	"PUT /api/shifts/:id":                  map[string]any{"notes": "bring keys"},
	"PATCH /api/shifts/:id/status":         map[string]any{"status": "confirmed"},
	"POST /api/discounts":                  map[string]any{"name": "X", "discount_type": "fixed", "value": 1},
	"PUT /api/discounts/:id":               map[string]any{"description": "x"},
	"POST /api/discounts/:id/redeem":       map[string]any{"order_total": 10},
	"POST /api/discounts/evaluate":         map[string]any{"lines": []any{map[string]any{"quantity": 2, "unit_price": 3.9, "vat_rate": "NORMAL"}}},
	"POST /api/discounts/:id/code-batches": map[string]any{"count": 2},
	"PUT /api/catalogue": map[string]any{"categories": []any{map[string]any{"id": "019a0000-0000-7000-8000-0000000000c1", "name": "Pasta"}},
		"items": []any{map[string]any{"id": "019a0000-0000-7000-8000-0000000000a1", "name": "Penne", "vat_rate": "REDUCED_1"}}},
	"POST /api/tse/transactions":                    sale("KASSE-02", 100),
	"POST /api/tse/closings":                        map[string]any{"client_serial": "KASSE-01"},
	"PUT /api/fiscal/master-data":                   map[string]any{"business_name": "Zum Löwen"},
	"POST /api/fiscal/registration/submitted":       map[string]any{"submitted_on": "2026-11-22"},
	"POST /api/notifications/settings":              map[string]any{"channel": "sms", "event_type": "low_stock", "is_enabled": false, "destination": "+4915112345678"},
	"PUT /api/notifications/settings/:id":           map[string]any{"is_enabled": false},
	"POST /api/notifications/test":                  map[string]any{"channel": "email", "destination": "a@example.com"},
	"POST /api/events":                              map[string]any{"type": "low_stock", "data": map[string]any{"table": 4}},
	"PUT /api/settings/email":                       map[string]any{"host": "smtp.example.com", "from": "kasse@example.com", "password": "geheim"},
	"PUT /api/settings/sms":                         map[string]any{"provider": "generic", "url": "http://192.168.1.20/send"},
	"POST /api/tse/archives":                        map[string]any{"from": "2026-11-22", "to": "2026-11-22"},
	"POST /api/tse/archive-starts":                  map[string]any{"first_signature_counter": 2, "reason": "vor posbox signiert"},
	"POST /api/tse/replacement":                     map[string]any{},
	"POST /api/tse/replacement/continue":            nil,
	"POST /api/tse/queue/:id/retry":                 nil,
	"POST /api/tse/queue/:id/cancel":                nil,
	"POST /api/shifts/clock-in":                     nil,
	"POST /api/tse/self-test":                       nil,
	"DELETE /api/users/:id":                         nil,
	"POST /api/users/:id/erase":                     nil,
	"DELETE /api/shifts/:id":                        nil,
	"DELETE /api/discounts/:id":                     nil,
	"DELETE /api/notifications/settings/:id":        nil,
	"PUT /api/fiscal/procedure-document/owner-text": map[string]any{"cash_counting": "Jeden Abend"},
	"PUT /api/fiscal/datev/accounts":                map[string]any{"chart": "SKR03"},
	"POST /api/cash/movements":                      map[string]any{"client_serial": "KASSE-01", "kind": "tip_payout", "amount": 2.5},
	"POST /api/cash/movements/:id/reverse":          map[string]any{"reason": "doppelt gebucht"},
	"POST /api/cash/counts":                         map[string]any{"client_serial": "KASSE-01", "counted": 150},
}

// fileRoutes answer a file, not JSON (their own tests check it).
var fileRoutes = []string{"/api/time-entries/export", "/api/time-entries/payroll", "/api/tse/archives/:id/file", "/api/fiscal/dsfinvk", "/api/fiscal/datev", "/api/fiscal/registration/print",
	"/api/fiscal/registration/elster.xml", "/api/fiscal/registration/submissions/:id/elster.xml",
	"/api/fiscal/procedure-document/print", "/api/fiscal/procedure-document/versions/:id/print", "/api/tse/closings/:id/report",
	"/api/cash/settlement/print", "/api/discounts/:id/codes.csv", "/api/discounts/:id/codes/print"}

// noBody are the routes that read no body (any JSON body is ignored).
var noBody = []string{"POST /api/shifts/clock-in", "POST /api/tse/self-test", "POST /api/tse/queue/:id/retry", "POST /api/tse/queue/:id/cancel",
	"POST /api/users/:id/erase", "POST /api/tse/replacement/continue"}

// staffAllowed are the routes the contract opens to every authenticated
// user; every other non-public route is administrator only.
var staffAllowed = []string{
	"GET /api/auth/me", "GET /api/restaurant", "POST /api/auth/password",
	"POST /api/shifts/clock-in", "POST /api/shifts/clock-out", "GET /api/shifts/my-status", "GET /api/shifts/mine",
	"POST /api/discounts/:id/redeem", "POST /api/discounts/evaluate", "PUT /api/catalogue",
	"POST /api/tse/transactions", "GET /api/tse/transactions/:id",
	"POST /api/tse/closings", "GET /api/tse/closings/:id", "GET /api/tse/closings/:id/report",
	"POST /api/events",
	"POST /api/cash/movements", "POST /api/cash/counts", "GET /api/cash/settlement", "GET /api/cash/settlement/print",
}

func hasBody(method string) bool { return method == "POST" || method == "PUT" || method == "PATCH" }

func (e *contractEnv) bodyFor(tb testing.TB, r registeredRoute) any {
	tb.Helper()
	key := r.method + " " + r.path
	if key == "POST /api/time-entries" {
		return map[string]any{"user_id": e.own["/api/users/"], "clock_in": "2026-11-20T08:00:00Z", "clock_out": "2026-11-20T09:00:00Z", "reason": "forgot"}
	}
	if key == "POST /api/shifts" {
		return map[string]any{"user_id": e.own["/api/users/"], "shift_date": "2026-11-30", "start_time": "09:00", "end_time": "10:00"}
	}
	b, ok := validBody[key]
	if !ok && hasBody(r.method) {
		tb.Fatalf("%s: no valid body in validBody; add one", key)
	}
	return b
}

func TestContractAccessRules(t *testing.T) {
	e := newContractEnv(t)
	for _, r := range e.srv.registered {
		key := r.method + " " + r.path
		t.Run(key, func(t *testing.T) {
			wantAdmin := !slices.Contains(staffAllowed, key)
			if r.path == "/api/health" || r.path == "/api/auth/login" || r.path == "/api/openapi.json" {
				if r.access != public {
					t.Fatalf("%s must need no token", key)
				}
				return
			}
			if got := r.access&staffToo == 0; got != wantAdmin {
				t.Fatalf("%s: admin only = %v, the contract says %v", key, got, wantAdmin)
			}
			path := e.path(t, r.path, e.own)
			for _, tok := range []string{"", "not.a.jwt"} {
				rec := e.do(t, r.method, path, e.bodyFor(t, r), tok)
				wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)
				if h := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
					t.Fatalf("WWW-Authenticate %q", h)
				}
			}
			rec := e.do(t, r.method, path, e.bodyFor(t, r), e.staffToken)
			if wantAdmin {
				wantProblem(t, rec, http.StatusForbidden, eForbidden)
			} else if rec.Code == http.StatusForbidden || rec.Code == http.StatusUnauthorized {
				t.Fatalf("staff got %d on a route open to every user: %s", rec.Code, rec.Body.String())
			}
		})
	}
}

func TestContractIDsThatAreNotOursAre404(t *testing.T) {
	e := newContractEnv(t)
	for _, r := range e.srv.registered {
		if !strings.Contains(r.path, ":id") {
			continue
		}
		key := r.method + " " + r.path
		t.Run(key, func(t *testing.T) {
			own := e.own[family(r.path)]
			// Another spelling of our own id: upper case, or for a number
			// (a procedure document's version) a leading zero.
			other := strings.ToUpper(own)
			if other == own {
				other = "0" + own
			}
			for _, id := range []string{"42", "not-a-uuid", other, store.NewID(), e.foreign[family(r.path)]} {
				rec := e.do(t, r.method, e.path(t, r.path, nil, id), e.bodyFor(t, r), e.adminToken)
				wantProblem(t, rec, http.StatusNotFound, store.ENotFound)
			}
		})
	}
	// Nothing of the other restaurant changed.
	for table, fam := range map[string]string{"users": "/api/users/", "shifts": "/api/shifts/", "time_entries": "/api/time-entries/", "discounts": "/api/discounts/", "notification_settings": "/api/notifications/settings/"} {
		if n := e.countRows(t, "SELECT count(*) FROM "+table+" WHERE id = ? AND updated_at = created_at", e.foreign[fam]); n != 1 {
			t.Errorf("the foreign record in %s was changed or deleted", table)
		}
	}
}

func TestContractDeleteIs204WithEmptyBody(t *testing.T) {
	e := newContractEnv(t)
	staff2, _ := e.staff(t, "Dana Delete")
	fresh := map[string]func() string{
		"/api/users/:id": func() string { return staff2.ID },
		"/api/shifts/:id": func() string {
			u := &store.User{ID: e.own["/api/users/"]}
			return e.create(t, "POST", "/api/shifts", e.adminToken, shiftBody(u, "2026-12-01", "09:00", "10:00"), "shift")
		},
		"/api/discounts/:id": func() string {
			return e.create(t, "POST", "/api/discounts", e.adminToken, map[string]any{"name": "D", "discount_type": "fixed", "value": 1}, "discount")
		},
		"/api/notifications/settings/:id": func() string {
			return e.create(t, "POST", "/api/notifications/settings", e.adminToken, map[string]any{
				"channel": "email", "event_type": "daily_report", "is_enabled": false, "destination": "a@example.com"}, "setting")
		},
	}
	n := 0
	for _, r := range e.srv.registered {
		if r.method != "DELETE" {
			continue
		}
		n++
		t.Run(r.path, func(t *testing.T) {
			mk, ok := fresh[r.path]
			if !ok {
				t.Fatalf("DELETE %s has no fixture in this test; add one", r.path)
			}
			path := strings.Replace(r.path, ":id", mk(), 1)
			rec := e.do(t, "DELETE", path, nil, e.adminToken)
			wantStatus(t, rec, http.StatusNoContent)
			if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
				t.Fatalf("204 with body %q, Content-Type %q", rec.Body.String(), rec.Header().Get("Content-Type"))
			}
			wantProblem(t, e.do(t, "DELETE", path, nil, e.adminToken), http.StatusNotFound, store.ENotFound)
		})
	}
	if n == 0 {
		t.Fatal("no DELETE route registered")
	}
}

// matches says whether a registered pattern serves a concrete path.
func matches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if !strings.HasPrefix(ps[i], ":") && ps[i] != xs[i] {
			return false
		}
	}
	return true
}

func TestContractWrongMethodIs405WithAllow(t *testing.T) {
	e := newContractEnv(t)
	patterns := map[string]bool{}
	for _, r := range e.srv.registered {
		patterns[r.path] = true
	}
	for pattern := range patterns {
		t.Run(pattern, func(t *testing.T) {
			path := e.path(t, pattern, e.own)
			// Allow names every method that serves this path, by this
			// pattern or another (PUT /api/shifts/clock-in is
			// /api/shifts/:id, a 404).
			want := []string{"OPTIONS"}
			for _, r := range e.srv.registered {
				if matches(r.path, path) && !slices.Contains(want, r.method) {
					want = append(want, r.method)
				}
			}
			sort.Strings(want)
			tried := 0
			for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
				if slices.Contains(want, m) {
					continue
				}
				tried++
				rec := e.do(t, m, path, nil, e.adminToken)
				wantProblem(t, rec, http.StatusMethodNotAllowed, eMethodNotAllowed)
				got := strings.Split(rec.Header().Get("Allow"), ", ")
				sort.Strings(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s: Allow %v, want %v", m, path, got, want)
				}
			}
			if tried == 0 {
				t.Fatalf("no wrong method left to try on %s", pattern)
			}
		})
	}
}

func TestContractBodyErrors(t *testing.T) {
	e := newContractEnv(t)
	big := `{"notes":"` + strings.Repeat("a", maxBody) + `"}`
	for _, r := range e.srv.registered {
		if !hasBody(r.method) {
			continue
		}
		key := r.method + " " + r.path
		t.Run(key, func(t *testing.T) {
			path := e.path(t, r.path, e.own)
			tok := e.adminToken
			wantProblem(t, e.do(t, r.method, path, "x", tok, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, eUnsupportedMedia)
			wantProblem(t, e.do(t, r.method, path, big, tok), http.StatusRequestEntityTooLarge, eTooLarge)
			if slices.Contains(noBody, key) {
				return
			}
			wantProblem(t, e.do(t, r.method, path, `{"a":`, tok), http.StatusBadRequest, eMalformedJSON)
			wantProblem(t, e.do(t, r.method, path, `{} {}`, tok), http.StatusBadRequest, eMalformedJSON)
			p := wantProblem(t, e.do(t, r.method, path, `{"zz_not_a_field":1}`, tok), http.StatusBadRequest, eUnknownField)
			if !strings.Contains(p["detail"].(string), "zz_not_a_field") {
				t.Fatalf("unknown_field does not name the field: %v", p["detail"])
			}
		})
	}
}

// TestContractErrorShapes checks the §1 error table rows that are not per
// route: unknown routes, field errors, timestamps without offset, money
// with three decimals.
func TestContractErrorShapes(t *testing.T) {
	e := newContractEnv(t)
	for _, path := range []string{"/api/nope", "/nope", "/api/shifts/", "/api/tse"} {
		wantProblem(t, e.do(t, "GET", path, nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	}
	cases := []struct {
		method, path string
		body         any
		fields       []string
	}{
		{"POST", "/api/shifts", map[string]any{}, []string{"user_id", "shift_date", "start_time", "end_time"}},
		{"POST", "/api/shifts", map[string]any{"break_minutes": "1"}, []string{"break_minutes"}},
		{"POST", "/api/discounts", map[string]any{"name": "X", "discount_type": "fixed", "value": 1, "valid_from": "2026-12-01T10:00:00"}, []string{"valid_from"}},
		{"POST", "/api/discounts", `{"name":"X","discount_type":"fixed","value":1.005}`, []string{"value"}},
		{"POST", "/api/discounts/" + e.own["/api/discounts/"] + "/redeem", `{"order_total":10.001}`, []string{"order_total"}},
		{"GET", "/api/tse/transactions?from=2026-11-22T00:00:00&to=2026-11-23T00:00:00Z", nil, []string{"from"}},
		{"GET", "/api/tse/transactions?from=2026-11-23T00:00:00Z&to=2026-11-22T00:00:00Z", nil, []string{"from"}},
		{"GET", "/api/time-entries?date=22.11.2026", nil, []string{"date"}},
		{"GET", "/api/shifts?date_from=2026-11-23&date_to=2026-11-22", nil, []string{"date_to"}},
		{"GET", "/api/notifications/logs?limit=0", nil, []string{"limit"}},
		{"POST", "/api/notifications/settings", map[string]any{"channel": "sms", "event_type": "x", "is_enabled": true, "destination": "0151"}, []string{"destination"}},
	}
	for _, c := range cases {
		rec := e.do(t, c.method, c.path, c.body, e.adminToken)
		p := wantProblem(t, rec, http.StatusUnprocessableEntity, store.EValidation)
		var got []string
		for _, f := range p["errors"].([]any) {
			got = append(got, f.(map[string]any)["field"].(string))
			if f.(map[string]any)["message"] == "" {
				t.Fatalf("%s %s: empty message", c.method, c.path)
			}
		}
		if !slices.Equal(got, c.fields) {
			t.Errorf("%s %s: fields %v, want %v", c.method, c.path, got, c.fields)
		}
	}
}

var (
	instantRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	looksLike = regexp.MustCompile(`^\d{4}-\d\d-\d\dT`)
	moneyRE   = regexp.MustCompile(`^-?\d+(\.\d{1,2})?$`)
)

// moneyKeys are the JSON members that carry money, percentages or hours.
var moneyKeys = []string{"value", "min_order_amount", "max_discount_amount", "amount", "total", "worked_hours", "order_total", "eligible_amount",
	"expected", "counted", "difference"}

// checkFormats walks a JSON value: every instant is UTC with milliseconds
// and Z, every member ending in _at is such an instant or null, and money
// has at most two decimals and no exponent.
func checkFormats(tb testing.TB, where string, key string, v any) {
	tb.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			checkFormats(tb, where+"."+k, k, c)
		}
	case []any:
		for _, c := range x {
			checkFormats(tb, where+"[]", key, c)
		}
	case string:
		if (looksLike.MatchString(x) || strings.HasSuffix(key, "_at")) && !instantRE.MatchString(x) {
			tb.Errorf("%s = %q is not a UTC millisecond instant", where, x)
		}
	case json.Number:
		if slices.Contains(moneyKeys, key) && !moneyRE.MatchString(x.String()) {
			tb.Errorf("%s = %s has more than 2 decimals or an exponent", where, x)
		}
	}
}

func TestContractResponseFormats(t *testing.T) {
	e := newContractEnv(t)
	// A clocked-in entry, a redemption, a log entry and a finished self-test.
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.staffToken), http.StatusCreated)
	e.clock.Add(50 * time.Minute)
	rec := e.do(t, "POST", "/api/discounts/"+e.own["/api/discounts/"]+"/redeem", map[string]any{"order_total": 33.33}, e.staffToken)
	wantStatus(t, rec, http.StatusOK)
	e.samples["POST /api/discounts/:id/redeem"] = rec.Body.Bytes()
	rec = e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "email", "destination": "a@example.com"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	e.samples["POST /api/notifications/test"] = rec.Body.Bytes()
	rec = e.do(t, "POST", "/api/tse/self-test", nil, e.adminToken)
	wantStatus(t, rec, http.StatusAccepted)
	e.samples["POST /api/tse/self-test"] = rec.Body.Bytes()
	poll.Until(t, 15*time.Second, "self-test done", func() bool {
		st := e.status(t)["last_self_test"]
		return st != nil && st.(map[string]any)["state"] != "RUNNING"
	})
	rec = e.do(t, "POST", "/api/events", validBody["POST /api/events"], e.staffToken)
	wantStatus(t, rec, http.StatusAccepted)
	e.samples["POST /api/events"] = rec.Body.Bytes()
	rec = e.do(t, "POST", "/api/auth/login", validBody["POST /api/auth/login"], "")
	wantStatus(t, rec, http.StatusOK)
	e.samples["POST /api/auth/login"] = rec.Body.Bytes()

	query := map[string]string{"/api/tse/transactions": "?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00%2B01:00",
		"/api/time-entries/report": "?from=2026-11-01&to=2026-11-30", "/api/cash/settlement": "?user_id=" + e.own["/api/users/"]}
	for _, r := range e.srv.registered {
		if r.method != "GET" || slices.Contains(fileRoutes, r.path) {
			continue
		}
		tok := e.adminToken
		if slices.Contains(staffAllowed, "GET "+r.path) {
			tok = e.staffToken
		}
		rec := e.do(t, "GET", e.path(t, r.path, e.own)+query[r.path], nil, tok)
		wantStatus(t, rec, http.StatusOK)
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("GET %s: Content-Type %q", r.path, ct)
		}
		e.samples["GET "+r.path] = rec.Body.Bytes()
	}
	// The sale and the opening float (a cash movement is a signed receipt).
	if n := len(decodeAny(t, e.samples["GET /api/tse/transactions"]).([]any)); n != 2 {
		t.Fatalf("the sample sale and the float are not in the TSE list (%d items)", n)
	}
	// The same range with the offset's "+" not percent-encoded, as a
	// vendor pastes it from the docs.
	rec = e.do(t, "GET", "/api/tse/transactions?from=2026-11-22T00:00:00+01:00&to=2026-11-23T00:00:00+01:00", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if n := len(decodeAny(t, rec.Body.Bytes()).([]any)); n != 2 {
		t.Fatalf("unescaped +01:00: %d items", n)
	}
	for where, raw := range e.samples {
		checkFormats(t, where, "", decodeAny(t, raw))
	}

	// Field order, as the contract lists it (extras may follow).
	order := []struct {
		sample, key string
		fields      []string
		exact       bool
	}{
		{"POST /api/shifts", "shift", []string{"id", "user_id", "user_name", "shift_date", "start_time", "end_time", "break_minutes", "role", "status", "notes", "created_at", "updated_at", "warnings", "published_at", "unstaffed", "planned_hours"}, true},
		{"POST /api/discounts", "discount", []string{"id", "name", "description", "discount_type", "value", "min_order_amount", "max_discount_amount", "applicable_to", "category_id", "item_id", "valid_from", "valid_until", "usage_limit", "usage_count", "is_active", "requires_code", "created_at", "updated_at", "schedule", "combinable", "priority", "category_name", "item_name", "approval"}, true},
		{"GET /api/auth/me", "user", []string{"id", "restaurant_id", "email", "name", "role", "is_active", "created_at", "updated_at", "staff_number", "must_change_password", "has_pin", "valid_until"}, true},
		{"GET /api/restaurant", "restaurant", []string{"id", "name", "timezone", "created_at"}, false},
		{"GET /api/shifts/my-status", "", []string{"clocked_in", "time_entry"}, true},
		{"GET /api/shifts/my-status", "time_entry", []string{"id", "user_id", "clock_in", "clock_out", "break_minutes"}, true},
		{"GET /api/time-entries", "time_entries", []string{"id", "user_id", "user_name", "clock_in", "clock_out", "break_minutes", "worked_hours"}, false},
		{"POST /api/discounts/:id/redeem", "redemption", []string{"discount_id", "amount", "usage_count"}, false},
		{"GET /api/tse/status", "status", []string{"healthy", "last_self_test", "last_self_test_error", "provider", "online", "queue_depth", "oldest_queued_at", "open_outage", "days_to_certificate_expiry"}, false},
		{"POST /api/tse/self-test", "self_test", []string{"state", "started_at", "finished_at"}, false},
		{"GET /api/tse/info", "info", []string{"_id", "description", "state", "serial_number", "public_key", "certificate_expiry"}, false},
		{"POST /api/tse/transactions", "transaction", []string{"id", "number", "state", "client_id", "time_start", "time_end", "signature_counter", "signature", "qr_code_data", "tse_serial_number", "signed"}, false},
		{"GET /api/tse/transactions", "", []string{"id", "number", "state", "client_id", "time_start", "time_end", "signature_counter"}, false},
		{"GET /api/tse/queue", "queue", []string{"pending", "attention", "oldest_queued_at", "items"}, true},
		{"POST /api/notifications/settings", "setting", []string{"id", "channel", "event_type", "is_enabled", "destination", "created_at", "updated_at", "secret"}, true},
		{"GET /api/notifications/logs", "logs", []string{"id", "setting_id", "channel", "event_type", "destination", "status", "error", "message", "sent_at", "attempt"}, true},
		{"POST /api/notifications/test", "result", []string{"success", "channel", "destination", "message", "sent_at"}, true},
		{"POST /api/events", "event", []string{"id", "type", "created_at"}, true},
		{"POST /api/auth/login", "", []string{"access_token", "token_type", "expires_in", "user"}, true},
		{"GET /api/health", "", []string{"status", "version", "build", "tls_fingerprint", "mode"}, true},
		{"POST /api/cash/movements", "movement", []string{"id", "client_serial", "number", "kind", "business_case", "amount", "reason", "voucher_no", "reverses", "reversed_by", "count_id", "booked_by", "for_user", "created_at", "signed", "receipt_without_tse"}, true},
		{"POST /api/cash/counts", "count", []string{"id", "client_serial", "number", "expected", "counted", "difference", "denominations", "difference_movement", "counted_by", "created_at"}, true},
		{"GET /api/cash/registers", "registers", []string{"client_serial", "book_started", "expected", "as_of", "last_count"}, true},
		{"GET /api/replica", "replica", []string{"enabled", "url", "public_key", "replicated_at", "lag_seconds", "backlog_files", "backlog_bytes", "last_error", "error_since", "backlog_limit", "backlog_given_up_at", "backlog_given_up_reason"}, true},
	}
	for _, o := range order {
		raw, ok := e.samples[o.sample]
		if !ok {
			t.Fatalf("no sample of %s", o.sample)
		}
		obj := firstObject(t, raw, o.key)
		keys := jsonKeys(t, obj)
		if !o.exact && len(keys) >= len(o.fields) {
			keys = keys[:len(o.fields)]
		}
		if !slices.Equal(keys, o.fields) {
			t.Errorf("%s %s: fields %v, want %v", o.sample, o.key, keys, o.fields)
		}
	}
}

// firstObject finds the object under key (the first element when it is an
// array); "" is the body itself or, for a bare array, its first element.
func firstObject(tb testing.TB, raw []byte, key string) []byte {
	tb.Helper()
	raw = bytes.TrimSpace(raw)
	if key != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			tb.Fatal(err)
		}
		raw = bytes.TrimSpace(m[key])
	}
	if len(raw) > 0 && raw[0] == '[' {
		var a []json.RawMessage
		if err := json.Unmarshal(raw, &a); err != nil || len(a) == 0 {
			tb.Fatalf("empty array under %q", key)
		}
		raw = a[0]
	}
	return raw
}

func decodeAny(tb testing.TB, raw []byte) any {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		tb.Fatalf("%s: %v", raw, err)
	}
	return v
}

// TestContractWrapperKeys checks the one-key wrapper of every success
// answer against the contract's table.
func TestContractWrapperKeys(t *testing.T) {
	e := newContractEnv(t)
	want := map[string]string{
		"GET /api/shifts": "shifts", "GET /api/time-entries": "time_entries", "GET /api/discounts": "discounts",
		"GET /api/tse/status": "status", "GET /api/tse/info": "info", "GET /api/notifications/settings": "settings",
		"GET /api/notifications/logs": "logs", "GET /api/users": "users", "GET /api/users/former": "former_users", "GET /api/users/erasures": "erasures", "GET /api/retention": "retention", "GET /api/auth/me": "user",
		"GET /api/tse/queue": "queue", "GET /api/tse/outages": "outages", "GET /api/tse/transactions/:id": "transaction",
		"GET /api/tse/closings": "closings", "GET /api/tse/closings/:id": "closing",
		"GET /api/fiscal/master-data": "master_data", "GET /api/fiscal/registration": "registration",
		"GET /api/fiscal/registration/due": "due", "GET /api/fiscal/registration/submissions": "submissions",
		"GET /api/fiscal/procedure-document": "procedure_document", "GET /api/fiscal/procedure-document/versions": "versions",
		"GET /api/fiscal/procedure-document/versions/:id": "procedure_document", "GET /api/fiscal/procedure-document/owner-texts": "owner_texts",
		"GET /api/notifications/deliveries": "deliveries", "GET /api/restaurant": "restaurant", "GET /api/dashboard": "dashboard",
		"GET /api/replica": "replica", "GET /api/tse/after-restore": "after_restore",
		"GET /api/replica/recovery-sheet": "recovery_sheet", "GET /api/replica/recovery-sheet/status": "recovery_sheet_status",
		"GET /api/tse/archives": "archives", "GET /api/tse/archives/:id": "archive",
		"GET /api/tse/archive-starts": "archive_starts", "GET /api/tse/replacements": "replacements",
		"GET /api/shifts/mine": "shifts", "GET /api/time-entries/history/:id": "time_entry",
		"GET /api/time-entries/report": "report", "GET /api/settings/email": "email", "GET /api/settings/sms": "sms",
		"GET /api/audit-log": "requests", "GET /api/fiscal/datev/accounts": "datev",
		"GET /api/cash/registers": "registers", "GET /api/cash/movements": "movements", "GET /api/cash/counts": "counts",
		"GET /api/cash/settlement": "settlement", "GET /api/discounts/:id/codes": "codes", "GET /api/discounts/:id/redemptions": "redemptions",
		"GET /api/catalogue": "catalogue",
	}
	for _, r := range e.srv.registered {
		key := r.method + " " + r.path
		w, ok := want[key]
		if r.method != "GET" || r.path == "/api/health" || r.path == "/api/openapi.json" || r.path == "/api/shifts/my-status" || r.path == "/api/tse/transactions" ||
			slices.Contains(fileRoutes, r.path) {
			continue
		}
		if !ok {
			t.Errorf("%s: no wrapper key in this test's table; add it", key)
			continue
		}
		query := map[string]string{"/api/time-entries/report": "?from=2026-11-01&to=2026-11-30",
			"/api/cash/settlement": "?user_id=" + e.own["/api/users/"]}[r.path]
		rec := e.do(t, "GET", e.path(t, r.path, e.own)+query, nil, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		if keys := jsonKeys(t, rec.Body.Bytes()); !slices.Equal(keys, []string{w}) {
			t.Errorf("%s: keys %v, want [%s]", key, keys, w)
		}
	}
	rec := e.do(t, "GET", "/api/tse/transactions?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z", nil, e.adminToken)
	if b := bytes.TrimSpace(rec.Body.Bytes()); rec.Code != http.StatusOK || len(b) == 0 || b[0] != '[' {
		t.Fatalf("TSE list is not a bare array: %d %s", rec.Code, b)
	}
}

// GET /api/health needs no token; without a database it is 503
// problem+json like every other error.
func TestContractHealth(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "GET", "/api/health", nil, "")
	wantStatus(t, rec, http.StatusOK)
	if got := decodeJSON(t, rec); got["status"] != "ok" || got["version"] != "test" {
		t.Fatalf("health %v", got)
	}
	e.st.Close()
	wantProblem(t, e.do(t, "GET", "/api/health", nil, ""), http.StatusServiceUnavailable, eUnavailable)
}
