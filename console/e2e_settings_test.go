package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/notify/smtptest"
)

// The settings page: the restaurant's name, state and rest hours; email
// saved pointing at a local SMTP server, a test mail that arrives, and a
// password that is never filled back.
func TestConsoleSettings(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	mb := smtptest.Start(t, smtptest.Options{})

	b.open("/settings")
	b.login("chef@linde.test", adminPassword)
	b.wait("the page", `document.querySelector('#email-form') && document.querySelector('#restaurant-form')`)
	if got := b.text("#email .channel-state"); !strings.Contains(got, "Nicht eingerichtet") {
		t.Fatalf("email state before: %q", got)
	}
	if got := eval[string](b, `document.querySelector('#restaurant-form select[name=federal_state] option[value=BY]').innerText`); got != "Bayern" {
		t.Fatalf("the state's name: %q", got)
	}

	// The restaurant.
	b.fill("#restaurant-form input[name=name]", "Gasthaus Linde am Markt")
	b.fill("#restaurant-form select[name=federal_state]", "BY")
	b.fill("#restaurant-form select[name=min_rest_hours]", "10")
	b.fill("#restaurant-form input[name=open_entry_limit_hours]", "14")
	if got := eval[string](b, `document.querySelector('#restaurant-form select[name=sale_events_by]').selectedOptions[0].innerText`); got != "posbox" {
		t.Fatalf("who sends the events of sales, by default: %q", got)
	}
	if got := b.text("#restaurant-form"); !strings.Contains(got, "Ereignisse zu Bestellungen und Zahlungen sendet") || !strings.Contains(got, "die Kasse") {
		t.Fatalf("the restaurant form %q", got)
	}
	b.fill("#restaurant-form select[name=sale_events_by]", "pos")
	b.click("#restaurant-form button[type=submit]")
	b.wait("the toast", `document.body.innerText.includes('Restaurant-Einstellungen sind gespeichert')`)
	code, body := a.call(t, "GET", "/api/restaurant", admin, "")
	var rest struct {
		Restaurant struct {
			Name           string `json:"name"`
			FederalState   string `json:"federal_state"`
			MinRestHours   int    `json:"min_rest_hours"`
			OpenEntryLimit int    `json:"open_entry_limit_hours"`
			SaleEventsBy   string `json:"sale_events_by"`
		}
	}
	if err := json.Unmarshal([]byte(body), &rest); code != http.StatusOK || err != nil || rest.Restaurant.Name != "Gasthaus Linde am Markt" ||
		rest.Restaurant.FederalState != "BY" || rest.Restaurant.MinRestHours != 10 || rest.Restaurant.OpenEntryLimit != 14 ||
		rest.Restaurant.SaleEventsBy != "pos" {
		t.Fatalf("restaurant: %d %s", code, body)
	}

	// A bad sender address: the field says so and nothing is saved.
	b.fill("#email-form input[name=host]", "127.0.0.1")
	b.fill("#email-form select[name=tls]", "none")
	b.fill("#email-form input[name=port]", fmt.Sprint(mb.Port()))
	b.fill("#email-form input[name=from]", "kasse")
	b.fill("#email-form input[name=password]", "geheim-Passwort-1")
	b.click("#email-form button[type=submit]")
	b.wait("the sender's error", `document.querySelector('#email-form [data-field=from] .error').innerText !== ''`)
	if code, body := a.call(t, "GET", "/api/settings/email", admin, ""); !strings.Contains(body, `"source":"none"`) {
		t.Fatalf("a refused save stored settings: %d %s", code, body)
	}
	b.fill("#email-form input[name=from]", "kasse@linde.test")
	b.click("#email-form button[type=submit]")
	b.wait("set up", `document.querySelector('#email .channel-state')?.innerText.includes('Eingerichtet')`)
	if v := eval[string](b, `document.querySelector('#email-form input[name=password]').value`); v != "" {
		t.Fatalf("the password field kept %q", v)
	}
	if got := b.text("#email-form [data-field=password] .hint"); !strings.Contains(got, "Passwort ist gespeichert") {
		t.Fatalf("password hint %q", got)
	}
	if code, body := a.call(t, "GET", "/api/settings/email", admin, ""); code != http.StatusOK || strings.Contains(body, "geheim") ||
		!strings.Contains(body, `"password_set":true`) {
		t.Fatalf("GET email settings: %d %s", code, body)
	}

	// A test mail with the saved settings arrives; the page says so in words.
	b.fill("#email-test-form input[name=destination]", "inhaberin@linde.test")
	b.click("#email-test-form button[type=submit]")
	b.wait("the test's success", `document.querySelector('#email-test-form .result.ok')?.innerText.includes('vom Mailserver angenommen')`)
	poll.Wait(10*time.Second, func() bool { return len(mb.Received()) > 0 })
	if got := mb.Received(); len(got) != 1 || len(got[0].To) != 1 || got[0].To[0] != "inhaberin@linde.test" {
		t.Fatalf("the mailbox got %v", got)
	}

	// After a reload the password field is still empty: never filled back.
	b.open("/settings")
	b.wait("the page again", `document.querySelector('#email-form input[name=host]')?.value === '127.0.0.1'`)
	if v := eval[string](b, `document.querySelector('#email-form input[name=password]').value`); v != "" {
		t.Fatalf("the password was filled back: %q", v)
	}
	if got := b.text("#sms .channel-state"); !strings.Contains(got, "Nicht eingerichtet") {
		t.Fatalf("sms state: %q", got)
	}
	b.screenshot("settings")
}

