package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A staff member who left: no erase button while she is active; once
// disabled, the button asks in plain words what goes now, what stays and
// why (at a phone's and a desktop's width), and erasing takes her off the
// list, her login with it.
func TestConsoleUsersEraseWhoLeft(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/users", admin,
		`{"name":"Kim Koch","role":"staff","email":"kim@linde.test","password":"kim-password-1","staff_number":"K-7","pin":"4711"}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	kimID := jsonField(t, body, "id")
	row := `document.querySelector('#users-list tr[data-email="kim@linde.test"]')`

	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	b.wait("Kim listed", row+`?.innerText.includes('Kim Koch')`)
	if eval[bool](b, row+`.innerText.includes('Persönliche Daten löschen')`) {
		t.Fatal("an active user offers the erasure")
	}
	b.clickText(`#users-list tr[data-email="kim@linde.test"] button`, "Deaktivieren")
	b.wait("Kim disabled", row+`.innerText.includes('Persönliche Daten löschen')`)

	b.clickText(`#users-list tr[data-email="kim@linde.test"] button`, "Persönliche Daten löschen")
	b.wait("the dialog", `document.querySelector('dialog.erase-dialog[open]')`)
	text := eval[string](b, `document.querySelector('dialog.erase-dialog').innerText`)
	for _, want := range []string{"Persönliche Daten von Kim Koch löschen?", "E-Mail-Adresse, das Passwort, die PIN",
		"Name und Personalnummer", "siebten Jahres", "Kürzel", "zehn Jahre", "nicht rückgängig"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, text)
		}
	}
	b.screenshot("users-erase")
	b.clickText("dialog.erase-dialog button", "Abbrechen")
	b.wait("the dialog closed", `!document.querySelector('dialog.erase-dialog')`)
	if code, _ := a.call(t, "PUT", "/api/users/"+kimID, admin, `{"name":"Kim Koch"}`); code != http.StatusOK {
		t.Fatalf("cancelling erased her: %d", code)
	}

	b.clickText(`#users-list tr[data-email="kim@linde.test"] button`, "Persönliche Daten löschen")
	b.wait("the dialog again", `document.querySelector('dialog.erase-dialog[open]')`)
	b.click("dialog.erase-dialog button.danger")
	b.wait("Kim gone, said so", `!`+row+` && document.querySelector('#toast').innerText.includes('Die persönlichen Daten von Kim Koch wurden gelöscht.')`)
	b.screenshot("users-erased")
	if code, body := a.call(t, "POST", "/api/users/"+kimID+"/erase", admin, ""); code != http.StatusConflict || !strings.Contains(body, "user_erased") {
		t.Fatalf("erased again: %d %s", code, body)
	}
	if code, _ := a.call(t, "POST", "/api/auth/login", "", fmt.Sprintf(`{"email":%q,"password":%q}`, "kim@linde.test", "kim-password-1")); code != http.StatusUnauthorized {
		t.Fatalf("the erased user logged in: %d", code)
	}
}

// Owners remove staff who left with "Löschen": the page lists them under
// "Frühere Mitarbeitende" (name, staff number, the day) with the erasure,
// at a phone's width as at a desktop's; once erased, nobody is left there.
func TestConsoleUsersEraseFormerStaff(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/users", admin,
		`{"name":"Kim Koch","role":"staff","email":"kim@linde.test","password":"kim-password-1","staff_number":"K-7","pin":"4711"}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	kimID := jsonField(t, body, "id")
	if code, body := a.call(t, "DELETE", "/api/users/"+kimID, admin, ""); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, body)
	}
	row := `document.querySelector('#users-former-list tr[data-id="` + kimID + `"]')`

	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	b.wait("Kim among the former staff", row+`?.innerText.includes('Kim Koch') && `+row+`.innerText.includes('K-7')`)
	if h2 := eval[string](b, `document.querySelector('#users-former h2').innerText`); h2 != "Frühere Mitarbeitende" {
		t.Errorf("the heading: %q", h2)
	}
	if eval[bool](b, `document.querySelector('#users-list').innerText.includes('Kim Koch')`) {
		t.Error("the deleted user is in the list of users")
	}
	b.screenshot("users-former")

	b.do(chromedp.EmulateViewport(375, 800))
	b.clickText(`#users-former-list tr[data-id="`+kimID+`"] button`, "Persönliche Daten löschen")
	b.wait("the dialog", `document.querySelector('dialog.erase-dialog[open]')`)
	b.click("dialog.erase-dialog button.danger")
	b.wait("Kim erased, said so", `!`+row+` && document.querySelector('#toast').innerText.includes('Die persönlichen Daten von Kim Koch wurden gelöscht.')`)
	b.wait("nobody left", `document.querySelector('#users-former').innerText.includes('Niemand')`)
	b.wait("the erasure recorded, by whom, not whose", `document.querySelector('#users-erasures-list').innerText.includes('Clara Chef') &&
		document.querySelector('#users-erasures-list').innerText.includes('Noch nicht') &&
		!document.querySelector('#users-erasures').innerText.includes('Kim')`)
	b.screenshot("users-former-none")
	if code, body := a.call(t, "GET", "/api/users/former", admin, ""); code != http.StatusOK || strings.Contains(body, kimID) {
		t.Fatalf("former users after the erasure: %d %s", code, body)
	}
}

// A disabled person still clocked in is not erased: the page says in
// German why and what to do, and she stays.
func TestConsoleUsersEraseRefusedWhileClockedIn(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/users", admin,
		`{"name":"Lea Lang","role":"staff","email":"lea@linde.test","password":"lea-password-1"}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	leaID := jsonField(t, body, "id")
	lea := a.token(t, "lea@linde.test", "lea-password-1")
	if code, body := a.call(t, "POST", "/api/shifts/clock-in", lea, ""); code != http.StatusCreated {
		t.Fatalf("clock-in: %d %s", code, body)
	}
	if code, body := a.call(t, "PUT", "/api/users/"+leaID, admin, `{"is_active":false}`); code != http.StatusOK {
		t.Fatalf("disable: %d %s", code, body)
	}
	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	row := `#users-list tr[data-email="lea@linde.test"]`
	b.wait("Lea listed", `document.querySelector('`+row+`')?.innerText.includes('Persönliche Daten löschen')`)
	b.clickText(row+` button`, "Persönliche Daten löschen")
	b.wait("the dialog", `document.querySelector('dialog.erase-dialog[open]')`)
	b.click("dialog.erase-dialog button.danger")
	b.wait("the refusal in German", `document.querySelector('#users-error').innerText.includes('noch eingestempelt')`)
	if text := eval[string](b, `document.querySelector('#users-error').innerText`); strings.Contains(text, "clocked") {
		t.Errorf("an untranslated message: %s", text)
	}
	b.screenshot("users-erase-clocked-in")
	if code, body := a.call(t, "GET", "/api/users", admin, ""); code != http.StatusOK || !strings.Contains(body, leaID) {
		t.Fatalf("the refused erasure removed her: %d %s", code, body)
	}
}
