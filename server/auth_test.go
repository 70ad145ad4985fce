package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/julienschmidt/httprouter"
)

func TestLogin(t *testing.T) {
	e := newTestEnv(t)
	t.Run("OK", func(t *testing.T) {
		rec := e.do(t, "POST", "/api/auth/login", map[string]string{"email": "Admin@Test.local", "password": "password1"}, "")
		wantStatus(t, rec, http.StatusOK)
		m := decodeJSON(t, rec)
		if m["token_type"] != "Bearer" || m["expires_in"] != float64(12*3600) {
			t.Fatalf("login body %v", m)
		}
		me := e.do(t, "GET", "/api/auth/me", nil, m["access_token"].(string))
		wantStatus(t, me, http.StatusOK)
		if decodeJSON(t, me)["user"].(map[string]any)["email"] != "admin@test.local" {
			t.Fatalf("me: %s", me.Body.String())
		}
	})
	t.Run("ErrSameAnswerForUnknownEmailAndWrongPassword", func(t *testing.T) {
		a := e.do(t, "POST", "/api/auth/login", map[string]string{"email": "nobody@test.local", "password": "password1"}, "", "X-Forwarded-For", "1")
		b := e.do(t, "POST", "/api/auth/login", map[string]string{"email": "admin@test.local", "password": "wrong-password"}, "")
		pa := wantProblem(t, a, http.StatusUnauthorized, eUnauthenticated)
		pb := wantProblem(t, b, http.StatusUnauthorized, eUnauthenticated)
		if pa["detail"] != pb["detail"] {
			t.Fatalf("different answers: %v vs %v", pa["detail"], pb["detail"])
		}
	})
}

func TestLoginRateLimited(t *testing.T) {
	e := newTestEnv(t)
	var last int
	for i := 0; i < 6; i++ {
		rec := e.do(t, "POST", "/api/auth/login", map[string]string{"email": "admin@test.local", "password": "wrong-password"}, "")
		last = rec.Code
		if rec.Code == http.StatusTooManyRequests {
			wantProblem(t, rec, http.StatusTooManyRequests, eRateLimited)
			if rec.Header().Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
			if i != 5 {
				t.Fatalf("limited after %d attempts, want 5 allowed", i)
			}
			// The right password is refused too while the bucket is empty.
			rec = e.do(t, "POST", "/api/auth/login", map[string]string{"email": "admin@test.local", "password": "password1"}, "")
			wantStatus(t, rec, http.StatusTooManyRequests)
			return
		}
	}
	t.Fatalf("never rate limited; last status %d", last)
}

func TestAuthErrors(t *testing.T) {
	e := newTestEnv(t)
	_, staffTok := e.staff(t, "Sam Staff")
	expired, _ := IssueToken(testKey, e.admin, e.clock.Now().Add(-2*time.Hour), time.Hour)
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"sub": e.admin.ID, "rid": e.restaurant.ID, "role": "admin", "iss": "posbox", "exp": e.clock.Now().Add(time.Hour).Unix()}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	otherKey, _ := IssueToken([]byte(strings.Repeat("x", 32)), e.admin, e.clock.Now(), time.Hour)
	for name, hdr := range map[string]string{
		"NoHeader":  "",
		"NotBearer": "Basic YWRtaW46eA==",
		"Garbage":   "Bearer abc.def.ghi",
		"Expired":   "Bearer " + expired,
		"AlgNone":   "Bearer " + none,
		"OtherKey":  "Bearer " + otherKey,
	} {
		t.Run(name, func(t *testing.T) {
			rec := e.do(t, "GET", "/api/users", nil, "", "Authorization", hdr)
			wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)
			if !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate %q", rec.Header().Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("StaffOnAdminRoute", func(t *testing.T) {
		wantProblem(t, e.do(t, "GET", "/api/users", nil, staffTok), http.StatusForbidden, eForbidden)
	})
}

func TestTransportErrors(t *testing.T) {
	e := newTestEnv(t)
	t.Run("UnknownRoute", func(t *testing.T) {
		wantProblem(t, e.do(t, "GET", "/api/nope", nil, e.adminToken), http.StatusNotFound, "not_found")
	})
	t.Run("TrailingSlashIsNotRedirected", func(t *testing.T) {
		wantProblem(t, e.do(t, "GET", "/api/users/", nil, e.adminToken), http.StatusNotFound, "not_found")
	})
	t.Run("MethodNotAllowed", func(t *testing.T) {
		rec := e.do(t, "PATCH", "/api/users", nil, e.adminToken)
		wantProblem(t, rec, http.StatusMethodNotAllowed, eMethodNotAllowed)
		if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "POST") {
			t.Fatalf("Allow %q", allow)
		}
	})
	body := map[string]any{"email": "x@test.local", "name": "X", "role": "staff", "password": "password1"}
	t.Run("UnsupportedMediaType", func(t *testing.T) {
		rec := e.do(t, "POST", "/api/users", `{"email":"a@b.c"}`, e.adminToken, "Content-Type", "text/plain")
		wantProblem(t, rec, http.StatusUnsupportedMediaType, eUnsupportedMedia)
	})
	t.Run("JSONWithCharsetIsFine", func(t *testing.T) {
		rec := e.do(t, "POST", "/api/users", body, e.adminToken, "Content-Type", "application/json; charset=utf-8")
		wantStatus(t, rec, http.StatusCreated)
	})
	t.Run("TooLarge", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("a", 2<<20) + `"}`
		wantProblem(t, e.do(t, "POST", "/api/users", big, e.adminToken), http.StatusRequestEntityTooLarge, eTooLarge)
	})
	t.Run("Malformed", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/users", `{"email":`, e.adminToken), http.StatusBadRequest, eMalformedJSON)
	})
	t.Run("UnknownField", func(t *testing.T) {
		p := wantProblem(t, e.do(t, "POST", "/api/users", `{"emali":"a@b.c"}`, e.adminToken), http.StatusBadRequest, eUnknownField)
		if !strings.Contains(p["detail"].(string), "emali") {
			t.Fatalf("detail does not name the field: %v", p["detail"])
		}
	})
	t.Run("WrongType", func(t *testing.T) {
		wantFieldError(t, e.do(t, "POST", "/api/users", `{"email":42}`, e.adminToken), "email")
	})
	t.Run("Panic", func(t *testing.T) {
		rec := httptestPanic(t, e)
		wantProblem(t, rec, http.StatusInternalServerError, eInternal)
		if strings.Contains(rec.Body.String(), "boom") {
			t.Fatalf("panic value leaked: %s", rec.Body.String())
		}
	})
}

// httptestPanic serves a route that panics through a router built like
// the real one.
func httptestPanic(tb testing.TB, e *testEnv) *httptest.ResponseRecorder {
	tb.Helper()
	r := e.srv.newRouter()
	e.srv.route(r, "GET", "/boom", public, func(http.ResponseWriter, *http.Request, httprouter.Params) error {
		panic("boom: SELECT secret FROM users")
	})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	return rec
}
