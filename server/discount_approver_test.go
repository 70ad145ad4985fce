package server

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"posbox/store"
)

// TestManagerOnlyApproverRevoked: only an active admin of the restaurant
// approves. A deactivated admin or one of another restaurant gets the
// same 403 as a wrong password; an admin demoted after her approval was
// checked approves nothing in the write transaction; none of it counts a
// use. The password is in neither the server's log nor the stored
// answer.
func TestManagerOnlyApproverRevoked(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	var log bytes.Buffer
	e.serveLogged(t, e.cfg, &log)
	_, staff := e.staff(t, "Sam Staff")
	id := e.createDiscount(t, `{"name":"Chef-Rabatt","discount_type":"fixed","value":5,"approval":"admin_approval"}`)["id"].(string)
	ctx := context.Background()

	gone, _ := e.addUser(t, e.restaurant.ID, "gone@test.local", "Gina Gone", store.RoleAdmin)
	if _, err := e.st.UpdateUser(ctx, e.restaurant.ID, gone.ID, store.UserUpdate{IsActive: store.Of(false)}); err != nil {
		t.Fatal(err)
	}
	other := &store.Restaurant{Name: "Anderswo", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(ctx, other); err != nil {
		t.Fatal(err)
	}
	e.addUser(t, other.ID, "boss@elsewhere.local", "Otto Other", store.RoleAdmin)
	for _, email := range []string{"gone@test.local", "boss@elsewhere.local"} {
		body := `{"order_total":20,"reason":"Reklamation","approval":{"email":"` + email + `","password":"password1"}}`
		wantProblem(t, e.redeem(t, id, body, staff), http.StatusForbidden, store.EApprovalInvalid)
	}

	// Demoted between the password check and the write transaction.
	demoted, _ := e.addUser(t, e.restaurant.ID, "demoted@test.local", "Dora Demoted", store.RoleAdmin)
	if _, err := e.st.UpdateUser(ctx, e.restaurant.ID, demoted.ID, store.UserUpdate{Role: store.Of(store.RoleStaff)}); err != nil {
		t.Fatal(err)
	}
	reason := "Reklamation"
	_, err := e.st.Redeem(ctx, e.restaurant.ID, id, store.RedeemInput{OrderTotalCents: 2000, RedeemedBy: e.admin.ID,
		Reason: &reason, ApprovedBy: demoted.ID})
	if store.ErrorCode(err) != store.EApprovalInvalid {
		t.Fatalf("a demoted admin's approval: %v", err)
	}
	if n := e.redemptions(t, id); n != 0 {
		t.Fatalf("%d redemptions after refusals", n)
	}

	const secret = "password1"
	body := `{"order_total":20,"reason":"Reklamation","approval":{"email":"admin@test.local","password":"` + secret + `"}}`
	wantStatus(t, e.do(t, "POST", "/api/discounts/"+id+"/redeem", body, staff, "Idempotency-Key", "k1"), http.StatusOK)
	var resp []byte
	if err := e.st.ReadDB().QueryRowContext(ctx, `SELECT response FROM idempotency_keys WHERE key = 'k1'`).Scan(&resp); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(resp, []byte(secret)) || strings.Contains(log.String(), secret) {
		t.Fatal("the approver's password was kept")
	}
	if !strings.Contains(log.String(), "discount approval refused") {
		t.Fatalf("refused approvals not logged: %s", log.String())
	}
}

// TestDiscountApprovalField: approval is written on create and update
// like the other members; another value or null is 422 on approval, and
// an update that leaves it out keeps it.
func TestDiscountApprovalField(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	wantFieldError(t, e.do(t, "POST", "/api/discounts", `{"name":"X","discount_type":"fixed","value":1,"approval":"manager"}`, e.adminToken), "approval")
	id := e.createDiscount(t, `{"name":"X","discount_type":"fixed","value":1}`)["id"].(string)
	for _, bad := range []string{`{"approval":"ADMINS_ONLY"}`, `{"approval":null}`, `{"approval":""}`} {
		wantFieldError(t, e.do(t, "PUT", "/api/discounts/"+id, bad, e.adminToken), "approval")
	}
	rec := e.do(t, "PUT", "/api/discounts/"+id, `{"approval":"admins_only"}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	rec = e.do(t, "PUT", "/api/discounts/"+id, `{"name":"Y"}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if d := e.getDiscount(t, id); d["approval"] != "admins_only" || d["name"] != "Y" {
		t.Fatalf("discount %v", d)
	}
}
