package server

import (
	"net/http"
	"testing"

	"posbox/store"
)

// TestRedeemWithBasketIdempotent: a retry of a basket redemption with its
// key answers the first one byte for byte (the members in another order
// too) and counts nothing; the same key with another basket or another
// order_ref is another request.
func TestRedeemWithBasketIdempotent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"combinable":true}`)["id"].(string)
	body := `{"order_ref":"T4",` + lunch + `}`
	first := e.redeemKey(t, id, body, staff, "till-1-T4")
	wantStatus(t, first, http.StatusOK)
	sameAnswer(t, first, e.redeemKey(t, id, body, staff, "till-1-T4"))
	sameAnswer(t, first, e.redeemKey(t, id, `{`+lunch+`,"order_total":20.70,"order_ref":"T4"}`, staff, "till-1-T4"))
	for name, other := range map[string]string{
		"another order": `{"order_ref":"T5",` + lunch + `}`,
		"no order":      `{` + lunch + `}`,
		"another basket": `{"order_ref":"T4","lines":[{"quantity":3,"unit_price":3.90,"vat_rate":"NORMAL"},
			{"category_id":"` + catID + `","quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1"}]}`,
		"no basket": `{"order_total":20.70}`,
	} {
		t.Run(name, func(t *testing.T) {
			wantProblem(t, e.redeemKey(t, id, other, staff, "till-1-T4"), http.StatusUnprocessableEntity, store.EIdempotencyKeyReused)
		})
	}
	if u := e.usage(t, id); u != "1" {
		t.Fatalf("usage_count %s, want 1", u)
	}
	if n := e.countRows(t, `SELECT count(*) FROM discount_redemption_rates`); n != 2 {
		t.Fatalf("%d rates recorded, want 2", n)
	}
}

// TestRedeemHashWithoutBasket: a redemption without lines, order_ref or
// approval hashes as before baskets, so a till's retry across the update
// still finds its key.
func TestRedeemHashWithoutBasket(t *testing.T) {
	t.Parallel()
	// The request hash's shape before baskets.
	type before struct {
		DiscountID string
		OrderTotal int64
		Eligible   *int64
		Code       *string `json:",omitempty"`
		GuestRef   *string `json:",omitempty"`
	}
	eligible, code := int64(3000), "K7QP-MX3D"
	for _, c := range []struct {
		now redeemHashed
		was before
	}{
		{redeemHashed{DiscountID: "d1", OrderTotal: 4000}, before{DiscountID: "d1", OrderTotal: 4000}},
		{redeemHashed{DiscountID: "d1", OrderTotal: 4000, Eligible: &eligible, Code: &code},
			before{DiscountID: "d1", OrderTotal: 4000, Eligible: &eligible, Code: &code}},
	} {
		if got, want := hashOf(c.now), hashOf(c.was); got != want {
			t.Fatalf("%+v hashes %s, before baskets %s", c.now, got, want)
		}
	}
}
