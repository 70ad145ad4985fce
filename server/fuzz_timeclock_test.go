package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Fuzz targets of the time clock's body routes (see fuzz_test.go).

func FuzzChangeOwnPassword(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Sam Staff")
	// A change that succeeds ends tok; later inputs then get 401, which the
	// contract covers as well as the 4xx of a wrong current password.
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/auth/password"), token: tok},
		`{"current_password":"password1","new_password":"another-horse"}`, `{"current_password":"wrong","new_password":"another-horse"}`,
		`{"current_password":"password1","new_password":"short"}`, `{"current_password":"password1"}`,
		`{"current_password":null,"new_password":1}`)
}

func FuzzUpdateRestaurant(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "PATCH", path: fixed("/api/restaurant"), token: e.adminToken},
		`{"federal_state":"BY"}`, `{"federal_state":null,"min_rest_hours":10}`, `{"open_entry_limit_hours":16}`,
		`{"federal_state":"XX"}`, `{"min_rest_hours":9}`, `{"open_entry_limit_hours":0}`, `{"open_entry_limit_hours":null}`)
}

func entrySeeds(userID string) []string {
	return []string{
		`{"user_id":"` + userID + `","clock_in":"2026-11-21T08:00:00Z","clock_out":"2026-11-21T12:00:00Z","reason":"forgot to clock in"}`,
		`{"user_id":"` + userID + `","clock_in":"2026-11-21T08:00:00+01:00","clock_out":null,"break_minutes":30,"reason":"x"}`,
		`{"user_id":"` + userID + `","clock_in":"2026-11-21T12:00:00Z","clock_out":"2026-11-21T08:00:00Z","reason":"backwards"}`,
		`{"clock_out":"2026-11-22T08:00:00Z","reason":""}`, `{"break_minutes":-1,"reason":"x"}`, `{"clock_in":null,"reason":"x"}`,
		`{"break_minutes":45}`, `{"reason":"` + "\u0000" + `"}`,
	}
}

func FuzzCreateTimeEntry(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/time-entries"), token: e.adminToken}, entrySeeds(u.ID)...)
}

func FuzzCorrectTimeEntry(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	id := e.created(f, "/api/time-entries", "time_entry", map[string]any{"user_id": u.ID, "clock_in": "2026-11-20T08:00:00Z",
		"clock_out": "2026-11-20T12:00:00Z", "reason": "forgot to clock in"})
	fuzzRoute(f, fuzzTarget{e: e, method: "PATCH", path: fixed("/api/time-entries/" + id), token: e.adminToken}, entrySeeds(u.ID)...)
}

func FuzzCloseTimeEntry(f *testing.F) {
	e := newTestEnv(f)
	u, tok := e.staff(f, "Sam Staff")
	// Each input closes the staff member's open entry, opened here when
	// the last input closed it (409 on clock-in: still open, same id).
	open := ""
	path := func(tb testing.TB) string {
		e.clock.Add(3 * time.Hour)
		req := httptest.NewRequest("POST", "/api/shifts/clock-in", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code == http.StatusCreated {
			var b struct {
				TimeEntry struct {
					ID string `json:"id"`
				} `json:"time_entry"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil || b.TimeEntry.ID == "" {
				tb.Fatalf("clock-in answer %s", rec.Body.String())
			}
			open = b.TimeEntry.ID
		}
		return "/api/time-entries/" + open + "/close"
	}
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: path, token: e.adminToken}, append(entrySeeds(u.ID),
		`{"reason":"forgot to clock out"}`, `{"clock_out":"2026-11-22T10:00:00Z","break_minutes":15,"reason":"left at 10"}`)...)
}
