package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"posbox/store"
)

// discountLine is a sale's Rabatt line booking redemption red of
// discount d at rate, taking amount off.
func discountLine(d, red, amount, rate string) map[string]any {
	l := line("Rabatt", "1", "-"+amount, rate)
	l["discount_id"] = d
	if red != "" {
		l["redemption_id"] = red
	}
	return l
}

// lunchSale is docs/API.md's lunch (2 beers at 3.90, a schnitzel at
// 12.90) less the discount lines, paid in cash: the amounts per rate
// are the lines' sums, so only the redemption check can refuse it.
func lunchSale(normalOff, reducedOff int, discountLines ...any) map[string]any {
	lines := append([]any{line("Bier 0,5 l", "2", "3.90", "NORMAL"), line("Schnitzel", "1", "12.90", "REDUCED_1")}, discountLines...)
	normal, reduced := 780-normalOff, 1290-reducedOff
	return map[string]any{
		"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": amountOf(normal)},
			map[string]any{"vat_rate": "REDUCED_1", "amount": amountOf(reduced)}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": amountOf(normal + reduced)}},
		"line_items":               lines,
	}
}

// redeemed redeems discount id for body and returns the redemption's id.
func (e *tseEnv) redeemed(t *testing.T, id string, body any) string {
	t.Helper()
	rec := e.redeem(t, id, body, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	return decodeJSON(t, rec)["redemption"].(map[string]any)["redemption_id"].(string)
}

func (e *tseEnv) saleCount(t *testing.T) int {
	return e.countRows(t, `SELECT count(*) FROM tse_transactions`)
}

// A redemption made without a basket is booked by the sale whose
// discount lines take its amount off, at whichever rates the till split
// it; the lines keep the redemption, and a second sale cannot book it.
func TestSaleBooksRedemptionOnce(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.createDiscount(t, map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5})["id"].(string)
	red := e.redeemed(t, d, map[string]any{"order_total": 20.70})
	body := lunchSale(188, 312, discountLine(d, red, "1.88", "NORMAL"), discountLine(d, red, "3.12", "REDUCED_1"))
	status, tx := e.sell(t, body, e.adminToken)
	if status != http.StatusCreated || tx["total"] != 15.7 {
		t.Fatalf("status %d: %v", status, tx)
	}
	det, err := e.st.TSESaleDetail(context.Background(), tx["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if l := det.Lines[3]; l.RedemptionID != red || l.DiscountID != d || l.BusinessCase != "Rabatt" || l.TotalCents != -312 {
		t.Fatalf("line %+v", l)
	}
	before := e.saleCount(t)
	again := lunchSale(500, 0, discountLine(d, red, "5.00", "NORMAL"))
	wantProblem(t, e.do(t, "POST", "/api/tse/transactions", again, e.adminToken), http.StatusConflict, store.ERedemptionBooked)
	if n := e.saleCount(t); n != before {
		t.Fatalf("a refused sale was recorded: %d sales, want %d", n, before)
	}
}

// Lines that do not take off what the redemption did, name a redemption
// that is not there or not of the line's discount, or book one on an
// order are refused naming the line, and nothing is recorded.
func TestSaleRedemptionRefused(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.createDiscount(t, map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5})["id"].(string)
	other := e.createDiscount(t, map[string]any{"name": "Stammgast", "discount_type": "percentage", "value": 10})["id"].(string)
	red := e.redeemed(t, d, map[string]any{"order_total": 20.70})
	unknown := "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"
	noDiscount := line("Rabatt", "1", "-5.00", "NORMAL")
	noDiscount["redemption_id"] = red
	order := map[string]any{"client_serial": "KASSE-01", "kind": "order",
		"line_items": []any{line("Bier 0,5 l", "2", "3.90", "NORMAL"), discountLine(d, red, "5.00", "NORMAL")}}
	cases := map[string]struct {
		body  any
		field string
		code  string
	}{
		"a cent short":        {lunchSale(187, 312, discountLine(d, red, "1.87", "NORMAL"), discountLine(d, red, "3.12", "REDUCED_1")), "line_items[2].redemption_id", "redemption_mismatch"},
		"an unknown one":      {lunchSale(500, 0, discountLine(d, unknown, "5.00", "NORMAL")), "line_items[2].redemption_id", "unknown_redemption"},
		"another discount's":  {lunchSale(500, 0, discountLine(other, red, "5.00", "NORMAL")), "line_items[2].redemption_id", "unknown_redemption"},
		"without discount_id": {lunchSale(500, 0, noDiscount), "line_items[2].redemption_id", "requires_field"},
		"on an order":         {order, "line_items[1].redemption_id", "not_allowed"},
		"a malformed id":      {lunchSale(500, 0, discountLine(d, "nope", "5.00", "NORMAL")), "line_items[2].redemption_id", "not_uuid"},
	}
	before := e.saleCount(t)
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rec := e.do(t, "POST", "/api/tse/transactions", c.body, e.adminToken)
			p := wantProblem(t, rec, http.StatusUnprocessableEntity, store.EValidation)
			errs := p["errors"].([]any)
			if f := errs[0].(map[string]any); f["field"] != c.field || f["code"] != c.code {
				t.Fatalf("errors %v, want %s on %s", errs, c.code, c.field)
			}
		})
	}
	if n := e.saleCount(t); n != before {
		t.Fatalf("refused sales were recorded: %d sales, want %d", n, before)
	}
	// The redemption is still free: the right lines book it.
	e.sell(t, lunchSale(500, 0, discountLine(d, red, "5.00", "NORMAL")), e.adminToken)
}

