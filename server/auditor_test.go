package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/store"
)

// addAuditor creates an auditor of the test restaurant whose access ends
// on validUntil, and a token for it.
func (e *testEnv) addAuditor(tb testing.TB, email, validUntil string) (*store.User, string) {
	tb.Helper()
	u := &store.User{RestaurantID: e.restaurant.ID, Email: email, Name: "Frau Prüfer", Role: store.RoleAuditor, ValidUntil: validUntil}
	if err := e.st.CreateUser(context.Background(), u, "password1"); err != nil {
		tb.Fatal(err)
	}
	tok, err := IssueToken(testKey, u, e.clock.Now(), 12*time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	return u, tok
}

// auditorRows is the log as the owner reads it, newest first.
func (e *testEnv) auditorRows(tb testing.TB) []*store.AuditorRequest {
	tb.Helper()
	rows, err := e.st.AuditorRequests(context.Background(), e.restaurant.ID, 0, store.MaxAuditorLogLimit)
	if err != nil {
		tb.Fatal(err)
	}
	return rows
}

// fiscalRecordRoutes are what an auditor may read (docs/FISCAL.md, "The
// auditor's access"): GETs of the fiscal records, and its own account.
// Written out here, not read from the route table, so a route opened to
// auditors by mistake fails the walk below.
var fiscalRecordRoutes = []string{
	"GET /api/tse/transactions", "GET /api/tse/transactions/:id",
	"GET /api/tse/closings", "GET /api/tse/closings/:id", "GET /api/tse/closings/:id/report",
	"GET /api/tse/archives", "GET /api/tse/archives/:id", "GET /api/tse/archives/:id/file",
	"GET /api/fiscal/dsfinvk", "GET /api/fiscal/master-data", "GET /api/fiscal/registration", "GET /api/fiscal/registration/print",
	"GET /api/fiscal/registration/elster.xml", "GET /api/fiscal/registration/submissions", "GET /api/fiscal/registration/submissions/:id/elster.xml",
	"GET /api/fiscal/procedure-document", "GET /api/fiscal/procedure-document/print", "GET /api/fiscal/procedure-document/versions",
	"GET /api/fiscal/procedure-document/versions/:id", "GET /api/fiscal/procedure-document/versions/:id/print", "GET /api/fiscal/procedure-document/owner-texts",
	"GET /api/tse/status", "GET /api/tse/info", "GET /api/tse/outages", "GET /api/tse/archive-starts", "GET /api/tse/replacements",
	"GET /api/cash/registers", "GET /api/cash/movements", "GET /api/cash/counts",
}

var auditorAccountRoutes = []string{"GET /api/auth/me", "POST /api/auth/password", "GET /api/restaurant"}

// auditorQuery makes a list that needs a range answer 200.
var auditorQuery = map[string]string{
	"/api/tse/transactions": "?from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z",
	"/api/fiscal/dsfinvk":   "?from=2026-11-22&to=2026-11-22",
}

// The auditor walks every route of the route table (a route added later
// is walked too): it is refused 403 auditor_not_allowed everywhere but the
// fiscal records and its own account, which answer it; and each request,
// allowed or refused, is one row of the log, with its status, written
// before the answer went out.
func TestAuditorRefusedEverythingButFiscalRecordsAndEveryRequestLogged(t *testing.T) {
	e := newContractEnv(t)
	auditor, tok := e.addAuditor(t, "pruefer@finanzamt.example", "2026-11-30")
	if len(e.srv.registered) < 80 {
		t.Fatalf("only %d routes registered", len(e.srv.registered))
	}
	allowed := 0
	for _, r := range e.srv.registered {
		key := r.method + " " + r.path
		t.Run(key, func(t *testing.T) {
			open := slices.Contains(fiscalRecordRoutes, key) || slices.Contains(auditorAccountRoutes, key)
			if got := r.access != public && r.access.admits(store.RoleAuditor); got != open {
				t.Fatalf("%s: open to an auditor = %v, the fiscal records say %v", key, got, open)
			}
			before := len(e.auditorRows(t))
			target := e.path(t, r.path, e.own) + auditorQuery[r.path]
			rec := e.do(t, r.method, target, e.bodyFor(t, r), tok)
			switch {
			case r.access == public:
				if rec.Code == http.StatusForbidden {
					t.Fatalf("a public route refused the auditor: %s", rec.Body.String())
				}
			case open:
				// Answered, not refused (a pending archive's file is 409,
				// a wrong current password 422).
				if rec.Code == http.StatusForbidden || rec.Code == http.StatusUnauthorized || rec.Code >= 500 {
					t.Fatalf("the auditor got %d on a fiscal record: %s", rec.Code, rec.Body.String())
				}
				allowed++
			default:
				wantProblem(t, rec, http.StatusForbidden, eAuditorNotAllowed)
			}
			rows := e.auditorRows(t)
			if len(rows) != before+1 {
				t.Fatalf("%d log rows after the request, want %d", len(rows), before+1)
			}
			if x := rows[0]; x.UserID != auditor.ID || x.UserName != "Frau Prüfer" || x.UserEmail != auditor.Email ||
				x.Method != r.method || x.Target != target || x.Status != rec.Code {
				t.Fatalf("log row %+v, want %s %s → %d", x, r.method, target, rec.Code)
			}
		})
	}
	if allowed != len(fiscalRecordRoutes)+len(auditorAccountRoutes) {
		t.Fatalf("%d routes answered the auditor, want %d", allowed, len(fiscalRecordRoutes)+len(auditorAccountRoutes))
	}
	// Nothing the auditor was refused changed anything: the admin's and
	// the staff member's records are as they were.
	if n := e.countRows(t, `SELECT count(*) FROM users WHERE updated_at <> created_at`); n != 0 {
		t.Fatalf("%d users changed by the auditor's walk", n)
	}
	// A path no route has, with the auditor's token, is logged too; a
	// staff member's requests are not.
	before := len(e.auditorRows(t))
	wantProblem(t, e.do(t, "GET", "/api/no-such-route", nil, tok), http.StatusNotFound, store.ENotFound)
	e.do(t, "GET", "/api/auth/me", nil, e.staffToken)
	if rows := e.auditorRows(t); len(rows) != before+1 || rows[0].Target != "/api/no-such-route" || rows[0].Status != 404 {
		t.Fatalf("after a 404 and a staff request: %d rows (want %d), newest %+v", len(rows), before+1, rows[0])
	}
}

// The owner reads the log (admin only), newest first, a page at a time;
// the database refuses to change or delete a row.
func TestAuditLogIsTheOwnersAndAppendOnly(t *testing.T) {
	e := newTestEnv(t)
	_, tok := e.addAuditor(t, "pruefer@finanzamt.example", "2026-11-30")
	for _, p := range []string{"/api/fiscal/master-data", "/api/users", "/api/time-entries?x=%C3%A4"} {
		e.do(t, "GET", p, nil, tok)
	}
	rec := e.do(t, "GET", "/api/audit-log?limit=2", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var page struct {
		Requests []auditorRequestJSON `json:"requests"`
	}
	decodeInto(t, rec.Body.Bytes(), &page)
	if len(page.Requests) != 2 || page.Requests[0].Target != "/api/time-entries?x=%C3%A4" || page.Requests[0].Status != 403 ||
		page.Requests[1].Target != "/api/users" || page.Requests[0].UserName != "Frau Prüfer" {
		t.Fatalf("first page: %+v", page.Requests)
	}
	rec = e.do(t, "GET", "/api/audit-log?limit=2&before="+itoa(page.Requests[1].Seq), nil, e.adminToken)
	decodeInto(t, rec.Body.Bytes(), &page)
	if len(page.Requests) != 1 || page.Requests[0].Target != "/api/fiscal/master-data" || page.Requests[0].Status != 200 {
		t.Fatalf("second page: %+v", page.Requests)
	}
	wantFieldError(t, e.do(t, "GET", "/api/audit-log?limit=0", nil, e.adminToken), "limit")
	wantFieldError(t, e.do(t, "GET", "/api/audit-log?before=x", nil, e.adminToken), "before")
	wantProblem(t, e.do(t, "GET", "/api/audit-log", nil, tok), http.StatusForbidden, eAuditorNotAllowed)
	_, staffTok := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "GET", "/api/audit-log", nil, staffTok), http.StatusForbidden, eForbidden)

	for _, q := range []string{`UPDATE auditor_requests SET status = 200`, `DELETE FROM auditor_requests`} {
		err := e.st.Write(context.Background(), func(tx *store.Tx) error { _, err := tx.ExecContext(context.Background(), q); return err })
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n := e.countRows(t, `SELECT count(*) FROM auditor_requests WHERE status = 403`); n != 3 {
		t.Fatalf("%d refused requests logged, want 3 (two refused reads and the audit log itself)", n)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// After its last day (the restaurant's local date) the auditor's token
// and its login are refused with auditor_access_ended, logged; the day
// itself is still in.
func TestAuditorAccessEndsAfterItsLastDay(t *testing.T) {
	e := newTestEnv(t)
	// 2026-11-30 23:30 in Berlin is 22:30 UTC: still the last day.
	e.clock.Set(time.Date(2026, 11, 30, 22, 30, 0, 0, time.UTC))
	_, tok := e.addAuditor(t, "pruefer@finanzamt.example", "2026-11-30")
	wantStatus(t, e.do(t, "GET", "/api/fiscal/master-data", nil, tok), http.StatusOK)
	login := map[string]any{"email": "pruefer@finanzamt.example", "password": "password1"}
	wantStatus(t, e.do(t, "POST", "/api/auth/login", login, ""), http.StatusOK)

	// 00:30 in Berlin on 1 December: the access has ended.
	e.clock.Set(time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC))
	p := wantProblem(t, e.do(t, "GET", "/api/fiscal/master-data", nil, tok), http.StatusForbidden, eAuditorEnded)
	if !strings.Contains(p["detail"].(string), "2026-11-30") {
		t.Fatalf("detail %q does not name the last day", p["detail"])
	}
	wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusForbidden, eAuditorEnded)
	wantProblem(t, e.do(t, "POST", "/api/auth/login", login, ""), http.StatusForbidden, eAuditorEnded)
	rows := e.auditorRows(t)
	if len(rows) != 5 || rows[0].Target != "/api/auth/login" || rows[0].Status != 403 || rows[3].Target != "/api/auth/login" || rows[3].Status != 200 {
		t.Fatalf("log: %d rows, newest %+v", len(rows), rows[0])
	}

	// The admin gives the auditor another week: in again, same token.
	admin, err := IssueToken(testKey, e.admin, e.clock.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	rec := e.do(t, "GET", "/api/users", nil, admin)
	var list struct {
		Users []userJSON `json:"users"`
	}
	decodeInto(t, rec.Body.Bytes(), &list)
	var id string
	for _, u := range list.Users {
		if u.Role == store.RoleAuditor {
			id = u.ID
		}
	}
	wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"valid_until": "2026-12-07"}, admin), http.StatusOK)
	wantStatus(t, e.do(t, "GET", "/api/tse/closings", nil, tok), http.StatusOK)
	// And ends it early: yesterday is the last day that may be set.
	wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"valid_until": "2026-11-30"}, admin), http.StatusOK)
	wantProblem(t, e.do(t, "GET", "/api/tse/closings", nil, tok), http.StatusForbidden, eAuditorEnded)
}

