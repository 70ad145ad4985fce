package console_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The discounts page's codes: "Nur mit Code einlösbar" in the form, a
// batch made from the row's "Codes" (a bad count beside its field), the
// codes listed with their uses once the till redeemed one, the CSV file
// and the printable list; at 375 and 1280 px.
func TestConsoleDiscountCodes(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the discounts page", `document.querySelector('#discounts-active .empty')`)
	b.click("#discount-new")
	b.wait("the form", `document.querySelector('#discount-form input[name=requires_code]')`)
	b.fill("#discount-form input[name=name]", "Flyer Herbst")
	b.fill("#discount-form input[name=value]", "10")
	b.click("#discount-form input[name=requires_code]")
	b.click("#discount-form button[type=submit]")
	b.wait("the discount listed as code only", `[...document.querySelectorAll('#discounts-active tr[data-id]')].some((r) => r.innerText.includes('Flyer Herbst') && r.innerText.includes('Nur mit Code'))`)
	code, body := a.call(t, "GET", "/api/discounts", admin, "")
	if code != http.StatusOK {
		t.Fatalf("GET /api/discounts: %d %s", code, body)
	}
	var res struct {
		Discounts []struct {
			ID           string `json:"id"`
			RequiresCode bool   `json:"requires_code"`
		}
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || len(res.Discounts) != 1 || !res.Discounts[0].RequiresCode {
		t.Fatalf("the discount: %s", body)
	}
	id := res.Discounts[0].ID

	// The codes: a count of 0 is said beside the field, in German.
	b.click(`#discounts-active tr[data-id="` + id + `"] button.codes`)
	b.wait("the codes panel", `document.querySelector('#discount-codes #codes-list .empty')`)
	if got := b.text("#codes-requirement"); !strings.Contains(got, "nur mit einem Code einlösbar") {
		t.Errorf("the requirement's note %q", got)
	}
	b.fill("#codes-form input[name=count]", "0")
	b.click("#codes-form button[type=submit]")
	b.wait("the count's error", `document.querySelector('#codes-form [data-field=count] .error')?.innerText.trim() !== ''`)
	if got := b.text("#codes-form [data-field=count] .error"); strings.Contains(got, "count") || got == "" {
		t.Errorf("the count's error %q", got)
	}
	b.fill("#codes-form input[name=count]", "5")
	b.fill("#codes-form input[name=uses_per_code]", "2")
	b.click("#codes-form input[name=once_per_guest]")
	b.click("#codes-form button[type=submit]")
	b.wait("five codes listed", `document.querySelectorAll('#codes-list tr[data-code]').length === 5`)
	codes := eval[[]string](b, `[...document.querySelectorAll('#codes-list tr[data-code]')].map((r) => r.dataset.code)`)
	shape := regexp.MustCompile(`^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$`)
	for _, c := range codes {
		if !shape.MatchString(c) {
			t.Fatalf("code %q", c)
		}
	}

	// The till redeems one, typed in small letters: the list shows its use.
	if code, body := a.call(t, "POST", "/api/discounts/"+id+"/redeem", admin,
		`{"order_total":20,"code":"`+strings.ToLower(codes[0])+`","guest_ref":"Karte 7"}`); code != http.StatusOK {
		t.Fatalf("redeem: %d %s", code, body)
	}
	b.click("#codes-close")
	b.wait("the panel closed", `!document.querySelector('#discount-codes')`)
	b.click(`#discounts-active tr[data-id="` + id + `"] button.codes`)
	b.wait("the use listed", `document.querySelector('#codes-list tr[data-code="`+codes[0]+`"]')?.innerText.includes('1 von 2')`)
	if got := b.text("#codes-summary"); got != "5 Codes, davon eingelöst: 1" {
		t.Errorf("summary %q", got)
	}
	if got := b.text(`#codes-list tr[data-code="` + codes[1] + `"]`); !strings.Contains(got, "0 von 2") || !strings.Contains(got, "Ja") {
		t.Errorf("an unused code's row %q", got)
	}
	eval[bool](b, `(document.getElementById('toast').className = 'toast', true)`) // the picture without the toast
	b.screenshot("discount-codes")

	// The CSV file: BOM, semicolons, a row per code.
	b.click("#codes-csv")
	data := string(b.waitCSVDownload())
	if !strings.HasPrefix(data, "\ufeffCode;Charge vom;Eingelöst;Einlösungen höchstens;Einmal je Gast;Zuletzt eingelöst\r\n") ||
		strings.Count(data, "\r\n") != 6 || !strings.Contains(data, codes[0]+";") || !strings.Contains(data, ";1;2;ja;") {
		t.Errorf("the CSV:\n%s", data)
	}

	// The printable list, in German, with every code.
	b.click("#codes-print")
	page := b.windowWhere(`document.body.classList.contains('codes') && getComputedStyle(document.body).maxWidth !== 'none'`)
	for _, want := range append([]string{"Rabattcodes: Flyer Herbst", "10 %", "1 von 2"}, codes...) {
		if !strings.Contains(page, want) {
			t.Errorf("the printed list lacks %q:\n%s", want, page)
		}
	}

	// On a phone the row's buttons and the panel fit the screen.
	b.do(chromedp.EmulateViewport(375, 800))
	b.checkNoSideScroll("discount-codes", 375)
	b.do(chromedp.EmulateViewport(1280, 900))
}
