package server

import (
	"context"
	"net/http"
	"testing"

	"posbox/store"
)

func TestUsers(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/users", map[string]any{"email": "sam@test.local", "name": "Sam", "role": "staff", "password": "password1"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	u := decodeJSON(t, rec)["user"].(map[string]any)
	if _, leaked := u["password_hash"]; leaked || u["role"] != "staff" || u["is_active"] != true {
		t.Fatalf("user %v", u)
	}
	id := u["id"].(string)
	samTok := e.login(t, "sam@test.local", "password1")
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, samTok), http.StatusOK)

	t.Run("ErrValidation", func(t *testing.T) {
		rec := e.do(t, "POST", "/api/users", map[string]any{"email": "not-an-email", "name": "", "role": "boss", "password": "short"}, e.adminToken)
		for _, f := range []string{"email", "name", "role", "password"} {
			wantFieldError(t, rec, f)
		}
		wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"email": "sam@test.local", "name": "Sam", "role": "staff", "password": "password1"}, e.adminToken), "email")
		wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"name": "Sam"}, e.adminToken), "role")
		wantFieldError(t, e.do(t, "POST", "/api/users", map[string]any{"name": "Sam", "role": "staff"}, e.adminToken), "email")
	})
	t.Run("DisableStopsTokenAtOnce", func(t *testing.T) {
		wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
		wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, samTok), http.StatusUnauthorized, eUnauthenticated)
		wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"is_active": true}, e.adminToken), http.StatusOK)
		// Enabled again, Sam logs in again: the old token stays ended.
		wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, samTok), http.StatusUnauthorized, eUnauthenticated)
		samTok = e.freshToken(t, id)
		wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, samTok), http.StatusOK)
	})
	t.Run("NullOnNonNullableField", func(t *testing.T) {
		wantFieldError(t, e.do(t, "PUT", "/api/users/"+id, `{"name":null}`, e.adminToken), "name")
	})
	t.Run("LastAdmin", func(t *testing.T) {
		adm := e.admin.ID
		wantProblem(t, e.do(t, "PUT", "/api/users/"+adm, map[string]any{"role": "staff"}, e.adminToken), http.StatusConflict, "last_admin")
		wantProblem(t, e.do(t, "PUT", "/api/users/"+adm, map[string]any{"is_active": false}, e.adminToken), http.StatusConflict, "last_admin")
		wantProblem(t, e.do(t, "DELETE", "/api/users/"+adm, nil, e.adminToken), http.StatusConflict, "last_admin")
		wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"role": "admin"}, e.adminToken), http.StatusOK)
		wantStatus(t, e.do(t, "PUT", "/api/users/"+adm, map[string]any{"role": "staff"}, e.adminToken), http.StatusOK)
		samTok = e.freshToken(t, id) // Sam's staff token ended with the promotion
	})
	t.Run("DeleteStopsToken", func(t *testing.T) {
		_, tok := e.staff(t, "Gone Soon")
		me := decodeJSON(t, e.do(t, "GET", "/api/auth/me", nil, tok))["user"].(map[string]any)
		rec := e.do(t, "DELETE", "/api/users/"+me["id"].(string), nil, samTok)
		wantStatus(t, rec, http.StatusNoContent)
		if rec.Body.Len() != 0 {
			t.Fatalf("204 with a body: %q", rec.Body.String())
		}
		wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, tok), http.StatusUnauthorized, eUnauthenticated)
		wantProblem(t, e.do(t, "DELETE", "/api/users/"+me["id"].(string), nil, samTok), http.StatusNotFound, "not_found")
	})
	t.Run("ForeignAndBadIDsAre404", func(t *testing.T) {
		r2 := &store.Restaurant{Name: "Other", Timezone: "Europe/Vienna"}
		if err := e.st.CreateRestaurant(context.Background(), r2); err != nil {
			t.Fatal(err)
		}
		foreign, _ := e.addUser(t, r2.ID, "boss@other.local", "Other Boss", store.RoleAdmin)
		wantProblem(t, e.do(t, "PUT", "/api/users/"+foreign.ID, map[string]any{"name": "x"}, samTok), http.StatusNotFound, "not_found")
		wantProblem(t, e.do(t, "PUT", "/api/users/not-a-uuid", map[string]any{"name": "x"}, samTok), http.StatusNotFound, "not_found")
		wantProblem(t, e.do(t, "PUT", "/api/users/{"+id+"}", map[string]any{"name": "x"}, samTok), http.StatusNotFound, "not_found")
	})
}

// login logs in through the API and returns the token.
func (e *testEnv) login(tb testing.TB, email, password string) string {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/auth/login", map[string]string{"email": email, "password": password}, "")
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["access_token"].(string)
}
