package console_test

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"posbox/store"
)

var (
	// identifierRE is an internal name: snake_case (acquired_on) or a
	// code (validation_failed).
	identifierRE = regexp.MustCompile(`\b[a-z][a-z0-9]*_[a-z0-9_]+\b`)
	uuidRE       = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// englishAPI are phrases of the API's English messages and details.
	englishAPI = []string{"is required", "must be", "must not", "not found", "is invalid", "fields are invalid",
		"overlaps", "already", "null", "YYYY", "HH:MM", "UUID", "RFC 3339"}
)

// noInternalText fails when text an owner reads holds an internal field
// name or code, an id, or a phrase of the API's English messages.
func noInternalText(tb testing.TB, text string) {
	tb.Helper()
	if m := identifierRE.FindString(text); m != "" {
		tb.Errorf("an internal name %q in %q", m, text)
	}
	if m := uuidRE.FindString(text); m != "" {
		tb.Errorf("an id %q in %q", m, text)
	}
	for _, p := range englishAPI {
		if strings.Contains(text, p) {
			tb.Errorf("API English %q in %q", p, text)
		}
	}
}

// shownErrors is every error text a form shows (beside its fields and in
// its message line) and the toast.
func shownErrors(b *browser, form string) string {
	b.tb.Helper()
	return eval[string](b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((e) => e.innerText).filter((s) => s).join('\n') + '\n' +
		(document.getElementById('toast').innerText || '')`, form+" .error, "+form+" .form-error"))
}

// Bad input on German pages: every refusal is said in German, by the
// fields' labels, with no internal name, id or English API message.
func TestConsoleErrorsAreGerman(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sam := apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	todayT, _ := restaurantToday(t)
	today := isoDate(todayT)
	if code, body := a.call(t, "POST", "/api/shifts", admin,
		fmt.Sprintf(`{"user_id":%q,"shift_date":%q,"start_time":"17:00","end_time":"23:00"}`, sam, today)); code != http.StatusCreated {
		t.Fatalf("shift: %d %s", code, body)
	}

	b := newBrowser(t, a)
	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)

	// A discount without a name and with 150 %.
	b.wait("the discounts page", `document.querySelector('#discount-new')`)
	b.click("#discount-new")
	b.wait("the form", `document.querySelector('#discount-form input[name=name]')`)
	b.fill("#discount-form select[name=discount_type]", "percentage")
	b.fill("#discount-form input[name=value]", "150")
	b.click("#discount-form button[type=submit]")
	b.wait("the errors", `document.querySelector('#discount-form [data-field=value] .error').innerText !== ''`)
	if got := b.text("#discount-form [data-field=name] .error"); got != "Bitte ausfüllen." {
		t.Errorf("name's error %q", got)
	}
	if got := b.text("#discount-form [data-field=value] .error"); got != "Bitte einen Wert von 0 bis 100 eingeben." {
		t.Errorf("value's error %q", got)
	}
	noInternalText(t, shownErrors(b, "#discount-form"))
	b.screenshot("errors-discount")

	// Fiscal master data: a register taken out of service before it was
	// bought; the other date is named by its label.
	b.open("/fiscal")
	b.wait("the master data, loaded", `document.querySelector('#master-data #registers .empty')`)
	b.click("#add-register")
	b.wait("a register's fields", `document.querySelector('#master-data fieldset.register')`)
	b.fill(`#master-data [name="registers[0].client_serial"]`, "KASSE-01")
	b.fill(`#master-data [name="registers[0].acquired_on"]`, "2026-01-15")
	b.fill(`#master-data [name="registers[0].decommissioned_on"]`, "2025-12-31")
	b.click(`#master-data button[type=submit]`)
	b.wait("the register's error", `document.querySelector('#master-data [data-field="registers[0].decommissioned_on"] .error').innerText !== ''`)
	if got := b.text(`#master-data [data-field="registers[0].decommissioned_on"] .error`); got != "Darf nicht vor „Angeschafft am“ liegen." {
		t.Errorf("decommissioned's error %q", got)
	}
	noInternalText(t, shownErrors(b, "#master-data"))

	// A shift overlapping Sam's evening: whose and when, not an id.
	b.open("/shifts")
	b.wait("the week grid", `document.querySelector('#week .cell[data-user="`+sam+`"] .shift')`)
	b.click("#add-shift")
	b.wait("the editor", `document.querySelector('dialog.editor[open] [name=user_id] option[value="`+sam+`"]')`)
	b.fill(`dialog.editor [name=user_id]`, sam)
	b.fill(`dialog.editor [name=shift_date]`, today)
	b.fill(`dialog.editor [name=start_time]`, "18:00")
	b.fill(`dialog.editor [name=end_time]`, "22:00")
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the overlap", `document.querySelector('dialog.editor .form-error').innerText !== ''`)
	got := b.text(`dialog.editor .form-error`)
	if !strings.HasPrefix(got, "Die Schicht überschneidet sich mit der Schicht von Sam Weber, ") || !strings.Contains(got, "17:00–23:00") {
		t.Errorf("overlap %q; shown: %s", got, shownErrors(b, "dialog.editor"))
	}
	noInternalText(t, shownErrors(b, "dialog.editor"))
	b.screenshot("errors-shift-overlap")

	// One second is singular (the page's own i18n module: same instance).
	for n, want := range map[int]string{1: "Zu viele Versuche. Bitte in einer Sekunde erneut versuchen.", 5: "Zu viele Versuche. Bitte in 5 Sekunden erneut versuchen."} {
		if got := eval[string](b, fmt.Sprintf(`import('/assets/js/i18n.js').then((m) => m.t('login.rate_limited', { n: %d }))`, n)); got != want {
			t.Errorf("rate limit with %d s: %q", n, got)
		}
	}

	// Logging out is good news, not a warning.
	b.click(`dialog.editor button.close`)
	b.clickText("header .who button", "Abmelden")
	b.wait("the login page", `document.querySelector('form.login-form .notice')`)
	if got := eval[string](b, `document.querySelector('form.login-form .notice').className + ' ' + document.querySelector('form.login-form .notice').innerText`); got != "notice ok Abgemeldet." {
		t.Errorf("after logout: %q", got)
	}
}

// The console has a German and an English text for every field error
// code the server can send (store.FieldCodes, listed in docs/API.md).
func TestConsoleTranslatesEveryFieldCode(t *testing.T) {
	de, en := consoleErrorStrings(t)
	for _, c := range store.FieldCodes {
		key := "'ferr." + c.Code.String() + "'"
		if !strings.Contains(de, key) {
			t.Errorf("no German text %s", key)
		}
		if !strings.Contains(en, key) {
			t.Errorf("no English text %s", key)
		}
	}
}

// consoleErrorStrings is the de and the en part of errors.js.
func consoleErrorStrings(t *testing.T) (de, en string) {
	t.Helper()
	src, err := os.ReadFile("assets/js/errors.js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, "\n  de: {"), strings.Index(s, "\n  en: {")
	if i < 0 || j < i {
		t.Fatal("errors.js has no de and en blocks")
	}
	return s[i:j], s[j:]
}
