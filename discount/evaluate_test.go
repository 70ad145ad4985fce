package discount_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"posbox/discount"
	"posbox/store"
)

var (
	now     = time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC)
	drinks  = "019a8f5e-0000-7000-8000-000000000001"
	food    = "019a8f5e-0000-7000-8000-000000000002"
	beerID  = "019a8f5e-0000-7000-8000-0000000000b1"
	schnID  = "019a8f5e-0000-7000-8000-0000000000b2"
	waterID = "019a8f5e-0000-7000-8000-0000000000b3"
)

// lunch is 2 beers at 3.90 (19 %), a schnitzel at 12.90 (7 %): 20.70.
var lunch = discount.Basket{Lines: []discount.Line{
	{ItemID: beerID, CategoryID: drinks, QuantityMilli: 2000, UnitPriceCents: 390, VATRate: "NORMAL"},
	{ItemID: schnID, CategoryID: food, QuantityMilli: 1000, UnitPriceCents: 1290, VATRate: "REDUCED_1"},
}}

func ptr[T any](v T) *T { return &v }

// percent is an order discount of p hundredths of a percent; fixed one
// of c cents. Both active since yesterday, without limits.
func percent(id string, p int64) *store.Discount {
	return &store.Discount{ID: id, Name: id, Type: store.DiscountPercentage, Value: p, ApplicableTo: store.ScopeOrder,
		IsActive: true, ValidFrom: now.Add(-24 * time.Hour)}
}

func fixed(id string, c int64) *store.Discount {
	d := percent(id, c)
	d.Type = store.DiscountFixed
	return d
}

