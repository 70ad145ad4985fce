package console_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The tax office's auditor: the owner creates the access on the users
// page (role, last day, the plain explanation); the auditor sees only
// the fiscal pages, a banner with the last day, and nothing to change;
// a page outside them leads back; the owner reads every call on
// "Prüfzugriffe". At 375 and 1280 px.
func TestConsoleAuditor(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	b.open("/users")
	b.login("chef@linde.test", adminPassword)
	b.wait("the form", `document.querySelector('#user-form select[name=role]')`)

	// Choosing the role shows the last day with the explanation and hides
	// the staff number.
	b.fill("#user-form select[name=role]", "auditor")
	b.wait("the last day", `!document.querySelector('#user-form [data-field=valid_until]').hidden &&
		document.querySelector('#user-form [data-field=staff_number]').hidden &&
		document.querySelector('#user-form [data-field=valid_until]').innerText.includes('nur die Steuerdaten')`)
	b.fill("#user-form input[name=name]", "Petra Prüfer")
	b.fill("#user-form input[name=email]", "pruefer@finanzamt.test")
	b.fill("#user-form [data-field=password] input", "pruef-start-1")
	b.fill("#user-form input[name=valid_until]", "2099-01-01")
	b.click("#user-form button[type=submit]")
	b.wait("the date's error", `document.querySelector('#user-form [data-field=valid_until] .error').innerText.trim() !== ''`)
	last := eval[string](b, `(() => { const d = new Date(); d.setDate(d.getDate() + 10); return d.toISOString().slice(0, 10); })()`)
	b.fill("#user-form input[name=valid_until]", last)
	b.fill("#user-form [data-field=password] input", "pruef-start-1")
	b.click("#user-form button[type=submit]")
	row := `document.querySelector('#users-list tr[data-email="pruefer@finanzamt.test"]')`
	b.wait("the auditor listed", row+`?.innerText.includes('Prüfer/in (Finanzamt)') && `+row+`.innerText.includes('bis ')`)
	if eval[bool](b, row+`.innerText.includes('Zum Administrator machen')`) {
		t.Fatal("an auditor is offered the admin role")
	}
	b.screenshot("auditor-users")

	// Her own password first (the API: as the console's account page does).
	tok := a.token(t, "pruefer@finanzamt.test", "pruef-start-1")
	if code, body := a.call(t, "POST", "/api/auth/password", tok, `{"current_password":"pruef-start-1","new_password":"pruef-eigen-2"}`); code != http.StatusOK {
		t.Fatalf("password: %d %s", code, body)
	}

	b.clickText("header button", "Abmelden")
	b.login("pruefer@finanzamt.test", "pruef-eigen-2")
	b.wait("the receipts", `document.querySelector('#tse-transactions')`)
	nav := eval[[]string](b, `[...document.querySelectorAll('nav#nav a')].map((a) => a.innerText.replace(/\u00ad/g, '').trim())`)
	if !slices.Equal(nav, []string{"Belege und TSE", "Steuerdaten", "Verfahrensdokumentation", "Mein Konto"}) {
		t.Fatalf("the auditor's navigation: %v", nav)
	}
	banner := b.text(".auditor-banner")
	if !strings.Contains(banner, "Prüfzugang bis") || !strings.Contains(banner, "nur lesen") {
		t.Fatalf("banner %q", banner)
	}
	b.wait("the device", `document.querySelector('#tse-device dl')`)
	if eval[bool](b, `!!document.querySelector('#run-self-test, #tse-queue')`) {
		t.Fatal("the auditor is offered the self-test or the queue")
	}
	b.screenshot("auditor-receipts")

	b.clickText("nav#nav a", "Steuerdaten")
	b.wait("the fiscal records", `document.querySelector('#fiscal-registration form.read-only')`)
	if eval[bool](b, `!!document.querySelector('#take-closing, #archive-export')`) {
		t.Fatal("the auditor is offered to take a closing or export the archive")
	}
	if !eval[bool](b, `[...document.querySelectorAll('#master-data input')].every((i) => i.readOnly) &&
		[...document.querySelectorAll('#master-data button')].every((x) => !x.offsetParent)`) {
		t.Fatal("the master data can be edited by the auditor")
	}
	b.wait("the kept registrations", `document.querySelector('#elster-history h4')`)
	if eval[bool](b, `!!document.querySelector('#elster-submitted, #registration-due, #registration-not-due')`) {
		t.Fatal("the auditor is offered the owner's registration to-do")
	}
	if !eval[bool](b, `!!document.querySelector('#download-elster')`) {
		t.Fatal("the auditor cannot download the ELSTER file")
	}
	b.screenshot("auditor-fiscal")

	// The procedure document: read, never edited.
	b.clickText("nav#nav a", "Verfahrens")
	b.wait("the document", `document.querySelector('#procdoc-current li') && document.querySelector('#procdoc-owner-read dt')`)
	if eval[bool](b, `!!document.querySelector('#procdoc-owner, #procdoc-owner textarea')`) {
		t.Fatal("the auditor is offered to edit the owner's sections")
	}

	// A page that is not hers leads back to her first page.
	b.open("/users")
	b.wait("back at the receipts", `location.pathname === '/' && document.querySelector('#tse-transactions')`)

	// The owner reads what she did.
	b.clickText("header button", "Abmelden")
	b.open("/audit-log")
	b.login("chef@linde.test", adminPassword)
	b.wait("the log", `document.querySelector('#audit-list tr[data-status]')`)
	text := b.text("#audit-list")
	for _, want := range []string{"Petra Prüfer", "Belege", "Stammdaten", "gezeigt", "Anmeldung"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the log lacks %q: %s", want, text)
		}
	}
	code, body := a.call(t, "GET", "/api/audit-log", tok, "")
	if code != http.StatusUnauthorized { // her token ended with her password change
		t.Fatalf("the auditor's old token on the log: %d %s", code, body)
	}
	b.screenshot("auditor-log")

	// Her pages asked for nothing she may not read: no refused request
	// but the one address typed by hand (/users is no API call).
	adminTok := a.token(t, "chef@linde.test", adminPassword)
	code, body = a.call(t, "GET", "/api/audit-log?limit=200", adminTok, "")
	if code != http.StatusOK {
		t.Fatalf("the log: %d %s", code, body)
	}
	if strings.Contains(body, `"status":403`) {
		t.Fatalf("the auditor's pages made a refused request: %s", body)
	}
}
