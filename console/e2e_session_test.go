package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// expiredNotice is what the login says after a session ended.
const expiredNotice = "Die Sitzung ist abgelaufen. Bitte erneut anmelden; die Eingaben bleiben erhalten."

// A session revoked while a page is open (the admin's rights taken and
// given back by another admin): the next action brings the login with its message, and no
// page says an error of its own; a dialog over the page closes; after the
// login the page is back with what was typed.
func TestConsoleSessionEnded(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	// The chef's logins are the browser's only (a login's rate limit).
	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	admin := eval[string](b, `sessionStorage.getItem('posbox.token')`)
	apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	chef := userID(t, a, admin, "chef@linde.test")
	if code, body := a.call(t, "POST", "/api/users", admin,
		`{"email":"anna@linde.test","name":"Anna Berg","role":"admin","password":"anna-password"}`); code != http.StatusCreated {
		t.Fatalf("create Anna: %d %s", code, body)
	}
	anna := a.token(t, "anna@linde.test", "anna-password")
	// revoke has another admin take the chef's admin rights and give them
	// back: every token issued to him before, the browser's, ends.
	revoke := func() {
		t.Helper()
		for _, role := range []string{"staff", "admin"} {
			if code, body := a.call(t, "PUT", "/api/users/"+chef, anna, fmt.Sprintf(`{"role":%q}`, role)); code != http.StatusOK {
				t.Fatalf("role %s: %d %s", role, code, body)
			}
		}
	}
	atLogin := func(what string) {
		t.Helper()
		b.wait(what, `location.pathname === '/login' && document.querySelector('form.login-form .notice')`)
		if got := eval[string](b, `document.querySelector('form.login-form .notice').className + ' ' + document.querySelector('form.login-form .notice').innerText`); got != "notice warn "+expiredNotice {
			t.Errorf("%s: the login says %q", what, got)
		}
		if eval[string](b, `sessionStorage.getItem('posbox.token') || ''`) != "" {
			t.Errorf("%s: the token is still kept", what)
		}
		if got := eval[string](b, `[...document.querySelectorAll('dialog[open]')].map((d) => d.className).join(' ')`); got != "" {
			t.Errorf("%s: a dialog is still open: %s", what, got)
		}
		if got := eval[string](b, `document.getElementById('toast').className + ': ' + document.getElementById('toast').innerText`); strings.Contains(got, "error") {
			t.Errorf("%s: an error toast: %q", what, got)
		}
	}

	// The users page: a new user half typed, then a password dialog.
	b.clickText("main .page-head button", "Aktualisieren")
	b.wait("the list", `document.querySelector('#users-list tr[data-email="sam@linde.test"]')`)
	b.fill("#user-form input[name=name]", "Rita Rot")
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Passwort zurücksetzen")
	b.wait("the password dialog", `document.querySelector('dialog.password-dialog[open]')`)
	b.fill("dialog.password-dialog input[name=password]", "sam-new-password-2")
	b.fill("dialog.password-dialog input[name=password_repeat]", "sam-new-password-2")
	revoke()
	b.click("dialog.password-dialog button[type=submit]")
	atLogin("the login after the revoked session on the users page")
	a.token(t, "sam@linde.test", "staff-password") // unchanged: the dialog's request met the ended session
	b.login("chef@linde.test", adminPassword)
	b.wait("the users page with the typed name", `location.pathname === '/users' && document.querySelector('#user-form input[name=name]')?.value === 'Rita Rot'`)

	// The time entries page: a form's list of people, asked for after the
	// session ended, says no error of its own (a toast would outlive the page).
	b.open("/time")
	b.wait("the time entries page", `document.querySelector('#add-entry') && document.querySelector('#entries')`)
	revoke()
	b.click("#add-entry")
	atLogin("the login after the revoked session on the time entries page")
	b.login("chef@linde.test", adminPassword)
	b.wait("the time entries page again", `location.pathname === '/time' && document.querySelector('#add-entry')`)

	// The fiscal page: a refresh after the session ended.
	b.open("/fiscal")
	b.wait("the fiscal page", `document.querySelector('#fiscal-registration #registration-missing li')`)
	revoke()
	b.clickText("main .page-head button", "Aktualisieren")
	atLogin("the login after the revoked session on the fiscal page")
	if got := eval[string](b, `location.pathname + ' ' + (sessionStorage.getItem('posbox.return') || '')`); got != "/login /fiscal" {
		t.Errorf("the way back: %q", got)
	}
	b.login("chef@linde.test", adminPassword)
	b.wait("the fiscal page again", `location.pathname === '/fiscal' && document.querySelector('#fiscal-registration #registration-missing li')`)
}

// userID is the id of the user with email (GET /api/users).
func userID(tb testing.TB, a *appliance, token, email string) string {
	tb.Helper()
	code, body := a.call(tb, "GET", "/api/users", token, "")
	var res struct{ Users []struct{ ID, Email string } }
	if code != http.StatusOK || json.Unmarshal([]byte(body), &res) != nil {
		tb.Fatalf("GET /api/users: %d %s", code, body)
	}
	for _, u := range res.Users {
		if u.Email == email {
			return u.ID
		}
	}
	tb.Fatalf("no %s in %s", email, body)
	return ""
}
