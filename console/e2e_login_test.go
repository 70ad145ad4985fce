package console_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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

// A password someone else chose (here another admin's; the generated
// first one works the same): at the first login the console asks for her
// own and shows nothing else; after the change she stays logged in, the
// console works, and only the new password logs in.
func TestConsoleFirstLoginAsksForOwnPassword(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	const given, own = "given-by-clara-1", "ninas-own-password"
	if code, body := a.call(t, "POST", "/api/users", admin,
		`{"email":"nina@linde.test","name":"Nina Neu","role":"admin","password":"`+given+`"}`); code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	b := newBrowser(t, a)
	b.open("/shifts")
	b.login("nina@linde.test", given)
	b.wait("the own-password form", `location.pathname === '/account' && document.querySelector('#must-change') && document.querySelector('#password-form')`)
	if n := eval[int](b, `document.querySelectorAll('nav#nav a').length`); n != 1 || !strings.Contains(b.text("nav#nav"), "Mein Konto") {
		t.Fatalf("the navigation offers more than her account: %q", b.text("nav#nav"))
	}
	if txt := b.text("main"); strings.Contains(txt, "null") || strings.Contains(txt, "undefined") {
		t.Fatalf("the page shows a program's word: %q", txt)
	}
	b.screenshot("account-first-login")
	// Nothing else opens until she has changed it.
	b.do(chromedp.Navigate(a.url + "/users"))
	b.wait("back at the form", `location.pathname === '/account' && document.querySelector('#password-form')`)

	b.fill("#password-form input[name=current_password]", "not-the-password")
	b.fill("#password-form input[name=new_password]", own)
	b.fill("#password-form input[name=new_password_repeat]", own)
	b.click("#password-form button[type=submit]")
	b.wait("the wrong current password", `document.querySelector('#password-form [data-field=current_password] .error').innerText.includes('falsch')`)
	b.fill("#password-form input[name=current_password]", given)
	b.fill("#password-form input[name=new_password]", own)
	b.fill("#password-form input[name=new_password_repeat]", own+"x")
	b.click("#password-form button[type=submit]")
	b.wait("the mismatch", `document.querySelector('#password-form [data-field=new_password_repeat] .error').innerText.includes('nicht überein')`)
	b.fill("#password-form input[name=new_password_repeat]", own)
	b.click("#password-form button[type=submit]")
	b.wait("the dashboard", `location.pathname === '/' && document.querySelector('#clocked-in')`)
	if !strings.Contains(b.text("#toast"), "Sie bleiben angemeldet") {
		t.Fatalf("toast %q", b.text("#toast"))
	}
	// Still logged in: the next page loads, no expiry.
	b.clickText("nav#nav a", "Benutzer")
	b.wait("the users list", `document.querySelector('#users-list tr[data-email="nina@linde.test"]')`)
	if eval[bool](b, `location.pathname === '/login' || !!document.querySelector('.login-form')`) {
		t.Fatal("the session ended after her own password change")
	}
	if b.text("#users-list") == "" || strings.Contains(b.text("#users-list tr[data-email=\"nina@linde.test\"]"), "Muss Passwort ändern") {
		t.Fatalf("still marked: %q", b.text("#users-list"))
	}
	if code, _ := a.call(t, "POST", "/api/auth/login", "", `{"email":"nina@linde.test","password":"`+given+`"}`); code != http.StatusUnauthorized {
		t.Fatalf("the given password still logs in: %d", code)
	}
	a.token(t, "nina@linde.test", own)
}
