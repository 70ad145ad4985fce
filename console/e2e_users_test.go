package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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
	_, me := a.call(t, "GET", "/api/auth/me", samToken, "")
	samID := jsonField(t, me, "id")

	// The same email again is refused beside the email. The form's button
	// comes back once the list is reloaded: a click before that is lost.
	b.wait("the form ready", `!document.querySelector('#user-form button[type=submit]').disabled`)
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

	// Disable Sam: his login and his token stop working, and the admin
	// is told that his planned shift from today on is now unstaffed.
	todayT, _ := restaurantToday(t)
	if code, body := a.call(t, "POST", "/api/shifts", admin, fmt.Sprintf(`{"user_id":%q,"shift_date":%q,"start_time":"17:00","end_time":"23:00"}`,
		samID, isoDate(todayT.AddDate(0, 0, 1)))); code != http.StatusCreated {
		t.Fatalf("shift: %d %s", code, body)
	}
	b.clickText(`#users-list tr[data-email="sam@linde.test"] button`, "Deaktivieren")
	b.wait("Sam disabled", row("sam@linde.test")+`.innerText.includes('Deaktiviert') && `+row("sam@linde.test")+`.innerText.includes('Aktivieren')`)
	b.wait("the unstaffed shift said", `document.querySelector('#toast').innerText.includes('Eine geplante Schicht ab heute ist jetzt unbesetzt')`)
	if code := login("sam@linde.test", newPassword); code != http.StatusUnauthorized {
		t.Fatalf("a disabled user logged in: %d", code)
	}
	if code, _ := a.call(t, "GET", "/api/auth/me", samToken, ""); code != http.StatusUnauthorized {
		t.Fatalf("a disabled user's token: %d", code)
	}
	b.screenshot("users")
}

