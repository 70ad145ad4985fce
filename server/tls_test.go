package server

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With HTTPS on, a plain request from another machine carries nothing
// further: a console page is redirected to https://, an API call refused;
// the box itself (a proxy, curl on localhost) and HTTPS requests pass.
func TestRequireTLS(t *testing.T) {
	e := newTestEnv(t)
	e.serve(t, Config{RequireTLS: true, TLSFingerprint: "AB:CD"})
	send := func(method, target, remote string, viaTLS bool, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.RemoteAddr = remote
		if viaTLS {
			req.TLS = &tls.ConnectionState{}
		}
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return rec
	}
	login := `{"email":"admin@test.local","password":"password1"}`
	rec := send("POST", "http://posbox.local:8080/api/auth/login", "192.168.1.20:5000", false, login)
	wantProblem(t, rec, http.StatusForbidden, eHTTPSRequired)
	rec = send("GET", "http://posbox.local:8080/api/health", "192.168.1.20:5000", false, "")
	wantProblem(t, rec, http.StatusForbidden, eHTTPSRequired)
	rec = send("GET", "http://posbox.local:8080/shifts?week=2026-W48", "192.168.1.20:5000", false, "")
	if rec.Code != http.StatusPermanentRedirect || rec.Header().Get("Location") != "https://posbox.local:8080/shifts?week=2026-W48" {
		t.Fatalf("console page over plain HTTP: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	wantStatus(t, send("POST", "https://posbox.local:8080/api/auth/login", "192.168.1.20:5000", true, login), http.StatusOK)
	wantStatus(t, send("POST", "http://localhost:8080/api/auth/login", "127.0.0.1:5000", false, login), http.StatusOK)
	rec = send("GET", "http://localhost:8080/api/health", "[::1]:5000", false, "")
	wantStatus(t, rec, http.StatusOK)
	if decodeJSON(t, rec)["tls_fingerprint"] != "AB:CD" {
		t.Fatalf("health %s", rec.Body.String())
	}
}
