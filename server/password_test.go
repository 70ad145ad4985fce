package server

import (
	"net/http"
	"testing"
	"time"

	"posbox/store"
)

// A staff member changes their own password: the old one stops working,
// the token used ends, the fresh token works.
func TestChangeOwnPassword(t *testing.T) {
	e := newTestEnv(t)
	_, tok := e.staff(t, "Sam Staff")
	login := func(pw string) *http.Response {
		rec := e.do(t, "POST", "/api/auth/login", map[string]any{"email": "sam.staff@test.local", "password": pw}, "")
		return rec.Result()
	}
	t.Run("Refused", func(t *testing.T) {
		// Every refused attempt counts against the login limits (burst 5
		// per account and address, then one per 20 s).
		e.clock.Add(time.Minute)
		wantFieldError(t, e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "wrong-one", "new_password": "newpassword1"}, tok), "current_password")
		wantFieldError(t, e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "password1", "new_password": "short"}, tok), "new_password")
		e.clock.Add(time.Minute)
		wantFieldError(t, e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "password1", "new_password": "password1"}, tok), "new_password")
		wantFieldError(t, e.do(t, "POST", "/api/auth/password", map[string]any{"new_password": "newpassword1"}, tok), "current_password")
		wantProblem(t, e.do(t, "POST", "/api/auth/password", map[string]any{"password": "x"}, tok), http.StatusBadRequest, eUnknownField)
		// Nothing changed: the token and the password still work.
		wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusOK)
		if login("password1").StatusCode != http.StatusOK {
			t.Fatal("a refused change changed the password")
		}
	})
	e.clock.Add(time.Second)
	rec := e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "password1", "new_password": "newpassword1"}, tok)
	wantStatus(t, rec, http.StatusOK)
	body := decodeJSON(t, rec)
	fresh := body["access_token"].(string)
	if body["user"].(map[string]any)["email"] != "sam.staff@test.local" {
		t.Fatalf("answer %v", body)
	}
	if login("password1").StatusCode != http.StatusUnauthorized {
		t.Fatal("the old password still logs in")
	}
	e.clock.Add(time.Minute)
	if login("newpassword1").StatusCode != http.StatusOK {
		t.Fatal("the new password does not log in")
	}
	wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusUnauthorized, eUnauthenticated)
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, fresh), http.StatusOK)
	// The old token cannot change it again either.
	wantProblem(t, e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "newpassword1", "new_password": "password3x"}, tok),
		http.StatusUnauthorized, eUnauthenticated)
}

// Guessing the current password through a stolen token hits the login
// limits.
func TestChangeOwnPasswordRateLimited(t *testing.T) {
	e := newTestEnv(t)
	_, tok := e.staff(t, "Sam Staff")
	var limited bool
	for range 10 {
		rec := e.do(t, "POST", "/api/auth/password", map[string]any{"current_password": "guess-guess", "new_password": "newpassword1"}, tok)
		if rec.Code == http.StatusTooManyRequests {
			wantProblem(t, rec, http.StatusTooManyRequests, eRateLimited)
			limited = true
			break
		}
		wantFieldError(t, rec, "current_password")
	}
	if !limited {
		t.Fatal("10 wrong current passwords were never limited")
	}
}

// Staff numbers: set on create and update by an admin, unique per
// restaurant, cleared with null; shown after the contract's fields.
func TestStaffNumber(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/users", map[string]any{"email": "a@test.local", "name": "A", "role": "staff", "password": "password1", "staff_number": "1001"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	u := decodeJSON(t, rec)["user"].(map[string]any)
	if u["staff_number"] != "1001" {
		t.Fatalf("user %v", u)
	}
	wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"email": "b@test.local", "name": "B", "role": "staff", "password": "password1", "staff_number": "1001"}, e.adminToken), "staff_number")
	wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"email": "b@test.local", "name": "B", "role": "staff", "password": "password1", "staff_number": "10 01"}, e.adminToken), "staff_number")
	wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"email": "b@test.local", "name": "B", "role": "staff", "password": "password1", "staff_number": ""}, e.adminToken), "staff_number")
	rec = e.do(t, "PUT", "/api/users/"+u["id"].(string), map[string]any{"staff_number": "A-7"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if decodeJSON(t, rec)["user"].(map[string]any)["staff_number"] != "A-7" {
		t.Fatal(rec.Body.String())
	}
	rec = e.do(t, "PUT", "/api/users/"+u["id"].(string), map[string]any{"staff_number": nil}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if decodeJSON(t, rec)["user"].(map[string]any)["staff_number"] != nil {
		t.Fatal(rec.Body.String())
	}
}

// The time-clock settings: defaults, a partial change by an admin, bad
// input refused and changing nothing.
func TestRestaurantSettings(t *testing.T) {
	e := newTestEnv(t)
	_, staffTok := e.staff(t, "Sam Staff")
	r := decodeJSON(t, e.do(t, "GET", "/api/restaurant", nil, staffTok))["restaurant"].(map[string]any)
	if r["federal_state"] != nil || r["open_entry_limit_hours"] != 16.0 || r["min_rest_hours"] != 11.0 {
		t.Fatalf("defaults %v", r)
	}
	wantProblem(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"min_rest_hours": 10}, staffTok), http.StatusForbidden, eForbidden)
	rec := e.do(t, "PATCH", "/api/restaurant", map[string]any{"federal_state": "BY", "min_rest_hours": 10}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	r = decodeJSON(t, rec)["restaurant"].(map[string]any)
	if r["federal_state"] != "BY" || r["open_entry_limit_hours"] != 16.0 || r["min_rest_hours"] != 10.0 || r["timezone"] != "Europe/Berlin" {
		t.Fatalf("after PATCH %v", r)
	}
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"federal_state": "XX"}, "federal_state"},
		{map[string]any{"open_entry_limit_hours": 0}, "open_entry_limit_hours"},
		{map[string]any{"open_entry_limit_hours": 73}, "open_entry_limit_hours"},
		{map[string]any{"open_entry_limit_hours": nil}, "open_entry_limit_hours"},
		{map[string]any{"min_rest_hours": 9}, "min_rest_hours"},
	} {
		wantFieldError(t, e.do(t, "PATCH", "/api/restaurant", c.body, e.adminToken), c.field)
	}
	rec = e.do(t, "PATCH", "/api/restaurant", map[string]any{"federal_state": nil}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	r = decodeJSON(t, e.do(t, "GET", "/api/restaurant", nil, staffTok))["restaurant"].(map[string]any)
	if r["federal_state"] != nil || r["min_rest_hours"] != 10.0 {
		t.Fatalf("after clearing %v", r)
	}
}

func mustDate(tb testing.TB, s string) time.Time {
	tb.Helper()
	d, err := time.Parse(store.DateFormat, s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