// A kitchen helper without an email: created with staff number and PIN,
// listed with her staff number, logs in at the till with them; a new PIN
// from the dialog replaces the old; name, email and staff number are
// edited in place; the admin's own row leads to her own password form,
// where the change keeps her logged in.
func TestConsoleUsersStaffNumberPINAndEdit(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	pinLogin := func(sn, pin string) int {
		t.Helper()
		code, _ := a.call(t, "POST", "/api/auth/login", "", fmt.Sprintf(`{"staff_number":%q,"pin":%q}`, sn, pin))
		return code
	}
	bySN := func(sn string) string {
		return fmt.Sprintf(`document.querySelector('#users-list tr[data-staff-number=%q]')`, sn)
	}
	// Jo washes up: no email either, made by the API beforehand.
	admin := a.token(t, "chef@linde.test", adminPassword)
	if code, body := a.call(t, "POST", "/api/users", admin, `{"name":"Jo Spüle","role":"staff","staff_number":"K-2","pin":"135790"}`); code != http.StatusCreated {
		t.Fatalf("create Jo: %d %s", code, body)
	}
	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	b.wait("the list", `document.querySelector('#users-list tr[data-email="chef@linde.test"]')`)
	if !eval[bool](b, `document.querySelector('#user-form [data-field=password]').hidden`) {
		t.Fatal("a password is asked for although no email is given")
	}

	b.fill("#user-form input[name=name]", "Kim Küche")
	b.fill("#user-form input[name=staff_number]", "K-7")
	b.fill("#user-form [data-field=pin] input", "4711")
	b.screenshot("users-new-without-email")
	// Without email and PIN: refused beside the email.
	b.fill("#user-form [data-field=pin] input", "")
	b.click("#user-form button[type=submit]")
	b.wait("the email's error", `document.querySelector('#user-form [data-field=email] .error').innerText !== ''`)
	b.fill("#user-form [data-field=pin] input", "4711")
	b.click("#user-form button[type=submit]")
	b.wait("Kim listed", bySN("K-7")+`?.innerText.includes('Personalnummer und PIN')`)
	if draft := eval[string](b, `sessionStorage.getItem('posbox.draft.user.new') || ''`); strings.Contains(draft, "4711") {
		t.Fatalf("the draft holds the PIN: %s", draft)
	}
	if !strings.Contains(b.text("#users-list"), "K-7") {
		t.Fatal("the staff number is not listed")
	}
	if code := pinLogin("K-7", "4711"); code != http.StatusOK {
		t.Fatalf("Kim's PIN login: %d", code)
	}
	// No password to reset and no admin role for her.
	if txt := b.text(`#users-list tr[data-staff-number="K-7"]`); strings.Contains(txt, "Passwort zurücksetzen") || strings.Contains(txt, "Zum Administrator") {
		t.Fatalf("offers what cannot work: %q", txt)
	}

	// A new PIN in the dialog.
	b.clickText(`#users-list tr[data-staff-number="K-7"] button`, "PIN festlegen")
	b.wait("the PIN dialog", `document.querySelector('dialog.pin-dialog[open]')`)
	b.fill("dialog.pin-dialog input[name=pin]", "246813")
	b.fill("dialog.pin-dialog input[name=pin_repeat]", "246813")
	b.screenshot("users-pin")
	b.click("dialog.pin-dialog button[type=submit]")
	b.wait("the dialog closed", `!document.querySelector('dialog.pin-dialog') && document.querySelector('#toast').innerText.includes('PIN von Kim')`)
	if pinLogin("K-7", "4711") != http.StatusUnauthorized || pinLogin("K-7", "246813") != http.StatusOK {
		t.Fatal("the PIN did not change")
	}

	// Edit: Kim gets an email (and a password with it), a new name and number.
	b.clickText(`#users-list tr[data-staff-number="K-7"] button`, "Bearbeiten")
	b.wait("the edit dialog", `document.querySelector('dialog.edit-dialog[open]')`)
	b.fill("dialog.edit-dialog input[name=name]", "Kim Koch")
	b.fill("dialog.edit-dialog input[name=staff_number]", "K-8")
	b.fill("dialog.edit-dialog input[name=email]", "kim@linde.test")
	b.screenshot("users-edit")
	b.click("dialog.edit-dialog button[type=submit]")
	b.wait("the password's error", `document.querySelector('dialog.edit-dialog [data-field=password] .error').innerText !== ''`)
	b.fill("dialog.edit-dialog input[name=password]", "kims-first-pass")
	b.click("dialog.edit-dialog button[type=submit]")
	b.wait("Kim edited", `!document.querySelector('dialog.edit-dialog') && `+bySN("K-8")+`?.innerText.includes('Kim Koch')`)
	if txt := b.text(`#users-list tr[data-staff-number="K-8"]`); !strings.Contains(txt, "kim@linde.test") || !strings.Contains(txt, "Muss Passwort ändern") {
		t.Fatalf("row after the edit: %q", txt)
	}
	a.token(t, "kim@linde.test", "kims-first-pass")

	// Her own row: no reset meant for others, but her own password form.
	own := `#users-list tr[data-email="chef@linde.test"]`
	if strings.Contains(b.text(own), "Passwort zurücksetzen") {
		t.Fatal("her own row offers the reset meant for others")
	}
	b.clickText(own+" button", "Eigenes Passwort ändern")
	b.wait("the account page", `location.pathname === '/account' && document.querySelector('#password-form')`)
	const mine = "claras-new-password"
	b.fill("#password-form input[name=current_password]", adminPassword)
	b.fill("#password-form input[name=new_password]", mine)
	b.fill("#password-form input[name=new_password_repeat]", mine)
	b.click("#password-form button[type=submit]")
	b.wait("changed", `document.querySelector('#toast').innerText.includes('Sie bleiben angemeldet')`)
	b.screenshot("account")
	b.clickText("nav#nav a", "Benutzer")
	b.wait("the list again, still logged in", `document.querySelector('#users-list tr[data-email="chef@linde.test"]')`)
	if eval[bool](b, `!!document.querySelector('.login-form')`) {
		t.Fatal("logged out after her own password change")
	}
	if code, _ := a.call(t, "POST", "/api/auth/login", "", fmt.Sprintf(`{"email":"chef@linde.test","password":%q}`, adminPassword)); code != http.StatusUnauthorized {
		t.Fatalf("the old password: %d", code)
	}
	b.wait("the toast gone", `!document.querySelector('#toast').classList.contains('show')`)
	b.screenshot("users-staff")
	// On a phone every state word stays inside its card.
	b.do(chromedp.EmulateViewport(375, 800))
	b.wait("the phone layout", `document.documentElement.clientWidth === 375`)
	if out := eval[string](b, `[...document.querySelectorAll('#users-list .badge')].filter((el) => el.getBoundingClientRect().right > el.closest('td').getBoundingClientRect().right + 0.5).map((el) => el.innerText).join(', ')`); out != "" {
		t.Fatalf("at 375 px these leave their card: %s", out)
	}
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 375 {
		t.Fatalf("the users page is %d px wide at 375", w)
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
