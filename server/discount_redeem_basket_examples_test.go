package server

import (
	"net/http"
	"testing"

	"posbox/store"
)

// TestRedeemWithBasketSplitExample: docs/API.md's fixed 5.00 over a beer,
// a schnitzel and a water, redeemed without order_ref, is priced alone as
// the evaluation prices it: 1.00 / 3.29 / 0.71, NORMAL 1.71, REDUCED_1
// 3.29.
func TestRedeemWithBasketSplitExample(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Gutschein","discount_type":"fixed","value":5}`)["id"].(string)
	basket := `"lines":[{"quantity":1,"unit_price":3.90,"vat_rate":"NORMAL"},
		{"quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1"},{"quantity":1,"unit_price":2.80,"vat_rate":"NORMAL"}]`
	ev := e.evaluate(t, `{`+basket+`}`, staff)
	want := "5 | 0=1 1=3.29 2=0.71 | NORMAL=1.71 REDUCED_1=3.29"
	if got := ev.Applied[0].render(); got != want {
		t.Fatalf("evaluated %q, want %q", got, want)
	}
	// Twice, without order_ref: each priced alone on the whole basket.
	for range 2 {
		if got := e.redeemBasket(t, id, `{`+basket+`}`, staff); got.render() != want || got.OrderRef != nil {
			t.Fatalf("redeemed %q (order_ref %v), want %q", got.render(), got.OrderRef, want)
		}
	}
}

// TestRedeemWithBasketExclusiveWins: on the lunch a 5.00 exclusive beats
// two combinable ones (2.07 + 2.00); the evaluation applies it alone, the
// redemption under an order_ref takes exactly that, and the combinable
// ones the evaluation skipped are refused on that order, not counted.
func TestRedeemWithBasketExclusiveWins(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5}`)
	e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"combinable":true,"priority":5}`)
	e.createDiscount(t, `{"name":"Schnitzeltag","discount_type":"fixed","value":2,"applicable_to":"category","category_id":"`+catID+`","combinable":true}`)
	ev := e.evaluate(t, `{`+lunch+`}`, staff)
	if got := ev.applied(); got != "Flyer 5 NORMAL=1.88 REDUCED_1=3.12" {
		t.Fatalf("evaluation %q", got)
	}
	got := e.redeemBasket(t, ev.Applied[0].DiscountID, `{"order_ref":"T7",`+lunch+`}`, staff)
	if got.render() != ev.Applied[0].render() {
		t.Fatalf("redeemed %q, evaluated %q", got.render(), ev.Applied[0].render())
	}
	if len(ev.Skipped) != 2 {
		t.Fatalf("skipped %s", ev.skipped())
	}
	for _, s := range ev.Skipped {
		wantProblem(t, e.redeem(t, s.DiscountID, `{"order_ref":"T7",`+lunch+`}`, staff), http.StatusConflict, store.EDiscountNotCombinable)
		if u := e.usage(t, s.DiscountID); u != "0" {
			t.Fatalf("%s counted %s uses", s.Name, u)
		}
	}
}

// TestRedeemWithBasketZeroPart: 1 % of 0.40 rounds to 0.00; the
// evaluation applies it at 0, so its redemption is counted at 0 with no
// line and no rate, and the next discount of the evaluation still takes
// exactly its part on the order.
func TestRedeemWithBasketZeroPart(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	e.createDiscount(t, `{"name":"Eins","discount_type":"percentage","value":1,"combinable":true,"priority":9}`)
	e.createDiscount(t, `{"name":"Halb","discount_type":"percentage","value":50,"combinable":true}`)
	water := `"lines":[{"quantity":1,"unit_price":0.40,"vat_rate":"NORMAL"}]`
	ev := e.evaluate(t, `{`+water+`}`, staff)
	if got := ev.applied(); got != "Eins 0; Halb 0.2 NORMAL=0.2" {
		t.Fatalf("evaluation %q", got)
	}
	for k, a := range ev.Applied {
		if got := e.redeemBasket(t, a.DiscountID, `{"order_ref":"W",`+water+`}`, staff); got.render() != a.render() {
			t.Fatalf("%d: redeemed %q, evaluated %q", k, got.render(), a.render())
		}
	}
	if u := e.usage(t, ev.Applied[0].DiscountID); u != "1" {
		t.Fatalf("the part of 0.00 counted %s uses", u)
	}
}
