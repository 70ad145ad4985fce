package console_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The DATEV card, as an owner sets it up with her adviser's numbers: the
// download is refused while the numbers are missing, a wrong number is
// refused beside its field, SKR04 fills in its accounts, and the month's
// file downloads with the day's bookings on those accounts; the card
// fits a phone.
func TestConsoleDATEV(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	for _, s := range []string{
		`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.42}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":21.42}]}`,
		`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"REDUCED_1","amount":8.50}],"amounts_per_payment_type":[{"payment_type":"NON_CASH","amount":8.50}]}`,
	} {
		if code, body := a.call(t, "POST", "/api/tse/transactions", admin, s); code != http.StatusCreated {
			t.Fatalf("sale: %d %s", code, body)
		}
	}
	if code, body := a.call(t, "POST", "/api/tse/closings", admin, `{"client_serial":"KASSE-01"}`); code != http.StatusCreated {
		t.Fatalf("closing: %d %s", code, body)
	}
	todayT, _ := restaurantToday(t)
	month := todayT.Format("200601")

	b := newBrowser(t, a)
	b.open("/fiscal")
	b.login("chef@linde.test", adminPassword)
	b.wait("the DATEV card", `document.querySelector('#fiscal-datev input[name="accounts.cash"]')`)
	if got := b.text("#datev-heading"); got != "DATEV-Export für die Steuerberatung" {
		t.Fatalf("heading %q", got)
	}
	if got := eval[string](b, `document.querySelector('#datev-settings [name="accounts.revenue_normal"]').value`); got != "8400" {
		t.Fatalf("SKR03's 19 %% revenue account %q", got)
	}
	b.click("#datev-download button[type=submit]")
	b.wait("the refusal", `document.querySelector('#datev-download .form-error').innerText !== ''`)
	if got := b.text("#datev-download .form-error"); !strings.Contains(got, "Beraternummer") {
		t.Fatalf("refusal %q", got)
	}

	b.fill(`#datev-settings [name=consultant_number]`, "12")
	b.click("#datev-settings button[type=submit]")
	b.wait("the field error", `document.querySelector('#datev-settings [data-field=consultant_number] .error').innerText !== ''`)

	b.fill(`#datev-settings [name=consultant_number]`, "1234567")
	b.fill(`#datev-settings [name=client_number]`, "42")
	b.fill(`#datev-settings [name=chart]`, "SKR04")
	if got := eval[[]string](b, `['cash', 'transit', 'revenue_normal', 'tips'].map((k) => document.querySelector('#datev-settings [name="accounts.' + k + '"]').value)`); strings.Join(got, " ") != "1600 1460 4400 1370" {
		t.Fatalf("SKR04 accounts %v", got)
	}
	b.click("#datev-settings button[type=submit]")
	b.wait("saved", `document.body.innerText.includes('DATEV-Einstellungen gespeichert.')`)
	if code, body := a.call(t, "GET", "/api/fiscal/datev/accounts", admin, ""); code != http.StatusOK || !strings.Contains(body, `"chart":"SKR04"`) ||
		!strings.Contains(body, `"consultant_number":1234567`) {
		t.Fatalf("saved settings %d %s", code, body)
	}

	b.click("#datev-download button[type=submit]")
	name, data := b.waitDownload(".csv")
	if !strings.HasPrefix(name, "EXTF_Buchungsstapel_"+month+"01_"+month) {
		t.Fatalf("file name %q", name)
	}
	for _, want := range []string{"\"EXTF\";700;21;\"Buchungsstapel\";9;", ";1234567;42;", "21,42;\"S\";\"EUR\";;;;1460;4400;",
		"8,50;\"S\";\"EUR\";;;;1460;4300;", "21,42;\"S\";\"EUR\";;;;1600;1460;", "8,50;\"S\";\"EUR\";;;;1461;1460;", "\r\n"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Fatalf("the file lacks %q:\n%s", want, data)
		}
	}
	b.screenshot("fiscal-datev")

	b.do(chromedp.EmulateViewport(375, 800))
	time.Sleep(150 * time.Millisecond)
	if !eval[bool](b, `document.documentElement.scrollWidth <= window.innerWidth`) {
		t.Fatalf("the page at 375 px is wider: %v", eval[[]string](b, `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + '#' + e.id)`))
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
