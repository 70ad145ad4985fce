package server

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"posbox/store"
)

// redeemedPart is a redemption's answer as a till reads its basket part.
type redeemedPart struct {
	discountPart
	OrderRef     *string `json:"order_ref"`
	RedemptionID string  `json:"redemption_id"`
}

// redeemBasket redeems discount id with body (JSON text), wants 200.
func (e *testEnv) redeemBasket(tb testing.TB, id, body, token string) redeemedPart {
	tb.Helper()
	rec := e.redeem(tb, id, body, token)
	wantStatus(tb, rec, http.StatusOK)
	var out struct {
		Redemption redeemedPart `json:"redemption"`
	}
	decodeInto(tb, rec.Body.Bytes(), &out)
	return out.Redemption
}

// TestRedeemWithBasketAsEvaluated: docs/API.md's lunch with a combinable
// 10 % and a combinable 2.00 on the schnitzel's category. Redeemed in the
// evaluation's order under one order_ref, each redemption takes exactly
// its part there, per line and per VAT rate, and records it.
func TestRedeemWithBasketAsEvaluated(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"combinable":true,"priority":5}`)
	e.createDiscount(t, `{"name":"Schnitzeltag","discount_type":"fixed","value":2,"applicable_to":"category","category_id":"`+catID+`","combinable":true}`)
	ev := e.evaluate(t, `{`+lunch+`}`, staff)
	if got := ev.applied(); got != "Stammgast 2.07 NORMAL=0.78 REDUCED_1=1.29; Schnitzeltag 2 REDUCED_1=2" {
		t.Fatalf("evaluation %q", got)
	}
	for k, a := range ev.Applied {
		got := e.redeemBasket(t, a.DiscountID, `{"order_ref":"T4-0815",`+lunch+`}`, staff)
		if got.render() != ev.Applied[k].render() || got.OrderRef == nil || *got.OrderRef != "T4-0815" {
			t.Fatalf("%s redeemed %q, evaluated %q", a.Name, got.render(), ev.Applied[k].render())
		}
		if n := e.countRows(t, `SELECT count(*) FROM discount_redemption_rates WHERE redemption_id = ?`, got.RedemptionID); n != len(a.VATRates) {
			t.Fatalf("%d rates recorded for %s", n, a.Name)
		}
	}
	// Without a basket the members are null, as before baskets.
	rec := e.redeem(t, ev.Applied[0].DiscountID, `{"order_total":20.70}`, staff)
	wantStatus(t, rec, http.StatusOK)
	if r := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any); r["lines"] != nil || r["vat_rates"] != nil || r["order_ref"] != nil {
		t.Fatalf("a redemption without a basket answered %v", r)
	}
}

// TestRedeemWithBasketRandom: on 200 random baskets with three combinable
// discounts (an order percentage, a category fixed amount, a capped
// category percentage), redeeming the evaluation's applied discounts in
// its order gives each its evaluated part; every redemption's lines and
// rates add up to its amount and no part is negative or above its line.
func TestRedeemWithBasketRandom(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	cats := []string{catID, "019a0000-0000-7000-8000-0000000000c2"}
	e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":7.5,"combinable":true,"priority":1}`)
	e.createDiscount(t, `{"name":"Pasta","discount_type":"fixed","value":3,"applicable_to":"category","category_id":"`+cats[0]+`","combinable":true,"priority":9}`)
	e.createDiscount(t, `{"name":"Wein","discount_type":"percentage","value":20,"max_discount_amount":4,"applicable_to":"category","category_id":"`+cats[1]+`","combinable":true}`)
	rng := rand.New(rand.NewPCG(25, 11))
	redeemed, stacked := 0, 0
	for n := range 200 {
		var lines []string
		totals := map[int]int64{}
		for i := range 1 + rng.IntN(6) {
			cents := int64(50 + rng.IntN(2950))
			qty := 1 + rng.IntN(3)
			totals[i] = cents * int64(qty)
			l := fmt.Sprintf(`{"quantity":%d,"unit_price":%d.%02d,"vat_rate":"%s"`, qty, cents/100, cents%100, []string{"NORMAL", "REDUCED_1"}[rng.IntN(2)])
			if c := rng.IntN(3); c < 2 {
				l += `,"category_id":"` + cats[c] + `"`
			}
			lines = append(lines, l+"}")
		}
		basket := `"lines":[` + strings.Join(lines, ",") + `]`
		ev := e.evaluate(t, `{`+basket+`}`, e.adminToken)
		redeemed += len(ev.Applied)
		if len(ev.Applied) > 1 {
			stacked++
		}
		for k, a := range ev.Applied {
			got := e.redeemBasket(t, a.DiscountID, fmt.Sprintf(`{"order_ref":"R%d",%s}`, n, basket), e.adminToken)
			if got.render() != ev.Applied[k].render() {
				t.Fatalf("basket %d: %s redeemed %q, evaluated %q", n, a.Name, got.render(), ev.Applied[k].render())
			}
			amount := cents(t, got.Amount)
			var byLine, byRate int64
			for _, l := range got.Lines {
				c := cents(t, l.Amount)
				if c <= 0 || c > totals[l.Line] {
					t.Fatalf("basket %d: %s takes %d of line %d (total %d)", n, a.Name, c, l.Line, totals[l.Line])
				}
				byLine += c
			}
			for _, r := range got.VATRates {
				byRate += cents(t, r.Amount)
			}
			if byLine != amount || byRate != amount {
				t.Fatalf("basket %d: %s amount %d, lines %d, rates %d", n, a.Name, amount, byLine, byRate)
			}
		}
	}
	// The baskets are mixed enough: most get several discounts.
	if redeemed < 400 || stacked < 100 {
		t.Fatalf("%d redemptions, %d baskets with more than one discount", redeemed, stacked)
	}
	t.Logf("%d redemptions, %d baskets with more than one discount", redeemed, stacked)
}

