package console_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A discount's target by name: the till has sent its catalogue, the form
// offers its categories and items by name (items by category), another id
// stays possible, and the list names the target (an unknown id as
// "unknown" with the id beside it); at 375 and 1280 px.
func TestConsoleDiscountCatalogue(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	const (
		pasta   = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e10"
		drinks  = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e11"
		penne   = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e20"
		cola    = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e21"
		unknown = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2eff"
	)
	code, body := a.call(t, "PUT", "/api/catalogue", admin, `{"categories":[{"id":"`+pasta+`","name":"Pasta"},{"id":"`+drinks+`","name":"Getränke"}],
		"items":[{"id":"`+penne+`","name":"Penne Arrabbiata","category_id":"`+pasta+`","vat_rate":"REDUCED_1"},
		{"id":"`+cola+`","name":"Cola 0,3 l","category_id":"`+drinks+`","vat_rate":"NORMAL"}]}`)
	if code != http.StatusOK {
		t.Fatalf("PUT /api/catalogue: %d %s", code, body)
	}
	type target struct{ CategoryID, ItemID *string }
	targets := func() map[string]target {
		t.Helper()
		code, body := a.call(t, "GET", "/api/discounts", admin, "")
		if code != http.StatusOK {
			t.Fatalf("GET /api/discounts: %d %s", code, body)
		}
		var res struct {
			Discounts []struct {
				Name       string  `json:"name"`
				CategoryID *string `json:"category_id"`
				ItemID     *string `json:"item_id"`
			}
		}
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		m := map[string]target{}
		for _, d := range res.Discounts {
			m[d.Name] = target{d.CategoryID, d.ItemID}
		}
		return m
	}
	rowText := func(name string) string {
		return `[...document.querySelectorAll('#discounts-active tr[data-id]')].find((r) => r.querySelector('strong').innerText === '` + name + `')?.innerText || ''`
	}

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the discounts page", `document.querySelector('#discounts-active .empty')`)

	// A category by name; choosing none is "fill this in" beside the select.
	b.click("#discount-new")
	b.wait("the form", `document.querySelector('#discount-form input[name=name]')`)
	b.fill("#discount-form input[name=name]", "Pasta-Woche")
	b.fill("#discount-form input[name=value]", "10")
	b.fill("#discount-form select[name=applicable_to]", "category")
	b.wait("the category picker", `!document.querySelector('#discount-form [data-field=category_id]').hidden && document.querySelector('#discount-form select.target-pick')`)
	opts := eval[string](b, `[...document.querySelectorAll('#discount-form [data-field=category_id] select option')].map((o) => o.text).join('|')`)
	if opts != "Bitte wählen …|Getränke|Pasta|Andere ID eingeben …" {
		t.Fatalf("category options %q", opts)
	}
	if !eval[bool](b, `document.querySelector('#discount-form [data-field=category_id] .target-id').hidden`) {
		t.Fatal("the id input shows before \"another id\" is chosen")
	}
	b.click("#discount-form button[type=submit]")
	b.wait("the category's error", `document.querySelector('#discount-form [data-field=category_id] .error').innerText.includes('Bitte ausfüllen.')`)
	b.screenshot("discount-catalogue-form")
	b.fill("#discount-form [data-field=category_id] select", pasta)
	b.click("#discount-form button[type=submit]")
	b.wait("the category discount listed", `!document.querySelector('#discount-form') && (`+rowText("Pasta-Woche")+`).includes('Pasta')`)
	if got := eval[string](b, rowText("Pasta-Woche")); !strings.Contains(got, "Eine Kategorie") || strings.Contains(got, pasta) {
		t.Fatalf("the row shows %q (a known category by name, without its id)", got)
	}
	if d := targets()["Pasta-Woche"]; d.CategoryID == nil || *d.CategoryID != pasta {
		t.Fatalf("sent %v", d)
	}

	// An item, offered by category.
	b.click("#discount-new")
	b.wait("an empty form", `document.querySelector('#discount-form input[name=name]')?.value === ''`)
	b.fill("#discount-form input[name=name]", "Cola-Aktion")
	b.fill("#discount-form input[name=value]", "5")
	b.fill("#discount-form select[name=applicable_to]", "item")
	groups := eval[string](b, `[...document.querySelectorAll('#discount-form [data-field=item_id] optgroup')].map((g) => g.label + ': ' + [...g.children].map((o) => o.text).join(', ')).join('|')`)
	if groups != "Getränke: Cola 0,3 l|Pasta: Penne Arrabbiata" {
		t.Fatalf("item groups %q", groups)
	}
	b.fill("#discount-form [data-field=item_id] select", cola)
	b.click("#discount-form button[type=submit]")
	b.wait("the item discount listed", `!document.querySelector('#discount-form') && (`+rowText("Cola-Aktion")+`).includes('Cola 0,3 l')`)
	if d := targets()["Cola-Aktion"]; d.ItemID == nil || *d.ItemID != cola {
		t.Fatalf("sent %+v", d)
	}

	// Another id, one the till has not sent: typed, kept, listed as unknown.
	b.click("#discount-new")
	b.wait("an empty form", `document.querySelector('#discount-form input[name=name]')?.value === ''`)
	b.fill("#discount-form input[name=name]", "Neue Karte")
	b.fill("#discount-form input[name=value]", "5")
	b.fill("#discount-form select[name=applicable_to]", "category")
	b.fill("#discount-form [data-field=category_id] select", "__other")
	b.wait("the id input", `!document.querySelector('#discount-form [data-field=category_id] .target-id').hidden`)
	b.fill("#discount-form input[name=category_id]", unknown)
	b.click("#discount-form button[type=submit]")
	b.wait("the unknown category listed", `!document.querySelector('#discount-form') && (`+rowText("Neue Karte")+`).includes('Unbekannte Kategorie')`)
	if got := eval[string](b, rowText("Neue Karte")); !strings.Contains(got, "Nicht in der Artikelliste der Kasse – ID "+unknown) {
		t.Fatalf("unknown row %q", got)
	}
	b.screenshot("discount-catalogue-list")

	// Editing it shows "another id" with the id; choosing a name replaces it.
	b.click(`#discounts-active tr[data-id] button.secondary`) // the first row's edit: the newest
	b.wait("the edit form", `document.querySelector('#discount-form input[name=name]')?.value === 'Neue Karte'`)
	if got := eval[string](b, `document.querySelector('#discount-form [data-field=category_id] select').value + ' ' + document.querySelector('#discount-form input[name=category_id]').value`); got != "__other "+unknown {
		t.Fatalf("the edit form's target %q", got)
	}
	b.fill("#discount-form [data-field=category_id] select", drinks)
	b.click("#discount-form button[type=submit]")
	b.wait("the edited target", `!document.querySelector('#discount-form') && (`+rowText("Neue Karte")+`).includes('Getränke')`)
	if d := targets()["Neue Karte"]; d.CategoryID == nil || *d.CategoryID != drinks {
		t.Fatalf("edited target %v", d)
	}
}
