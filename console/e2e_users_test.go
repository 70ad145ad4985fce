package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The users page: create a staff member (a 422 beside its field), change
// the role both ways, the last admin kept (409), reset a password in the
// dialog (never shown again), disable.
func TestConsoleUsers(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	login := func(email, password string) int { // a till's login: the status only
		t.Helper()
		code, _ := a.call(t, "POST", "/api/auth/login", "", fmt.Sprintf(`{"email":%q,"password":%q}`, email, password))
		return code
	}
	row := func(email string) string {
		return fmt.Sprintf(`document.querySelector('#users-list tr[data-email=%q]')`, email)
	}
	apiUser := func(email string) string { // the user's JSON in GET /api/users
		t.Helper()
		code, body := a.call(t, "GET", "/api/users", admin, "")
		if code != http.StatusOK {
			t.Fatalf("GET /api/users: %d %s", code, body)
		}
		i := strings.Index(body, `"email":"`+email+`"`)
		if i < 0 {
			t.Fatalf("no %s in %s", email, body)
		}
		end := strings.Index(body[i:], "}")
		return body[i : i+end]
	}

	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	b.wait("the list", row("chef@linde.test")+`?.innerText.includes('Sie')`)

	// A password that is too short: the API's message beside the field.
	b.fill("#user-form input[name=name]", "Sam Weber")
	b.fill("#user-form input[name=email]", "sam@linde.test")
	b.fill("#user-form [data-field=password] input", "short")
	b.click("#user-form button[type=submit]")
	b.wait("the password's error", `document.querySelector('#user-form [data-field=password] .error').innerText.includes('Bitte 8 bis 72 Zeichen eingeben.')`)
	if draft := eval[string](b, `sessionStorage.getItem('posbox.draft.user.new') || ''`); !strings.Contains(draft, "sam@linde.test") || strings.Contains(draft, "short") {
		t.Fatalf("the draft must keep the input but never the password: %s", draft)
	}
	const samPassword = "sam-password-1"
	b.fill("#user-form [data-field=password] input", samPassword)
	b.click("#user-form button[type=submit]")
	b.wait("Sam listed", row("sam@linde.test")+`?.innerText.includes('Mitarbeiter')`)
	if v := eval[string](b, `document.querySelector('#user-form [data-field=password] input').value + document.querySelector('#user-form input[name=email]').value`); v != "" {
		t.Fatalf("the form kept %q after saving", v)
	}
	samToken := a.token(t, "sam@linde.test", samPassword)

	// The same email again is refused beside the email.
	b.fill("#user-form input[name=name]", "Sam Zwei")
	b.fill("#user-form input[name=email]", "sam@linde.test")
	b.fill("#user-form [data-field=password] input", "another-password")
	b.click("#user-form button[type=submit]")
	b.wait("the email's error", `document.querySelector('#user-form [data-field=email] .error').innerText.includes('schon vergeben')`)
	b.fill("#user-form input[name=name]", "")
	b.fill("#user-form input[name=email]", "")
	b.fill("#user-form [data-field=password] input", "")

	// The role, both ways.
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Zum Administrator machen")
	b.wait("Sam an admin", row("sam@linde.test")+`.innerText.includes('Administrator') && `+row("sam@linde.test")+`.innerText.includes('Zum Mitarbeiter machen')`)
	if u := apiUser("sam@linde.test"); !strings.Contains(u, `"role":"admin"`) {
		t.Fatalf("role: %s", u)
	}
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Zum Mitarbeiter machen")
	b.wait("Sam staff again", row("sam@linde.test")+`.innerText.includes('Zum Administrator machen')`)
	if u := apiUser("sam@linde.test"); !strings.Contains(u, `"role":"staff"`) {
		t.Fatalf("role: %s", u)
	}

	// Disabling the only admin (oneself) is refused, and said so.
	b.clickText(`#users-list tr[data-email="chef@linde.test"] button`, "Deaktivieren")
	b.wait("the warning about oneself", `document.querySelector('dialog.confirm[open]')?.innerText.includes('eigene Konto')`)
	b.click("dialog.confirm button.danger")
	b.wait("the last-admin error", `document.querySelector('#users-error').innerText.includes('mindestens ein aktiver Administrator')`)
	if u := apiUser("chef@linde.test"); !strings.Contains(u, `"is_active":true`) {
		t.Fatalf("the last admin was disabled: %s", u)
	}

	// A new password for Sam, in the dialog; shown nowhere afterwards.
	const newPassword = "sam-new-password-2"
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Passwort zurücksetzen")
	b.wait("the password dialog", `document.querySelector('dialog.password-dialog[open]')`)
	b.fill("dialog.password-dialog input[name=password]", newPassword)
	b.fill("dialog.password-dialog input[name=password_repeat]", "something-else")
	b.click("dialog.password-dialog button[type=submit]")
	b.wait("the mismatch", `document.querySelector('dialog.password-dialog [data-field=password_repeat] .error').innerText.includes('nicht überein')`)
	b.fill("dialog.password-dialog input[name=password_repeat]", newPassword)
	b.screenshot("users-password")
	b.click("dialog.password-dialog button[type=submit]")
	b.wait("the dialog closed", `!document.querySelector('dialog.password-dialog') && document.querySelector('#toast').innerText.includes('Passwort von Sam Weber')`)
	if eval[bool](b, fmt.Sprintf(`document.body.innerText.includes(%q) || [...document.querySelectorAll('input')].some((i) => i.value.includes(%q)) || JSON.stringify(sessionStorage).includes(%q)`,
		newPassword, newPassword, newPassword)) {
		t.Fatal("the new password is still somewhere in the page")
	}
	a.token(t, "sam@linde.test", newPassword)
	if code := login("sam@linde.test", samPassword); code != http.StatusUnauthorized {
		t.Fatalf("the old password: %d", code)
	}

	// Disable Sam: his login and his token stop working.
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Deaktivieren")
	b.wait("Sam disabled", row("sam@linde.test")+`.innerText.includes('Deaktiviert') && `+row("sam@linde.test")+`.innerText.includes('Aktivieren')`)
	if code := login("sam@linde.test", newPassword); code != http.StatusUnauthorized {
		t.Fatalf("a disabled user logged in: %d", code)
	}
	if code, _ := a.call(t, "GET", "/api/auth/me", samToken, ""); code != http.StatusUnauthorized {
		t.Fatalf("a disabled user's token: %d", code)
	}
	b.screenshot("users")
}
