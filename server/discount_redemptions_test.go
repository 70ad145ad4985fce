package server

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestDiscountRedemptionsList: the owner reviews a discount's
// redemptions newest first, with people by name, the approval and its
// reason, the order, and whether a sale booked it.
func TestDiscountRedemptionsList(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staff := e.staff(t, "Sam Staff")
	d := e.createDiscount(t, `{"name":"Chef-Rabatt","discount_type":"percentage","value":10,"approval":"admin_approval"}`)["id"].(string)
	approval := `"reason":"Reklamation: Suppe kalt","approval":{"email":"admin@test.local","password":"password1"}`
	first := e.redeemBasket(t, d, `{"order_ref":"T4-0815",`+approval+`,`+lunch+`}`, staff)
	e.clock.Add(90 * time.Second)
	wantStatus(t, e.redeem(t, d, `{"order_total":12,"reason":"Geburtstag des Chefs"}`, e.adminToken), http.StatusOK)
	e.sell(t, lunchSale(78, 129, discountLine(d, first.RedemptionID, "0.78", "NORMAL"), discountLine(d, first.RedemptionID, "1.29", "REDUCED_1")), staff)

	rec := e.do(t, "GET", "/api/discounts/"+d+"/redemptions", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	list := jsonNumbers(t, rec.Body.Bytes())["redemptions"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d redemptions listed", len(list))
	}
	newest, oldest := list[0].(map[string]any), list[1].(map[string]any)
	got := func(m map[string]any) string {
		return fmt.Sprintf("%v|%v|%v|%v|%v|%v|%v", m["amount"], m["redeemed_by"], m["approved_by"], m["reason"], m["order_ref"], m["booked"], m["code"])
	}
	if g := got(newest); g != "1.2|Ada Admin|Ada Admin|Geburtstag des Chefs|<nil>|false|<nil>" {
		t.Fatalf("newest %s", g)
	}
	if g := got(oldest); g != "2.07|Sam Staff|Ada Admin|Reklamation: Suppe kalt|T4-0815|true|<nil>" || oldest["id"] != first.RedemptionID {
		t.Fatalf("oldest %s", g)
	}
	wantProblem(t, e.do(t, "GET", "/api/discounts/0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01/redemptions", nil, e.adminToken), http.StatusNotFound, "not_found")
}
