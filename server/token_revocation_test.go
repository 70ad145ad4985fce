package server

import (
	"context"
	"net/http"
	"testing"

	"posbox/store"
)

// Changing or resetting a password, changing the role, disabling or
// deleting a user ends every token issued before; a new login works.
func TestTokensEndWithPasswordRoleOrAccess(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	for _, c := range []struct {
		name, body string
		password   string // "" when the user can no longer get a token
	}{
		{"password", `{"password":"a-new-password"}`, "a-new-password"},
		{"role", `{"role":"admin"}`, "a-new-password"},
		{"role back", `{"role":"staff"}`, "a-new-password"},
		{"disabled", `{"is_active":false}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := e.freshToken(t, sam.ID)
			wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, old), http.StatusOK)
			wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, c.body, e.adminToken), http.StatusOK)
			wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, old), http.StatusUnauthorized, eUnauthenticated)
			if c.password != "" {
				wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, e.freshToken(t, sam.ID)), http.StatusOK)
			}
		})
	}
	// A rename changes nothing a token grants: tokens stay valid.
	wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, `{"is_active":true}`, e.adminToken), http.StatusOK)
	tok := e.loginAs(t, sam.Email, "a-new-password") // a real login, after all the changes
	wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, `{"name":"Sam Renamed"}`, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusOK)
	// A token-version bump by any write (here a raw one) ends the token
	// on the very next request: the auth view is dropped by the commit.
	if err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(context.Background(), `UPDATE users SET token_version = token_version + 1 WHERE id = ?`, sam.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusUnauthorized, eUnauthenticated)
	tok = e.freshToken(t, sam.ID)
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusOK)
	wantStatus(t, e.do(t, "DELETE", "/api/users/"+sam.ID, nil, e.adminToken), http.StatusNoContent)
	wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusUnauthorized, eUnauthenticated)
}

// freshToken issues a token as a login would now (the user's current
// token version), without the login's rate limits.
func (e *testEnv) freshToken(tb testing.TB, userID string) string {
	tb.Helper()
	u, err := e.st.User(context.Background(), e.restaurant.ID, userID)
	if err != nil {
		tb.Fatal(err)
	}
	return e.tokenNow(tb, u)
}

// loginAs logs in through the API and returns the token.
func (e *testEnv) loginAs(tb testing.TB, email, password string) string {
	tb.Helper()
	rec := e.loginFrom(tb, "192.0.2.10", email, password)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["access_token"].(string)
}