// A change of role ends every token: an admin demoted to auditor is
// refused with her old token, and her new one reads only the fiscal
// records; an auditor made staff loses the last day.
func TestAuditorRoleChangeEndsTokens(t *testing.T) {
	e := newTestEnv(t)
	ada, tok := e.addUser(t, e.restaurant.ID, "ada2@test.local", "Ada Zwei", store.RoleAdmin)
	wantStatus(t, e.do(t, "GET", "/api/users", nil, tok), http.StatusOK)
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+ada.ID, map[string]any{"role": "auditor"}, e.adminToken), "valid_until")
	rec := e.do(t, "PUT", "/api/users/"+ada.ID, map[string]any{"role": "auditor", "valid_until": "2026-12-01"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if v := decodeJSON(t, rec)["user"].(map[string]any)["valid_until"]; v != "2026-12-01" {
		t.Fatalf("valid_until %v", v)
	}
	wantProblem(t, e.do(t, "GET", "/api/users", nil, tok), http.StatusUnauthorized, eUnauthenticated)
	wantProblem(t, e.do(t, "GET", "/api/tse/closings", nil, tok), http.StatusUnauthorized, eUnauthenticated)
	rec = e.do(t, "POST", "/api/auth/login", map[string]any{"email": "ada2@test.local", "password": "password1"}, "")
	wantStatus(t, rec, http.StatusOK)
	newTok := decodeJSON(t, rec)["access_token"].(string)
	wantStatus(t, e.do(t, "GET", "/api/tse/closings", nil, newTok), http.StatusOK)
	wantProblem(t, e.do(t, "GET", "/api/users", nil, newTok), http.StatusForbidden, eAuditorNotAllowed)

	rec = e.do(t, "PUT", "/api/users/"+ada.ID, map[string]any{"role": "staff"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if v := decodeJSON(t, rec)["user"].(map[string]any)["valid_until"]; v != nil {
		t.Fatalf("a staff member kept the auditor's last day: %v", v)
	}
	wantProblem(t, e.do(t, "GET", "/api/tse/closings", nil, newTok), http.StatusUnauthorized, eUnauthenticated)
}

// An auditor is created by an admin with email, password and a last day
// from yesterday to a year ahead; no PIN, no staff number.
func TestAuditorCreateRules(t *testing.T) {
	e := newTestEnv(t)
	base := func(kv ...any) map[string]any {
		b := map[string]any{"email": "p@finanzamt.example", "name": "Frau Prüfer", "role": "auditor", "password": "password1", "valid_until": "2026-11-30"}
		for i := 0; i+1 < len(kv); i += 2 {
			b[kv[i].(string)] = kv[i+1]
		}
		return b
	}
	for field, body := range map[string]map[string]any{
		"valid_until":  base("valid_until", nil),
		"pin":          base("pin", "1234", "staff_number", "7"),
		"email":        base("email", nil, "password", nil),
		"staff_number": base("staff_number", "7"),
	} {
		wantFieldError(t, e.do(t, "POST", "/api/users", body, e.adminToken), field)
	}
	for _, d := range []string{"2026-11-20", "2027-11-25", "30.11.2026"} {
		wantFieldError(t, e.do(t, "POST", "/api/users", base("valid_until", d), e.adminToken), "valid_until")
	}
	wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"email": "s@x.example", "name": "S", "role": "staff", "password": "password1",
		"valid_until": "2026-11-30"}, e.adminToken), "valid_until")
	if n := e.countRows(t, `SELECT count(*) FROM users`); n != 1 {
		t.Fatalf("%d users after refusals, want the admin only", n)
	}
	rec := e.do(t, "POST", "/api/users", base(), e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	u := decodeJSON(t, rec)["user"].(map[string]any)
	if u["role"] != "auditor" || u["valid_until"] != "2026-11-30" || u["must_change_password"] != true {
		t.Fatalf("created %v", u)
	}
}

// Over real HTTP, the log row is durable when the auditor's answer
// arrives; and auditors' requests at once are each logged once.
func TestAuditorRowPrecedesTheAnswerOverHTTP(t *testing.T) {
	e := newTestEnv(t)
	auditor, tok := e.addAuditor(t, "pruefer@finanzamt.example", "2026-11-30")
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	get := func(path string) int {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		defer res.Body.Close()
		return res.StatusCode
	}
	if st := get("/api/fiscal/registration/print"); st != http.StatusOK {
		t.Fatalf("status %d", st)
	}
	if n := e.countRows(t, `SELECT count(*) FROM auditor_requests WHERE user_id = ? AND target = '/api/fiscal/registration/print'`, auditor.ID); n != 1 {
		t.Fatalf("%d rows when the answer arrived", n)
	}
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get([]string{"/api/tse/closings", "/api/shifts", "/api/fiscal/master-data", "/api/dashboard"}[i%4] + "?i=" + strconv.Itoa(i))
		}()
	}
	wg.Wait()
	if got := e.countRows(t, `SELECT count(DISTINCT target) FROM auditor_requests WHERE target LIKE '%?i=%'`); got != n {
		t.Fatalf("%d distinct requests logged, want %d", got, n)
	}
	if got := e.countRows(t, `SELECT count(*) FROM auditor_requests`); got != n+1 {
		t.Fatalf("%d rows, want %d", got, n+1)
	}
}
