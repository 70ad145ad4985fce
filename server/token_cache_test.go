package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A token is kept once its signature checked out: its expiry still ends
// it, a copy with another signature is still refused, and a change of
// password still ends it at once.
func TestVerifiedTokenStillExpiresAndEnds(t *testing.T) {
	e := newTestEnv(t)
	_, tok := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok), http.StatusOK)
	wantStatus(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok), http.StatusOK)

	// The same claims under a signature of other bytes.
	sig := tok[strings.LastIndexByte(tok, '.')+1:]
	forged := tok[:len(tok)-len(sig)] + strings.Map(func(r rune) rune {
		if r == 'A' {
			return 'B'
		}
		return 'A'
	}, sig)
	rec := e.do(t, "GET", "/api/shifts/my-status", nil, forged)
	wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)

	e.clock.Add(e.srv.cfg.TokenTTL + time.Minute)
	rec = e.do(t, "GET", "/api/shifts/my-status", nil, tok)
	wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)
	if !strings.Contains(rec.Body.String(), "expired") {
		t.Fatalf("a cached token past its expiry: %s, want expired", rec.Body)
	}

	// A fresh token, kept, then the admin sets a new password: it ends.
	e.clock.Add(-e.srv.cfg.TokenTTL - time.Minute)
	u, tok2 := e.staff(t, "Kim Staff")
	wantStatus(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok2), http.StatusOK)
	wantStatus(t, e.do(t, "PUT", "/api/users/"+u.ID, map[string]any{"password": "a-new-password-1"}, e.adminToken), http.StatusOK)
	wantProblem(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok2), http.StatusUnauthorized, eUnauthenticated)
}