// Rules: beside an email rule, that email is not set up (with the way to
// the settings); a rule edited in place; enabling the email rule refused
// in plain words until email is set up.
func TestConsoleNotificationRuleEdit(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	for _, rule := range []string{
		`{"channel":"webhook","event_type":"new_order","is_enabled":true,"destination":"http://127.0.0.1:9/kueche"}`,
		`{"channel":"email","event_type":"daily_report","is_enabled":false,"destination":"inhaberin@linde.test"}`,
	} {
		if code, body := a.call(t, "POST", "/api/notifications/settings", admin, rule); code != http.StatusCreated {
			t.Fatalf("rule: %d %s", code, body)
		}
	}
	row := func(destination string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#rules-list tr[data-id]')].find((r) => r.innerText.includes(%q))`, destination)
	}
	b.open("/notifications")
	b.login("chef@linde.test", adminPassword)
	b.wait("the email rule's warning", row("inhaberin@linde.test")+`?.querySelector('.channel-missing')?.innerText.includes('E-Mail ist nicht eingerichtet')`)
	if eval[bool](b, row("127.0.0.1:9/kueche")+`.querySelector('.channel-missing') !== null`) {
		t.Fatal("a webhook rule warned about its set-up")
	}

	// Edit the webhook rule: another event and destination.
	eval[bool](b, `(() => { `+row("127.0.0.1:9/kueche")+`.querySelector('button.edit').click(); return true; })()`)
	b.wait("the edit form", `document.querySelector('#rule-edit-form input[name=destination]')?.value === 'http://127.0.0.1:9/kueche'`)
	b.fill("#rule-edit-form select[name=event_type]", "payment_received")
	b.fill("#rule-edit-form input[name=destination]", "http://127.0.0.1:9/kasse")
	b.click("#rule-edit-form button[type=submit]")
	b.wait("the edited rule", row("127.0.0.1:9/kasse")+`?.innerText.includes('Zahlung eingegangen')`)
	code, body := a.call(t, "GET", "/api/notifications/settings", admin, "")
	if code != http.StatusOK || !strings.Contains(body, `"event_type":"payment_received","is_enabled":true,"destination":"http://127.0.0.1:9/kasse"`) {
		t.Fatalf("settings: %d %s", code, body)
	}

	// Enabling the email rule while email is not set up: refused, in words.
	eval[bool](b, `(() => { `+row("inhaberin@linde.test")+`.querySelector('button.edit').click(); return true; })()`)
	b.wait("the edit form", `document.querySelector('#rule-edit-form input[name=destination]')?.value === 'inhaberin@linde.test'`)
	if got := b.text("#rule-edit-form .setup-note"); !strings.Contains(got, "E-Mail ist nicht eingerichtet") {
		t.Fatalf("the form's note: %q", got)
	}
	eval[bool](b, `(() => { document.querySelector('#rule-edit-form input[name=is_enabled]').click(); return true; })()`)
	b.click("#rule-edit-form button[type=submit]")
	b.wait("the refusal", `document.querySelector('#rule-edit-form .form-error')?.innerText.includes('erst aktiv sein, wenn der Versand eingerichtet ist')`)
	b.screenshot("notification-rule-edit")
	if _, body := a.call(t, "GET", "/api/notifications/settings", admin, ""); !strings.Contains(body, `"event_type":"daily_report","is_enabled":false`) {
		t.Fatalf("the refused edit changed the rule: %s", body)
	}
	// The link leads to the settings.
	eval[bool](b, `(() => { document.querySelector('#rule-edit-form .setup-note a').click(); return true; })()`)
	b.wait("the settings page", `document.querySelector('#email-form')`)
}
