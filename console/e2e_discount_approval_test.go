package console_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Manager-only discounts in the console: the rows' badges "Freigabe
// nötig" and "Nur Admins", the edit form showing who may give the
// discount and saving a change of it, the three choices in plain German;
// at 375 and 1280 px.
func TestConsoleDiscountApproval(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	ids := map[string]string{}
	for name, body := range map[string]string{
		"Reklamation":   `{"name":"Reklamation","discount_type":"percentage","value":20,"approval":"admin_approval"}`,
		"Personalessen": `{"name":"Personalessen","discount_type":"percentage","value":50,"approval":"admins_only"}`,
		"Stammgast":     `{"name":"Stammgast","discount_type":"percentage","value":10}`,
	} {
		code, out := a.call(t, "POST", "/api/discounts", admin, body)
		if code != http.StatusCreated {
			t.Fatalf("POST /api/discounts: %d %s", code, out)
		}
		var res struct{ Discount struct{ ID string } }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		ids[name] = res.Discount.ID
	}
	row := func(name string) string { return `#discounts-active tr[data-id="` + ids[name] + `"]` }

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the three discounts", `document.querySelectorAll('#discounts-active tr[data-id]').length === 3`)
	for _, width := range []int64{375, 1280} {
		b.do(chromedp.EmulateViewport(width, 900))
		if got := b.text(row("Reklamation")); !strings.Contains(got, "Freigabe nötig") || strings.Contains(got, "Nur Admins") {
			t.Errorf("at %d px the approval row %q", width, got)
		}
		if got := b.text(row("Personalessen")); !strings.Contains(got, "Nur Admins") || strings.Contains(got, "Freigabe") {
			t.Errorf("at %d px the admins-only row %q", width, got)
		}
		if got := b.text(row("Stammgast")); strings.Contains(got, "Freigabe") || strings.Contains(got, "Nur Admins") {
			t.Errorf("at %d px the row of a discount anyone gives %q", width, got)
		}
		b.checkNoSideScroll("discounts with approvals", width)
	}

	// The edit form shows the choice; changing it saves only that.
	b.do(chromedp.EmulateViewport(375, 900))
	b.click(row("Personalessen") + ` button.secondary`)
	b.wait("the edit form", `document.querySelector('#discount-form select[name=approval]')?.value === 'admins_only'`)
	choices := eval[[]string](b, `[...document.querySelectorAll('#discount-form select[name=approval] option')].map((o) => o.innerText.trim())`)
	if strings.Join(choices, "|") != "Alle Mitarbeiter|Mitarbeiter mit Freigabe durch einen Admin|Nur Admins" {
		t.Errorf("choices %q", choices)
	}
	if got := b.text("#discount-form [data-field=approval]"); !strings.Contains(got, "Wer darf den Rabatt geben?") || strings.Contains(got, "approval") {
		t.Errorf("the approval field %q", got)
	}
	b.checkNoSideScroll("the discount form", 375)
	b.fill("#discount-form select[name=approval]", "admin_approval")
	b.click("#discount-form button[type=submit]")
	b.wait("the badge changed", `!document.querySelector('#discount-form') && document.querySelector('`+row("Personalessen")+`')?.innerText.includes('Freigabe nötig')`)
	code, out := a.call(t, "GET", "/api/discounts", admin, "")
	if code != http.StatusOK || !strings.Contains(out, `"name":"Personalessen"`) || strings.Count(out, `"approval":"admin_approval"`) != 2 {
		t.Fatalf("after the edit: %d %s", code, out)
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
