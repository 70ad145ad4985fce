package server

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"posbox/store"
)

// TestManagerOnlyDiscounts: staff give an admin_approval discount only
// with an active admin's email and password and a reason; an admins_only
// one only an admin gives; each refusal says why and counts nothing; the
// approver and the reason are kept with the redemption.
func TestManagerOnlyDiscounts(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Staff")
	e.staff(t, "Kim Koch") // kim.koch@test.local, password1: staff, no approver
	chef := e.createDiscount(t, `{"name":"Chef-Rabatt","discount_type":"percentage","value":20,"approval":"admin_approval"}`)
	if chef["approval"] != "admin_approval" {
		t.Fatalf("approval %v", chef["approval"])
	}
	id := chef["id"].(string)
	only := e.createDiscount(t, `{"name":"Personalessen","discount_type":"percentage","value":50,"approval":"admins_only"}`)["id"].(string)
	admin := `"approval":{"email":"Admin@Test.local ","password":"password1"}`
	for name, c := range map[string]struct {
		id, token, body string
		status          int
		code            string
	}{
		"staff without approval":        {id, staff, `{"order_total":20,"reason":"Reklamation"}`, 403, store.EApprovalRequired},
		"staff without reason":          {id, staff, `{"order_total":20,` + admin + `}`, 422, store.EValidation},
		"a wrong password":              {id, staff, `{"order_total":20,"reason":"Reklamation","approval":{"email":"admin@test.local","password":"nope"}}`, 403, store.EApprovalInvalid},
		"an unknown approver":           {id, staff, `{"order_total":20,"reason":"Reklamation","approval":{"email":"who@test.local","password":"password1"}}`, 403, store.EApprovalInvalid},
		"a staff member as approver":    {id, staff, `{"order_total":20,"reason":"Reklamation","approval":{"email":"kim.koch@test.local","password":"password1"}}`, 403, store.EApprovalInvalid},
		"an approval without email":     {id, staff, `{"order_total":20,"reason":"Reklamation","approval":{"password":"password1"}}`, 422, store.EValidation},
		"a reason of spaces":            {id, staff, `{"order_total":20,"reason":"  ",` + admin + `}`, 422, store.EValidation},
		"admins only, staff":            {only, staff, `{"order_total":20,"reason":"Schicht",` + admin + `}`, 403, store.EDiscountAdminsOnly},
		"admin without reason":          {id, e.adminToken, `{"order_total":20}`, 422, store.EValidation},
		"admins only, admin, no reason": {only, e.adminToken, `{"order_total":20}`, 422, store.EValidation},
	} {
		t.Run(name, func(t *testing.T) {
			wantProblem(t, e.redeem(t, c.id, c.body, c.token), c.status, c.code)
			if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions`); n != 0 {
				t.Fatalf("%d redemptions after a refusal", n)
			}
		})
	}
	wantFieldError(t, e.redeem(t, id, `{"order_total":20,`+admin+`}`, staff), "reason")

	rec := e.redeem(t, id, `{"order_total":20,"reason":"Reklamation: Suppe kalt",`+admin+`}`, staff)
	wantStatus(t, rec, http.StatusOK)
	r := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any)
	if r["approved_by"] != "Ada Admin" || r["reason"] != "Reklamation: Suppe kalt" || fmt.Sprint(r["amount"]) != "4" {
		t.Fatalf("redemption %v", r)
	}
	if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions WHERE approved_by = ? AND reason = 'Reklamation: Suppe kalt'`, e.admin.ID); n != 1 {
		t.Fatalf("%d redemptions keep the approver and the reason", n)
	}
	rec = e.redeem(t, only, `{"order_total":20,"reason":"Personalessen Schicht 2"}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if r := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any); r["approved_by"] != "Ada Admin" || r["reason"] != "Personalessen Schicht 2" {
		t.Fatalf("admin's own redemption %v", r)
	}
	// A discount anyone gives needs no approval; a reason is kept, no approver.
	free := e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10}`)
	if free["approval"] != "none" {
		t.Fatalf("default approval %v", free["approval"])
	}
	rec = e.redeem(t, free["id"].(string), `{"order_total":20,"reason":"Stammgast, zehnter Besuch"}`, staff)
	wantStatus(t, rec, http.StatusOK)
	if r := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any); r["approved_by"] != nil || r["reason"] != "Stammgast, zehnter Besuch" {
		t.Fatalf("free redemption %v", r)
	}
	// An approval sent for it is not checked: a wrong password refuses nothing.
	wantStatus(t, e.redeem(t, free["id"].(string), `{"order_total":20,"approval":{"email":"admin@test.local","password":"wrong"}}`, staff), http.StatusOK)
	// The pricing tells the till what to ask for.
	if ev := e.evaluate(t, `{"lines":[{"quantity":1,"unit_price":20,"vat_rate":"NORMAL"}]}`, staff); len(ev.Applied) != 1 {
		t.Fatalf("applied %v", ev.applied())
	}
	rec = e.do(t, "POST", "/api/discounts/evaluate", `{"lines":[{"quantity":1,"unit_price":20,"vat_rate":"NORMAL"}]}`, staff)
	applied := jsonNumbers(t, rec.Body.Bytes())["evaluation"].(map[string]any)["applied"].([]any)[0].(map[string]any)
	if applied["name"] != "Personalessen" || applied["approval"] != "admins_only" {
		t.Fatalf("applied %v", applied)
	}
}

// TestManagerOnlyApprovalLimits: wrong approvals are limited like logins
// (the sixth from one till for one account is 429), an admin demoted
// since her password was checked approves nothing, and a retry under the
// same key answers the same, while another reason is another request.
func TestManagerOnlyApprovalLimits(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Koch")
	id := e.createDiscount(t, `{"name":"Chef-Rabatt","discount_type":"fixed","value":5,"approval":"admin_approval"}`)["id"].(string)
	wrong := `{"order_total":20,"reason":"x","approval":{"email":"admin@test.local","password":"wrong"}}`
	for range 5 {
		wantProblem(t, e.redeem(t, id, wrong, staff), http.StatusForbidden, store.EApprovalInvalid)
	}
	wantProblem(t, e.redeem(t, id, wrong, staff), http.StatusTooManyRequests, eRateLimited)

	// The store reads the approver again in the write transaction.
	reason := "Reklamation"
	_, err := e.st.Redeem(context.Background(), e.restaurant.ID, id, store.RedeemInput{OrderTotalCents: 2000, RedeemedBy: kim.ID,
		Reason: &reason, ApprovedBy: kim.ID})
	if store.ErrorCode(err) != store.EApprovalInvalid {
		t.Fatalf("a staff member's approval: %v", err)
	}

	e2 := newTestEnv(t)
	_, staff2 := e2.staff(t, "Sam Staff")
	id2 := e2.createDiscount(t, `{"name":"Chef-Rabatt","discount_type":"fixed","value":5,"approval":"admin_approval"}`)["id"].(string)
	body := `{"order_total":20,"reason":"Reklamation","approval":{"email":"admin@test.local","password":"password1"}}`
	first := e2.do(t, "POST", "/api/discounts/"+id2+"/redeem", body, staff2, "Idempotency-Key", "k1")
	wantStatus(t, first, http.StatusOK)
	again := e2.do(t, "POST", "/api/discounts/"+id2+"/redeem", body, staff2, "Idempotency-Key", "k1")
	if again.Code != http.StatusOK || again.Body.String() != first.Body.String() {
		t.Fatalf("retry: %d %s", again.Code, again.Body.String())
	}
	// The approval was given with the first request: a retry answers the
	// same even when the password no longer matches (changed since).
	changed := `{"order_total":20,"reason":"Reklamation","approval":{"email":"admin@test.local","password":"changed-since"}}`
	if again := e2.do(t, "POST", "/api/discounts/"+id2+"/redeem", changed, staff2, "Idempotency-Key", "k1"); again.Code != http.StatusOK || again.Body.String() != first.Body.String() {
		t.Fatalf("retry after a password change: %d %s", again.Code, again.Body.String())
	}
	other := `{"order_total":20,"reason":"anders","approval":{"email":"admin@test.local","password":"password1"}}`
	wantProblem(t, e2.do(t, "POST", "/api/discounts/"+id2+"/redeem", other, staff2, "Idempotency-Key", "k1"),
		http.StatusUnprocessableEntity, store.EIdempotencyKeyReused)
	if n := e2.redemptions(t, id2); n != 1 {
		t.Fatalf("%d redemptions, want 1", n)
	}
}