// cents reads an API amount literal.
func cents(tb testing.TB, n json.Number) int64 {
	tb.Helper()
	f, err := n.Float64()
	if err != nil {
		tb.Fatal(err)
	}
	if f < 0 {
		return -int64(-f*100 + 0.5)
	}
	return int64(f*100 + 0.5)
}

// TestRedeemWithBasketRefused: the order's stacking and basket are
// checked in the redemption's transaction, a discount with nothing to
// take is refused, bad members are named; nothing is counted.
func TestRedeemWithBasketRefused(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	excl := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5}`)["id"].(string)
	comb := e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"combinable":true}`)["id"].(string)
	comb2 := e.createDiscount(t, `{"name":"Happy Hour","discount_type":"percentage","value":10,"combinable":true}`)["id"].(string)
	wine := e.createDiscount(t, `{"name":"Wein 20 %","discount_type":"percentage","value":20,"applicable_to":"category","category_id":"019a0000-0000-7000-8000-0000000000c2","combinable":true}`)["id"].(string)
	e.redeemBasket(t, excl, `{"order_ref":"A",`+lunch+`}`, staff)
	e.redeemBasket(t, comb, `{"order_ref":"B",`+lunch+`}`, staff)
	other := `"lines":[{"quantity":1,"unit_price":3.90,"vat_rate":"NORMAL"}]`
	for name, c := range map[string]struct {
		id, body string
		status   int
		code     string
	}{
		"combinable after an exclusive": {comb, `{"order_ref":"A",` + lunch + `}`, 409, store.EDiscountNotCombinable},
		"exclusive after a combinable":  {excl, `{"order_ref":"B",` + lunch + `}`, 409, store.EDiscountNotCombinable},
		"another basket on the order":   {comb2, `{"order_ref":"B",` + other + `}`, 409, store.EBasketChanged},
		"no line of its category":       {wine, `{` + lunch + `}`, 409, store.ENoEligibleLines},
		"order_total not the lines'":    {comb2, `{"order_total":20.71,` + lunch + `}`, 422, store.EValidation},
		"eligible_amount with lines":    {comb2, `{"eligible_amount":5,` + lunch + `}`, 422, store.EValidation},
		"order_ref without lines":       {comb2, `{"order_total":5,"order_ref":"C"}`, 422, store.EValidation},
		"order_ref too long":            {comb2, `{"order_ref":"` + strings.Repeat("x", 65) + `",` + lunch + `}`, 422, store.EValidation},
		"a line without its price":      {comb2, `{"lines":[{"quantity":1,"vat_rate":"NORMAL"}]}`, 422, store.EValidation},
	} {
		t.Run(name, func(t *testing.T) {
			before := e.countRows(t, `SELECT count(*) FROM discount_redemptions`)
			wantProblem(t, e.redeem(t, c.id, c.body, staff), c.status, c.code)
			if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions`); n != before {
				t.Fatalf("a refusal was counted: %d redemptions, want %d", n, before)
			}
		})
	}
	// The fields are named.
	for body, field := range map[string]string{
		`{"order_total":20.71,` + lunch + `}`:            "order_total",
		`{"eligible_amount":5,` + lunch + `}`:            "eligible_amount",
		`{"order_total":5,"order_ref":"C"}`:              "order_ref",
		`{"lines":[{"quantity":1,"vat_rate":"NORMAL"}]}`: "lines[0].unit_price",
	} {
		wantFieldError(t, e.redeem(t, comb2, body, staff), field)
	}
	// Two combinable ones on one order: both are counted.
	e.redeemBasket(t, comb2, `{"order_ref":"B",`+lunch+`}`, staff)
}

// TestRedeemWithBasketConcurrent: 64 terminals redeem a discount of 10
// uses with the lunch basket at once: exactly 10 are counted, each with
// its two rates recorded. Then two tills redeem two exclusive discounts
// on one order at once, eight times over: exactly one wins each time.
func TestRedeemWithBasketConcurrent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tokens := make([]string, 8)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	id := e.createDiscount(t, `{"name":"Ten only","discount_type":"percentage","value":10,"usage_limit":10}`)["id"].(string)
	got, _ := redeemAtOnce(t, e, id, tokens, 64, func(int) string { return `{` + lunch + `}` })
	if got["200 "] != 10 || got["409 usage_limit_reached"] != 54 {
		t.Fatalf("answers %v", got)
	}
	if n := e.countRows(t, `SELECT count(*) FROM discount_redemption_rates r JOIN discount_redemptions d ON d.id = r.redemption_id
		WHERE d.discount_id = ?`, id); n != 20 {
		t.Fatalf("%d rates recorded, want 20", n)
	}

	a := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5}`)["id"].(string)
	b := e.createDiscount(t, `{"name":"Mittag","discount_type":"fixed","value":3}`)["id"].(string)
	for round := range 8 {
		body := fmt.Sprintf(`{"order_ref":"O%d",%s}`, round, lunch)
		codes := make(chan int, 2)
		start := make(chan struct{})
		for i, d := range []string{a, b} {
			go func() {
				<-start
				codes <- e.redeem(t, d, body, tokens[i]).Code
			}()
		}
		close(start)
		c1, c2 := <-codes, <-codes
		if c1+c2 != 200+409 {
			t.Fatalf("round %d: answers %d and %d", round, c1, c2)
		}
		if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions WHERE order_ref = ?`, fmt.Sprintf("O%d", round)); n != 1 {
			t.Fatalf("round %d: %d redemptions on the order", round, n)
		}
	}
}