// A storno repeats the cancelled sale's discount lines negated; they name
// its redemptions, which stay booked by it (the discount stays counted).
// A storno cannot name a redemption its sale did not book.
func TestStornoNamesBookedRedemption(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.createDiscount(t, map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5})["id"].(string)
	red := e.redeemed(t, d, map[string]any{"order_total": 20.70})
	free := e.redeemed(t, d, map[string]any{"order_total": 20.70})
	_, orig := e.sell(t, lunchSale(500, 0, discountLine(d, red, "5.00", "NORMAL")), e.adminToken)
	storno := func(r string) map[string]any {
		b := lunchSale(500, 0)
		b["cancels"] = orig["id"]
		neg := func(q string, l map[string]any) map[string]any { l["quantity"] = json.Number(q); return l }
		b["line_items"] = []any{neg("-2", line("Bier 0,5 l", "2", "3.90", "NORMAL")), neg("-1", line("Schnitzel", "1", "12.90", "REDUCED_1")),
			neg("-1", discountLine(d, r, "5.00", "NORMAL"))}
		for _, key := range []string{"amounts_per_vat_rate", "amounts_per_payment_type"} {
			for _, a := range b[key].([]any) {
				m := a.(map[string]any)
				m["amount"] = json.Number("-" + string(m["amount"].(json.Number)))
			}
		}
		return b
	}
	rec := e.do(t, "POST", "/api/tse/transactions", storno(free), e.adminToken)
	wantFieldError(t, rec, "line_items[2].redemption_id")
	if status, sto := e.sell(t, storno(red), e.adminToken); status != http.StatusCreated || sto["total"] != -15.7 {
		t.Fatalf("storno: %d %v", status, sto)
	}
	if n := e.countRows(t, `SELECT count(*) FROM sale_redemptions WHERE redemption_id = ? AND tx_id = ?`, red, orig["id"]); n != 1 {
		t.Fatalf("the redemption is booked %d times by its sale after the storno", n)
	}
}

// Sixteen tills book one redemption at once: exactly one sale is
// recorded, the others are told it is booked.
func TestSaleBooksRedemptionOnceUnderConcurrency(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.createDiscount(t, map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5})["id"].(string)
	red := e.redeemed(t, d, map[string]any{"order_total": 20.70})
	before := e.saleCount(t)
	const tills = 16
	codes := make([]int, tills)
	bodies := make([]string, tills)
	var wg sync.WaitGroup
	for i := range tills {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := e.do(t, "POST", "/api/tse/transactions", lunchSale(500, 0, discountLine(d, red, "5.00", "NORMAL")), e.adminToken)
			codes[i], bodies[i] = rec.Code, rec.Body.String()
		}()
	}
	wg.Wait()
	won := 0
	for i, c := range codes {
		switch c {
		case http.StatusCreated, http.StatusAccepted:
			won++
		case http.StatusConflict:
		default:
			t.Fatalf("status %d: %s", c, bodies[i])
		}
	}
	if won != 1 || e.saleCount(t) != before+1 || e.countRows(t, `SELECT count(*) FROM sale_redemptions`) != 1 {
		t.Fatalf("%d sales won, %d recorded", won, e.saleCount(t)-before)
	}
}

// docs/API.md's lunch: 10 % redeemed with the basket is 0.78 at 19 % and
// 1.29 at 7 %. The sale's discount lines must take exactly that off each
// rate: the same 2.07 split 0.79 and 1.28 is refused, the recorded split
// is booked, and the receipt, its DSFinV-K lines and the redemption agree
// to the cent.
func TestSaleBooksBasketRedemptionPerRate(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.createDiscount(t, map[string]any{"name": "Stammgast", "discount_type": "percentage", "value": 10})["id"].(string)
	red := e.redeemBasket(t, d, `{`+lunch+`}`, e.adminToken)
	if red.render() != "2.07 | 0=0.78 1=1.29 | NORMAL=0.78 REDUCED_1=1.29" {
		t.Fatalf("redeemed %q", red.render())
	}
	wrong := lunchSale(79, 128, discountLine(d, red.RedemptionID, "0.79", "NORMAL"), discountLine(d, red.RedemptionID, "1.28", "REDUCED_1"))
	rec := e.do(t, "POST", "/api/tse/transactions", wrong, e.adminToken)
	wantFieldError(t, rec, "line_items[2].redemption_id")
	if p := decodeJSON(t, rec); !strings.Contains(fmt.Sprint(p["errors"]), "must take off NORMAL 0.78, REDUCED_1 1.29; they take off NORMAL 0.79, REDUCED_1 1.28") {
		t.Fatalf("the message does not say what to take off: %v", p["errors"])
	}
	status, tx := e.sell(t, lunchSale(78, 129, discountLine(d, red.RedemptionID, "0.78", "NORMAL"), discountLine(d, red.RedemptionID, "1.29", "REDUCED_1")), e.adminToken)
	if status != http.StatusCreated || tx["total"] != 18.63 {
		t.Fatalf("status %d: %v", status, tx)
	}
	det, err := e.st.TSESaleDetail(context.Background(), tx["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	var off int64
	for _, l := range det.Lines {
		if l.RedemptionID == red.RedemptionID && l.BusinessCase == "Rabatt" {
			off -= l.TotalCents
		}
	}
	if off != 207 {
		t.Fatalf("the receipt's Rabatt lines take off %d cents, the redemption 207", off)
	}
}
