package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The discounts page: create through the form (with the API's 422 beside
// its field), money and percentages as the restaurant reads them, times
// in the restaurant's zone whatever the browser's, a draft that survives
// a reload, an edit that sends only what changed, deactivate, delete.
func TestConsoleDiscounts(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	// The browser's clock runs in New York; the restaurant is in Berlin.
	if _, err := chromedp.Call(b.ctx, emulation.SetTimezoneOverride,
		emulation.SetTimezoneOverrideParams{TimezoneID: "America/New_York"}); err != nil {
		t.Fatal(err)
	}
	admin := a.token(t, "chef@linde.test", adminPassword)
	type discount struct {
		ID                string   `json:"id"`
		Name              string   `json:"name"`
		Description       *string  `json:"description"`
		DiscountType      string   `json:"discount_type"`
		Value             float64  `json:"value"`
		MinOrderAmount    *float64 `json:"min_order_amount"`
		MaxDiscountAmount *float64 `json:"max_discount_amount"`
		ValidFrom         string   `json:"valid_from"`
		ValidUntil        *string  `json:"valid_until"`
		UsageLimit        *int     `json:"usage_limit"`
		IsActive          bool     `json:"is_active"`
		UpdatedAt         string   `json:"updated_at"`
		Combinable        bool     `json:"combinable"`
		Priority          int      `json:"priority"`
		Approval          string   `json:"approval"`
	}
	list := func() map[string]discount {
		t.Helper()
		code, body := a.call(t, "GET", "/api/discounts", admin, "")
		if code != http.StatusOK {
			t.Fatalf("GET /api/discounts: %d %s", code, body)
		}
		var res struct{ Discounts []discount }
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		m := map[string]discount{}
		for _, d := range res.Discounts {
			m[d.Name] = d
		}
		return m
	}
	row := func(name string) string { // the JS expression of a discount's row
		return fmt.Sprintf(`[...document.querySelectorAll('#discounts-active tr[data-id], #discounts-inactive tr[data-id]')].find((r) => r.querySelector('strong').innerText === %q)`, name)
	}

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the discounts page", `document.querySelector('#discounts-active .empty') && document.querySelector('#discounts-inactive .empty')`)

	// A new discount; the session expires as it is saved: after the
	// login the form is back with its input (a draft).
	b.click("#discount-new")
	b.wait("the form", `document.querySelector('#discount-form input[name=name]')`)
	b.fill("#discount-form input[name=name]", "Stammgast")
	b.fill("#discount-form select[name=applicable_to]", "item")
	eval[bool](b, `(sessionStorage.setItem('posbox.token', 'expired'), true)`)
	b.click("#discount-form button[type=submit]")
	b.wait("the login after the expiry", `location.pathname === '/login' && document.querySelector('.notice')`)
	b.login("chef@linde.test", adminPassword)
	b.wait("the form again, from the draft", `location.pathname === '/discounts' && document.querySelector('#discount-form input[name=name]')?.value === 'Stammgast' && document.querySelector('#discount-editor .notice')`)
	if eval[string](b, `document.querySelector('#discount-form select[name=applicable_to]').value`) != "item" ||
		eval[bool](b, `document.querySelector('#discount-form [data-field=item_id]').hidden`) {
		t.Fatal("the draft's scope was not restored with its field")
	}
	b.fill("#discount-form select[name=applicable_to]", "order")

	// A percentage above 100: the API's message beside the value.
	b.fill("#discount-form textarea[name=description]", "10 % für Stammgäste, höchstens 10 €")
	b.fill("#discount-form input[name=value]", "150")
	b.fill("#discount-form input[name=max_discount_amount]", "10")
	b.fill("#discount-form input[name=min_order_amount]", "20,00")
	b.fill("#discount-form input[name=usage_limit]", "100")
	b.fill("#discount-form input[name=valid_from]", "2026-12-01T10:00")
	b.fill("#discount-form input[name=valid_until]", "2027-07-01T10:00")
	b.click("#discount-form button[type=submit]")
	b.wait("the value's error", `document.querySelector('#discount-form [data-field=value] .error').innerText.includes('Bitte einen Wert von 0 bis 100 eingeben.')`)
	if got := eval[string](b, `document.querySelector('#discount-form [data-field=value] input').getAttribute('aria-invalid')`); got != "true" {
		t.Fatalf("value not marked invalid: %q", got)
	}
	// Amounts the console cannot read are said before asking the API.
	b.fill("#discount-form input[name=value]", "12,345")
	b.click("#discount-form button[type=submit]")
	b.wait("the local amount error", `document.querySelector('#discount-form [data-field=value] .error').innerText.includes('zwei Nachkommastellen')`)
	b.screenshot("discounts-form")

	b.fill("#discount-form input[name=value]", "12,5")
	b.click("#discount-form button[type=submit]")
	b.wait("the new discount listed", `!document.querySelector('#discount-form') && `+row("Stammgast")+`?.closest('#discounts-active')`)
	got := b.text("#discounts-active")
	for _, want := range []string{"12,50\u00a0%", "höchstens 10,00\u00a0€", "ab 20,00\u00a0€", "0 / 100", "01.12.2026, 10:00", "01.07.2027, 10:00", "Geplant"} {
		if !strings.Contains(got, want) {
			t.Errorf("the active list lacks %q: %q", want, got)
		}
	}
	d := list()["Stammgast"]
	if d.DiscountType != "percentage" || d.Value != 12.5 || d.MaxDiscountAmount == nil || *d.MaxDiscountAmount != 10 ||
		d.MinOrderAmount == nil || *d.MinOrderAmount != 20 || d.UsageLimit == nil || *d.UsageLimit != 100 || !d.IsActive {
		t.Fatalf("created %+v", d)
	}
	// 10:00 in Berlin: UTC+1 in December, UTC+2 in July; not New York's.
	if d.ValidFrom != "2026-12-01T09:00:00.000Z" || d.ValidUntil == nil || *d.ValidUntil != "2027-07-01T08:00:00.000Z" {
		t.Fatalf("window %s – %v", d.ValidFrom, *d.ValidUntil)
	}
	if eval[string](b, `sessionStorage.getItem('posbox.draft.discount.new') || ''`) != "" {
		t.Fatal("the saved form kept its draft")
	}

	// A fixed discount typed with a point: euros with two decimals.
	b.click("#discount-new")
	b.wait("an empty form", `document.querySelector('#discount-form input[name=name]')?.value === ''`)
	b.fill("#discount-form input[name=name]", "Pasta-Dienstag")
	b.fill("#discount-form select[name=discount_type]", "fixed")
	b.fill("#discount-form input[name=value]", "2.5")
	b.fill("#discount-form select[name=applicable_to]", "category")
	b.wait("the category field", `!document.querySelector('#discount-form [data-field=category_id]').hidden`)
	// The till has sent no catalogue: the form asks for the id and says where it comes from.
	if got := b.text("#discount-form [data-field=category_id] .hint"); !strings.Contains(got, "Artikelverwaltung der Kasse") {
		t.Fatalf("the category's note: %q", got)
	}
	b.click("#discount-form button[type=submit]")
	b.wait("the category's error", `document.querySelector('#discount-form [data-field=category_id] .error').innerText.includes('Bitte ausfüllen.')`)
	b.fill("#discount-form input[name=category_id]", "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e1f")
	// Stacking: combinable, and a priority out of range first (the API's
	// 422 beside the field, in German), then one typed with a minus sign.
	if got := b.text("#discount-form [data-field=combinable]"); !strings.Contains(got, "Mit anderen Rabatten kombinierbar") || !strings.Contains(got, "jeder auf den Rest") {
		t.Fatalf("the combinable field: %q", got)
	}
	if got := b.text("#discount-form [data-field=priority]"); !strings.Contains(got, "Priorität") || !strings.Contains(got, "die höhere zuerst") {
		t.Fatalf("the priority field: %q", got)
	}
	b.click("#discount-form input[name=combinable]")
	b.fill("#discount-form input[name=priority]", "2000")
	b.click("#discount-form button[type=submit]")
	b.wait("the priority's error", `document.querySelector('#discount-form [data-field=priority] .error')?.innerText.includes('-1.000 bis 1.000')`)
	if got := b.text("#discount-form [data-field=priority] .error"); strings.Contains(got, "priority") || strings.Contains(got, "must") {
		t.Fatalf("the priority's error is not German: %q", got)
	}
	b.fill("#discount-form input[name=priority]", "\u22125")
	// Manager-only: staff give it with an admin's approval.
	if got := b.text("#discount-form [data-field=approval]"); !strings.Contains(got, "Wer darf den Rabatt geben?") ||
		!strings.Contains(got, "Mitarbeiter mit Freigabe durch einen Admin") || !strings.Contains(got, "Grund") {
		t.Fatalf("the approval field: %q", got)
	}
	b.fill("#discount-form select[name=approval]", "admin_approval")
	b.click("#discount-form button[type=submit]")
	b.wait("the fixed discount listed", `!document.querySelector('#discount-form') && `+row("Pasta-Dienstag"))
	if got := eval[string](b, row("Pasta-Dienstag")+`.innerText`); !strings.Contains(got, "Kombinierbar") || !strings.Contains(got, "Freigabe nötig") {
		t.Fatalf("the combinable row: %q", got)
	}
	if p := list()["Pasta-Dienstag"]; !p.Combinable || p.Priority != -5 || p.Approval != "admin_approval" {
		t.Fatalf("stacking of the fixed discount %+v", p)
	}
	if got := eval[string](b, row("Pasta-Dienstag")+`.innerText`); !strings.Contains(got, "2,50\u00a0€") || !strings.Contains(got, "Eine Kategorie") ||
		!strings.Contains(got, "Unbekannte Kategorie") ||
		!strings.Contains(got, "ID 019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e1f") {
		t.Fatalf("fixed discount row: %q", got)
	}
	if p := list()["Pasta-Dienstag"]; p.DiscountType != "fixed" || p.Value != 2.5 {
		t.Fatalf("fixed discount %+v", p)
	}

	// Edit: the form shows Berlin's wall clock; only what changed is sent.
	before := list()["Stammgast"]
	b.click(`#discounts-active tr[data-id="` + d.ID + `"] button.secondary`)
	b.wait("the edit form", `document.querySelector('#discount-form input[name=valid_from]')?.value === '2026-12-01T10:00'`)
	if got := eval[string](b, `document.querySelector('#discount-form input[name=value]').value`); got != "12,5" {
		t.Fatalf("value in the edit form %q", got)
	}
	if eval[bool](b, `document.querySelector('#discount-form input[name=combinable]').checked`) ||
		eval[string](b, `document.querySelector('#discount-form input[name=priority]').value`) != "" {
		t.Fatal("an exclusive discount of priority 0 shows stacking in the edit form")
	}
	b.fill("#discount-form input[name=value]", "15")
	b.click("#discount-form button[type=submit]")
	b.wait("the edited value", `!document.querySelector('#discount-form') && `+row("Stammgast")+`.innerText.includes('15,00')`)
	after := list()["Stammgast"]
	if after.Value != 15 || after.Combinable || after.Priority != 0 || after.Approval != "none" || after.ValidFrom != before.ValidFrom || *after.ValidUntil != *before.ValidUntil || *after.Description != *before.Description {
		t.Fatalf("edit: before %+v after %+v", before, after)
	}
	b.screenshot("discounts")

	// Deactivate with one click: the row moves to the inactive list.
	b.click(`#discounts-active tr[data-id="` + d.ID + `"] td:last-child button:nth-child(2)`)
	b.wait("the discount inactive", row("Stammgast")+`?.closest('#discounts-inactive') && `+row("Stammgast")+`.innerText.includes('Inaktiv')`)
	if list()["Stammgast"].IsActive {
		t.Fatal("the API still has the discount active")
	}

	// Delete after the dialog; cancelling first keeps it.
	b.click(`#discounts-inactive tr[data-id="` + d.ID + `"] button.danger`)
	b.wait("the dialog", `document.querySelector('dialog.confirm[open]')`)
	b.click("dialog.confirm button.secondary")
	b.wait("the dialog gone", `!document.querySelector('dialog.confirm')`)
	if _, ok := list()["Stammgast"]; !ok {
		t.Fatal("cancel deleted the discount")
	}
	b.click(`#discounts-inactive tr[data-id="` + d.ID + `"] button.danger`)
	b.wait("the dialog", `document.querySelector('dialog.confirm[open]')`)
	b.click("dialog.confirm button.danger")
	b.wait("the discount gone", `!`+row("Stammgast")+` && document.querySelector('#discounts-inactive .empty')`)
	if _, ok := list()["Stammgast"]; ok {
		t.Fatal("the API still has the discount")
	}
}
