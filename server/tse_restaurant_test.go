package server

import (
	"context"
	"net/http"
	"testing"

	"posbox/store"
	"posbox/tse"
)

// The appliance's TSS belongs to one restaurant. A second restaurant on
// the same appliance gets 409 tse_not_configured for everything that
// would reach the TSS, nothing is recorded or signed for it, and the
// first restaurant goes on as before.
func TestTSESecondRestaurantIsNotSignedUnderAnothersTSS(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	other := &store.Restaurant{Name: "Zweites Lokal", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	_, token := e.addUser(t, other.ID, "admin@zweites.local", "Zoe Admin", store.RoleAdmin)

	for _, c := range []struct{ method, path string }{
		{"POST", "/api/tse/transactions"},
		{"GET", "/api/tse/status"},
		{"GET", "/api/tse/info"},
		{"POST", "/api/tse/self-test"},
		{"POST", "/api/tse/queue/" + store.NewID() + "/retry"},
	} {
		var body any
		if c.path == "/api/tse/transactions" {
			body = sale("KASSE-01", 990)
		}
		rec := e.do(t, c.method, c.path, body, token, "Idempotency-Key", "k-1")
		wantProblem(t, rec, http.StatusConflict, store.ETSENotConfigured)
	}
	// Its own records are simply empty.
	rec := e.do(t, "GET", "/api/tse/queue", nil, token)
	wantStatus(t, rec, http.StatusOK)
	if q := decodeJSON(t, rec)["queue"].(map[string]any); num(q["pending"]) != 0 {
		t.Fatalf("queue of the second restaurant %v", q)
	}
	page, err := e.sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil || page.Count != 0 {
		t.Fatalf("provider holds %d transactions (%v), want none", page.Count, err)
	}
	// The restaurant the TSS belongs to signs as before.
	if s, tx := e.sell(t, sale("KASSE-01", 990), e.adminToken); s != http.StatusCreated || num(tx["number"]) != 1 {
		t.Fatalf("first restaurant: %d %v", s, tx)
	}
}
