package console_test

import (
	"net/http"
	"strings"
	"testing"
)

// Login, the dashboard following a clock-in made at the till, the
// language switch and logout.
func TestConsoleLoginDashboardLanguageLogout(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	b.open("/")
	b.wait("the login page", `location.pathname === '/login'`)
	b.wait("the certificate's fingerprint", `document.querySelector('#tls-fingerprint') && document.querySelector('#tls-fingerprint').innerText.includes('`+testFingerprint+`')`)
	b.screenshot("login")

	// A wrong password is said next to the form, and nothing else happens.
	b.fill(`input[name=email]`, "chef@linde.test")
	b.fill(`input[name=password]`, "wrong-password")
	b.click(`form.login-form button[type=submit]`)
	b.wait("the login error", `document.querySelector('.form-error').innerText.includes('falsch')`)

	b.login("chef@linde.test", adminPassword)
	b.wait("the dashboard", `document.querySelector('#clocked-in')`)
	if got := b.text("#clocked-in"); !strings.Contains(got, "Niemand") {
		t.Fatalf("clocked in before anyone did: %q", got)
	}
	if sessionToken := eval[string](b, `sessionStorage.getItem('posbox.token') || ''`); sessionToken == "" ||
		eval[string](b, `localStorage.getItem('posbox.token') || ''`) != "" {
		t.Fatalf("the token must live in sessionStorage only")
	}

	// Sam clocks in at the till; the dashboard shows him after a refresh.
	staffToken := a.token(t, "chef@linde.test", adminPassword)
	if code, body := a.call(t, "POST", "/api/users", staffToken,
		`{"email":"sam@linde.test","name":"Sam Weber","role":"staff","password":"sam-password"}`); code != http.StatusCreated {
		t.Fatalf("create staff: %d %s", code, body)
	}
	sam := a.token(t, "sam@linde.test", "sam-password")
	if code, body := a.call(t, "POST", "/api/shifts/clock-in", sam, ""); code != http.StatusCreated {
		t.Fatalf("clock-in: %d %s", code, body)
	}
	b.clickText("main button", "Aktualisieren")
	b.wait("Sam on the dashboard", `document.querySelector('#clocked-in').innerText.includes('Sam Weber')`)
	// The appliance signs with the simulator: never "in Ordnung".
	b.wait("the TSE card", `document.querySelector('#tse').innerText.includes('Simulator – keine echte TSE')`)
	b.screenshot("dashboard")

	// English and back.
	b.clickText("header .lang button", "EN")
	b.wait("English", `document.querySelector('main h1').innerText === 'Dashboard'`)
	if got := eval[string](b, `document.documentElement.lang`); got != "en" {
		t.Fatalf("html lang %q", got)
	}
	b.clickText("header .lang button", "DE")
	b.wait("German", `document.querySelector('main h1').innerText === 'Übersicht'`)

	b.clickText("header button", "Abmelden")
	b.wait("the login page after logout", `location.pathname === '/login' && document.querySelector('.notice')`)
	if eval[string](b, `sessionStorage.getItem('posbox.token') || ''`) != "" {
		t.Fatal("the token survived the logout")
	}
}

// The console's own answers: security headers, client-side routes, and
// /api keeping its problem+json 404.
func TestConsoleServing(t *testing.T) {
	a := newAppliance(t)
	res, err := http.Get(a.url + "/shifts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	h := res.Header
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("/shifts: %d %s", res.StatusCode, h.Get("Content-Type"))
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("CSP allows something unsafe: %q", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" || h.Get("ETag") == "" {
		t.Errorf("headers %v", h)
	}
	// The ETag makes a reload cheap.
	req, _ := http.NewRequest("GET", a.url+"/assets/app.css", nil)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/css; charset=utf-8" {
		t.Fatalf("css Content-Type %q", ct)
	}
	req.Header.Set("If-None-Match", res.Header.Get("ETag"))
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", res.StatusCode)
	}
	res, err = http.Get(a.url + "/api/no-such-thing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound || res.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("/api 404: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}
