package console_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The discounts page's "Einlösungen": a manager-only discount given at
// the till by staff with the chef's approval is listed with the waiter's
// and the approver's names, the reason and the order, never an id; at
// 375 and 1280 px.
func TestConsoleDiscountRedemptions(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	sam := a.token(t, "sam@linde.test", "staff-password")
	code, body := a.call(t, "POST", "/api/discounts", admin, `{"name":"Chef-Rabatt","discount_type":"percentage","value":20,"approval":"admin_approval"}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	var res struct{ Discount struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatal(err)
	}
	id := res.Discount.ID
	if code, body := a.call(t, "POST", "/api/discounts/"+id+"/redeem", sam, `{"order_total":24.50,"order_ref":"Tisch 4",`+
		`"lines":[{"quantity":1,"unit_price":24.50,"vat_rate":"REDUCED_1"}],"reason":"Reklamation: Suppe kalt",`+
		`"approval":{"email":"chef@linde.test","password":"`+adminPassword+`"}}`); code != http.StatusOK {
		t.Fatalf("redeem: %d %s", code, body)
	}

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the discount listed", `document.querySelector('#discounts-active tr[data-id="`+id+`"]')?.innerText.includes('Freigabe nötig')`)
	b.click(`#discounts-active tr[data-id="` + id + `"] button.redemptions`)
	b.wait("the redemption listed", `document.querySelector('#redemptions-list tr[data-id]')`)
	row := b.text("#redemptions-list tr[data-id]")
	for _, want := range []string{"4,90\u00a0€", "24,50\u00a0€", "Sam Weber", "Clara Chef", "Reklamation: Suppe kalt", "Tisch 4", "Nein"} {
		if !strings.Contains(row, want) {
			t.Errorf("the row lacks %q: %q", want, row)
		}
	}
	if page := b.text("#discount-redemptions"); strings.Contains(page, id) || strings.Contains(page, "approved_by") || !strings.Contains(page, "Einlösungen: Chef-Rabatt") {
		t.Errorf("the panel: %q", page)
	}
	b.screenshot("discount-redemptions")
	b.do(chromedp.EmulateViewport(375, 800))
	b.checkNoSideScroll("discount-redemptions", 375)
	b.do(chromedp.EmulateViewport(1280, 900))
	b.click("#redemptions-close")
	b.wait("the panel closed", `!document.querySelector('#discount-redemptions')`)
}
