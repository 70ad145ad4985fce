package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// loginFrom posts a login from a client address.
func (e *testEnv) loginFrom(tb testing.TB, addr, email, password string) *httptest.ResponseRecorder {
	tb.Helper()
	raw, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req := httptest.NewRequest("POST", "/api/auth/login", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr + ":40000"
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}

// A stranger who knows the admin's email cannot lock the admin out: the
// guesses from their address are throttled, the admin at another address
// still gets in, and past the account's global ceiling an address that
// logged in before still does.
func TestLoginGuessingDoesNotLockOutTheOwner(t *testing.T) {
	e := newTestEnv(t)
	wantStatus(t, e.loginFrom(t, "10.0.0.5", "admin@test.local", "password1"), http.StatusOK) // the owner's till
	for range 5 {
		wantStatus(t, e.loginFrom(t, "10.0.0.66", "admin@test.local", "guess"), http.StatusUnauthorized)
	}
	wantProblem(t, e.loginFrom(t, "10.0.0.66", "admin@test.local", "guess"), http.StatusTooManyRequests, eRateLimited)
	wantProblem(t, e.loginFrom(t, "10.0.0.66", "admin@test.local", "password1"), http.StatusTooManyRequests, eRateLimited)
	// The owner from a new laptop, while the stranger is held.
	wantStatus(t, e.loginFrom(t, "10.0.0.7", "admin@test.local", "password1"), http.StatusOK)

	// Many strangers, five guesses each, exhaust the account's ceiling
	// (30): a new address is held, the owner's known ones are not.
	for i := range 6 {
		for range 5 {
			e.loginFrom(t, fmt.Sprintf("10.0.1.%d", i), "admin@test.local", "guess")
		}
	}
	wantProblem(t, e.loginFrom(t, "10.0.2.1", "admin@test.local", "password1"), http.StatusTooManyRequests, eRateLimited)
	wantStatus(t, e.loginFrom(t, "10.0.0.5", "admin@test.local", "password1"), http.StatusOK)
	wantStatus(t, e.loginFrom(t, "10.0.0.7", "admin@test.local", "password1"), http.StatusOK)
}

// Oversized logins are refused before anything is remembered, and the
// limiter's memory stays bounded whatever arrives.
func TestLoginMemoryBounded(t *testing.T) {
	e := newTestEnv(t)
	huge := strings.Repeat("a", 900<<10) + "@test.local"
	for i := range 150 {
		rec := e.loginFrom(t, fmt.Sprintf("10.1.%d.%d", i/250, i%250), huge, "guess")
		wantProblem(t, rec, http.StatusUnprocessableEntity, "validation_failed")
	}
	if n := e.srv.loginLimiter.size(); n != 0 {
		t.Fatalf("the limiter holds %d entries after refused logins", n)
	}
	wantProblem(t, e.loginFrom(t, "10.1.9.9", "admin@test.local", strings.Repeat("p", 73)), http.StatusUnprocessableEntity, "validation_failed")

	l := newLoginLimiter(Limit{Burst: 20, Every: 3 * time.Second}, Limit{Burst: 5, Every: 20 * time.Second}, Limit{Burst: 30, Every: time.Minute})
	defer l.stop()
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for i := range maxBuckets + 200 {
		ip := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
		l.allow(ip, fmt.Sprintf("u%d@test.local", i), now)
		l.succeeded(ip, fmt.Sprintf("u%d@test.local", i), now)
	}
	if n := l.size(); n > 2*maxBuckets {
		t.Fatalf("the limiter holds %d entries, more than its bound of %d", n, 2*maxBuckets)
	}
}