func evaluate(t *testing.T, r discount.Request) *discount.Result {
	t.Helper()
	if r.At.IsZero() {
		r.At = now
	}
	res, err := discount.Evaluate(r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// applied renders the applied discounts as "id amount", skipped ones as
// "id reason".
func applied(res *discount.Result) (a, s []string) {
	for _, x := range res.Applied {
		a = append(a, fmt.Sprintf("%s %d", x.Discount.ID, x.Amount))
	}
	for _, x := range res.Skipped {
		s = append(s, x.Discount.ID+" "+x.Reason)
	}
	return a, s
}

// The first worked example of docs/API.md through Evaluate.
func TestEvaluateWorkedExample(t *testing.T) {
	res := evaluate(t, discount.Request{Basket: lunch, Discounts: []*store.Discount{percent("ten", 10_00)}})
	if res.OrderTotal != 2070 || !slices.Equal(res.LineTotals, []int64{780, 1290}) {
		t.Errorf("totals %v, order %d; want [780 1290], 2070", res.LineTotals, res.OrderTotal)
	}
	if len(res.Applied) != 1 || res.Amount != 207 || !slices.Equal(res.Lines, []int64{78, 129}) ||
		!slices.Equal(res.Rates, []discount.RateAmount{{VATRate: "NORMAL", Cents: 78}, {VATRate: "REDUCED_1", Cents: 129}}) {
		t.Errorf("result %+v", res)
	}
	if a := res.Applied[0]; a.Eligible != 2070 || a.Amount != 207 || !slices.Equal(a.Lines, res.Lines) || !slices.Equal(a.Rates, res.Rates) {
		t.Errorf("applied %+v", a)
	}
}

// TestEvaluateAmounts: scope, the cap, a fixed amount above what it
// applies to, rounding half up.
func TestEvaluateAmounts(t *testing.T) {
	cat := percent("cat", 50_00)
	cat.ApplicableTo, cat.CategoryID = store.ScopeCategory, &drinks
	item := fixed("item", 2000)
	item.ApplicableTo, item.ItemID = store.ScopeItem, &schnID
	capped := percent("capped", 50_00)
	capped.MaxDiscountCents = ptr[int64](500)
	half := percent("half", 12_50) // 12.5 % of 20.70 = 2.5875
	for _, tc := range []struct {
		d      *store.Discount
		amount int64
		lines  []int64
	}{
		{cat, 390, []int64{390, 0}},
		{item, 1290, []int64{0, 1290}},
		{capped, 500, []int64{188, 312}}, // 500 × 780 / 2070 = 188.4
		{half, 259, []int64{98, 161}},    // 259 × 780 / 2070 = 97.59
	} {
		res := evaluate(t, discount.Request{Basket: lunch, Discounts: []*store.Discount{tc.d}})
		if len(res.Applied) != 1 || res.Amount != tc.amount || !slices.Equal(res.Lines, tc.lines) {
			t.Errorf("%s: amount %d lines %v (skipped %v); want %d %v", tc.d.ID, res.Amount, res.Lines, res.Skipped, tc.amount, tc.lines)
		}
	}
}

// TestEvaluateRefusals: each reason a discount does not apply, in the
// order a redemption checks them.
func TestEvaluateRefusals(t *testing.T) {
	mk := func(id string, f func(d *store.Discount)) *store.Discount {
		d := percent(id, 10_00)
		f(d)
		return d
	}
	ds := []*store.Discount{
		mk("inactive", func(d *store.Discount) { d.IsActive = false }),
		mk("not_started", func(d *store.Discount) { d.ValidFrom = now.Add(time.Millisecond) }),
		mk("starts_now", func(d *store.Discount) { d.ValidFrom = now }),
		mk("expired", func(d *store.Discount) { d.ValidUntil = ptr(now) }),
		mk("closed", func(*store.Discount) {}),
		mk("min_order", func(d *store.Discount) { d.MinOrderCents = ptr[int64](2071) }),
		mk("min_order_met", func(d *store.Discount) { d.MinOrderCents = ptr[int64](2070) }),
		mk("used_up", func(d *store.Discount) { d.UsageLimit, d.UsageCount = ptr[int64](3), 3 }),
		mk("no_lines", func(d *store.Discount) { d.ApplicableTo, d.ItemID = store.ScopeItem, &waterID }),
		mk("inactive_closed", func(d *store.Discount) { d.IsActive = false }),
	}
	open := func(d *store.Discount, at time.Time) bool {
		if !at.Equal(now) {
			t.Errorf("Open asked at %v", at)
		}
		return d.ID != "closed" && d.ID != "inactive_closed"
	}
	res := evaluate(t, discount.Request{Basket: lunch, Discounts: ds, Open: open,
		Stacking: func(*store.Discount) discount.Stacking { return discount.Stacking{Combinable: true} }})
	a, s := applied(res)
	wantA := []string{"min_order_met 207", "starts_now 186"}
	wantS := []string{"inactive discount_inactive", "not_started discount_not_started", "expired discount_expired",
		"closed outside_schedule", "min_order min_order_not_met", "used_up usage_limit_reached",
		"no_lines no_eligible_lines", "inactive_closed discount_inactive"}
	if !slices.Equal(a, wantA) || !slices.Equal(s, wantS) {
		t.Errorf("applied %v\nskipped %v\nwant %v\n%v", a, s, wantA, wantS)
	}
	// Lines worth nothing are no eligible lines either.
	free := discount.Basket{Lines: []discount.Line{{QuantityMilli: 1000, UnitPriceCents: 0, VATRate: "NORMAL"}}}
	if _, s := applied(evaluate(t, discount.Request{Basket: free, Discounts: []*store.Discount{fixed("f", 100)}})); !slices.Equal(s, []string{"f no_eligible_lines"}) {
		t.Errorf("free basket: skipped %v", s)
	}
	if _, err := discount.Evaluate(discount.Request{At: now}); store.ErrorCode(err) != store.EValidation {
		t.Errorf("empty basket: %v", err)
	}
}

// TestStacking: docs/API.md's rule, case by case, on the lunch basket
// (20.70: beers 7.80, schnitzel 12.90).
func TestStacking(t *testing.T) {
	type st = discount.Stacking
	cat := fixed("cat-3", 300)
	cat.ApplicableTo, cat.CategoryID = store.ScopeCategory, &drinks
	all := fixed("all", 2070)
	for _, tc := range []struct {
		name      string
		discounts []*store.Discount
		stacking  map[string]st // nil: Request.Stacking nil
		applied   []string
		skipped   []string
	}{
		{"no flags: the largest alone", []*store.Discount{percent("p10", 10_00), fixed("f300", 300)}, nil,
			[]string{"f300 300"}, []string{"p10 not_combined"}},
		{"combinable: priority first, each on what is left",
			[]*store.Discount{percent("p10", 10_00), fixed("f300", 300)},
			map[string]st{"p10": {true, 2}, "f300": {true, 1}},
			// 10 % of 20.70 = 2.07, then 3.00 of 18.63.
			[]string{"p10 207", "f300 300"}, nil},
		{"combinable: same priority, larger amount first",
			[]*store.Discount{percent("p10", 10_00), fixed("f300", 300)},
			map[string]st{"p10": {true, 0}, "f300": {true, 0}},
			// 3.00, then 10 % of 17.70 = 1.77.
			[]string{"f300 300", "p10 177"}, nil},
		{"combinable: same priority and amount, by id",
			[]*store.Discount{fixed("b", 100), fixed("a", 100)},
			map[string]st{"a": {true, 0}, "b": {true, 0}},
			[]string{"a 100", "b 100"}, nil},
		{"exclusive larger than the combinable together",
			[]*store.Discount{percent("p10", 10_00), fixed("f300", 300), fixed("x478", 478)},
			map[string]st{"p10": {true, 0}, "f300": {true, 0}},
			[]string{"x478 478"}, []string{"f300 not_combined", "p10 not_combined"}},
		{"exclusive equal to the combinable together: they win",
			[]*store.Discount{percent("p10", 10_00), fixed("f300", 300), fixed("x477", 477)},
			map[string]st{"p10": {true, 0}, "f300": {true, 0}},
			[]string{"f300 300", "p10 177"}, []string{"x477 not_combined"}},
		{"exclusives only: largest, then priority, then id",
			[]*store.Discount{fixed("c", 200), fixed("b", 200), fixed("a", 200), fixed("small", 100)},
			map[string]st{"b": {false, 1}, "c": {false, 1}},
			[]string{"b 200"}, []string{"c not_combined", "a not_combined", "small not_combined"}},
		{"an exclusive of 0 applies when alone",
			[]*store.Discount{percent("zero", 0)}, nil, []string{"zero 0"}, nil},
		{"a combinable finding its lines used up",
			[]*store.Discount{all, cat},
			map[string]st{"all": {true, 1}, "cat-3": {true, 0}},
			[]string{"all 2070"}, []string{"cat-3 nothing_left"}},
		{"a category discount then an order one: never below zero",
			[]*store.Discount{cat, percent("p50", 50_00)},
			map[string]st{"cat-3": {true, 1}, "p50": {true, 0}},
			// 3.00 off the beers (4.80 left), then 50 % of 17.70 = 8.85.
			[]string{"cat-3 300", "p50 885"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := discount.Request{Basket: lunch, Discounts: tc.discounts}
			if tc.stacking != nil {
				r.Stacking = func(d *store.Discount) st { return tc.stacking[d.ID] }
			}
			res := evaluate(t, r)
			a, s := applied(res)
			if !slices.Equal(a, tc.applied) || !slices.Equal(s, tc.skipped) {
				t.Errorf("applied %v, skipped %v; want %v, %v", a, s, tc.applied, tc.skipped)
			}
			checkResult(t, lunch, res)
		})
	}
}

// checkResult holds the sums of a result: each applied discount's parts
// add up to its amount and per rate; all together add up to the total,
// per line and per rate; no line goes below zero.
func checkResult(t *testing.T, b discount.Basket, res *discount.Result) {
	t.Helper()
	lines := make([]int64, len(b.Lines))
	var total int64
	for _, a := range res.Applied {
		var sum int64
		for i, p := range a.Lines {
			if p < 0 {
				t.Fatalf("%s: negative part %d on line %d", a.Discount.ID, p, i)
			}
			sum += p
			lines[i] += p
		}
		if sum != a.Amount || sum > a.Eligible {
			t.Fatalf("%s: parts %v sum to %d; amount %d, eligible %d", a.Discount.ID, a.Lines, sum, a.Amount, a.Eligible)
		}
		if !slices.Equal(a.Rates, discount.ByRate(b.Lines, a.Lines)) {
			t.Fatalf("%s: rates %v are not its lines' sums", a.Discount.ID, a.Rates)
		}
		total += a.Amount
	}
	if total != res.Amount || !slices.Equal(lines, res.Lines) {
		t.Fatalf("total %d lines %v; the applied add up to %d %v", res.Amount, res.Lines, total, lines)
	}
	for i, p := range res.Lines {
		if p > res.LineTotals[i] {
			t.Fatalf("line %d: discounts %d above its total %d", i, p, res.LineTotals[i])
		}
	}
	var rates int64
	for _, ra := range res.Rates {
		rates += ra.Cents
	}
	if rates != res.Amount || !slices.Equal(res.Rates, discount.ByRate(b.Lines, res.Lines)) {
		t.Fatalf("rates %v do not add up to %d", res.Rates, res.Amount)
	}
}

// TestEvaluateProperties: 500 random baskets with 1-6 random discounts
// each (both types, all scopes, caps, stacking): every discount is
// applied or skipped once, and checkResult's sums hold.
func TestEvaluateProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 7))
	cats := []string{drinks, food}
	items := []string{beerID, schnID, waterID}
	for n := range 500 {
		b := randomBasket(r)
		for i := range b.Lines {
			b.Lines[i].CategoryID, b.Lines[i].ItemID = cats[r.IntN(2)], items[r.IntN(3)]
		}
		var ds []*store.Discount
		stacking := map[string]discount.Stacking{}
		for k := range 1 + r.IntN(6) {
			id := fmt.Sprintf("d%d", k)
			d := percent(id, r.Int64N(100_01))
			if r.IntN(2) == 0 {
				d = fixed(id, 1+r.Int64N(3000))
			}
			switch r.IntN(3) {
			case 1:
				d.ApplicableTo, d.CategoryID = store.ScopeCategory, &cats[r.IntN(2)]
			case 2:
				d.ApplicableTo, d.ItemID = store.ScopeItem, &items[r.IntN(3)]
			}
			if r.IntN(3) == 0 {
				d.MaxDiscountCents = ptr(r.Int64N(2000))
			}
			ds = append(ds, d)
			stacking[id] = discount.Stacking{Combinable: r.IntN(3) > 0, Priority: r.IntN(3)}
		}
		res := evaluate(t, discount.Request{Basket: b, Discounts: ds,
			Stacking: func(d *store.Discount) discount.Stacking { return stacking[d.ID] }})
		if got := len(res.Applied) + len(res.Skipped); got != len(ds) {
			t.Fatalf("basket %d: %d discounts, %d applied or skipped", n, len(ds), got)
		}
		checkResult(t, b, res)
	}
}
