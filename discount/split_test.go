package discount_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"posbox/discount"
)

// The worked examples of docs/API.md, "Splitting a discount over VAT
// rates": the figures there are these.
func TestSplitWorkedExamples(t *testing.T) {
	beer2 := discount.Line{QuantityMilli: 2000, UnitPriceCents: 390, VATRate: "NORMAL"}
	beer := discount.Line{QuantityMilli: 1000, UnitPriceCents: 390, VATRate: "NORMAL"}
	schnitzel := discount.Line{QuantityMilli: 1000, UnitPriceCents: 1290, VATRate: "REDUCED_1"}
	water := discount.Line{QuantityMilli: 1000, UnitPriceCents: 280, VATRate: "NORMAL"}
	fries := discount.Line{QuantityMilli: 1000, UnitPriceCents: 250, VATRate: "REDUCED_1"}
	for _, tc := range []struct {
		name   string
		lines  []discount.Line
		amount int64
		parts  []int64
		rates  []discount.RateAmount
	}{
		// 10 % of 20.70 is 2.07; 2.07 × 7.80 / 20.70 = 0.78 and
		// 2.07 × 12.90 / 20.70 = 1.29 exactly.
		{"10 % on two beers and a schnitzel", []discount.Line{beer2, schnitzel}, 207,
			[]int64{78, 129}, []discount.RateAmount{{VATRate: "NORMAL", Cents: 78}, {VATRate: "REDUCED_1", Cents: 129}}},
		// 5.00 over 3.90 + 12.90 + 2.80 = 19.60: exact shares 0.99489…,
		// 3.29081…, 0.71428…; rounded down 0.99 + 3.29 + 0.71 = 4.99, the
		// missing cent goes to the largest remainder, the beer's.
		{"fixed 5.00 on three lines", []discount.Line{beer, schnitzel, water}, 500,
			[]int64{100, 329, 71}, []discount.RateAmount{{VATRate: "NORMAL", Cents: 171}, {VATRate: "REDUCED_1", Cents: 329}}},
		// 1.00 over three lines of 2.50: 0.333… each, two cents missing,
		// equal remainders and equal lines: the earlier lines get them.
		{"tie: fixed 1.00 on three equal lines", []discount.Line{fries, fries, fries}, 100,
			[]int64{34, 33, 33}, []discount.RateAmount{{VATRate: "REDUCED_1", Cents: 100}}},
		// 0.02 over 1.00 and 3.00: exact shares 0.005 and 0.015, rounded
		// down 0.00 + 0.01, equal remainders: the larger line gets the
		// missing cent.
		{"tie: larger line first", []discount.Line{
			{QuantityMilli: 1000, UnitPriceCents: 100, VATRate: "NORMAL"},
			{QuantityMilli: 1000, UnitPriceCents: 300, VATRate: "REDUCED_1"}}, 2,
			[]int64{0, 2}, []discount.RateAmount{{VATRate: "REDUCED_1", Cents: 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			totals, _ := discount.Basket{Lines: tc.lines}.Totals()
			parts := discount.Split(tc.amount, totals)
			if !slices.Equal(parts, tc.parts) {
				t.Errorf("Split(%d, %v) = %v, want %v", tc.amount, totals, parts, tc.parts)
			}
			if rates := discount.ByRate(tc.lines, parts); !slices.Equal(rates, tc.rates) {
				t.Errorf("ByRate = %v, want %v", rates, tc.rates)
			}
		})
	}
}

// TestSplitEdges: nothing to split, lines worth 0, the whole total, and
// amounts outside 0..Σ clamped.
func TestSplitEdges(t *testing.T) {
	for _, tc := range []struct {
		amount int64
		totals []int64
		want   []int64
	}{
		{0, []int64{100, 200}, []int64{0, 0}},
		{300, []int64{100, 200}, []int64{100, 200}},
		{1, []int64{0, 5, 0}, []int64{0, 1, 0}},
		{1, []int64{0, 0}, []int64{0, 0}},
		{1, nil, []int64{}},
		{-5, []int64{100}, []int64{0}},
		{500, []int64{100, 200}, []int64{100, 200}},
		// 1 cent over 0.01 and 0.03: 0.25 and 0.75, the larger remainder.
		{1, []int64{1, 3}, []int64{0, 1}},
		// Large amounts: the products pass 2^63.
		{9_000_000_000_000_000, []int64{9_000_000_000_000_000, 1}, []int64{8_999_999_999_999_999, 1}},
	} {
		if got := discount.Split(tc.amount, tc.totals); !slices.Equal(got, tc.want) {
			t.Errorf("Split(%d, %v) = %v, want %v", tc.amount, tc.totals, got, tc.want)
		}
	}
}

// randomBasket is a till's basket: 1-12 lines, quantities mostly whole,
// sometimes weighed, prices up to 60.00, rates mostly 19 % and 7 %.
func randomBasket(r *rand.Rand) discount.Basket {
	rates := []string{"NORMAL", "REDUCED_1", "NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}
	var b discount.Basket
	for range 1 + r.IntN(12) {
		q := int64(1+r.IntN(4)) * 1000
		if r.IntN(5) == 0 {
			q = 1 + r.Int64N(3000)
		}
		price := r.Int64N(6000)
		if r.IntN(10) == 0 {
			price = r.Int64N(10) // a few cents, or free
		}
		b.Lines = append(b.Lines, discount.Line{QuantityMilli: q, UnitPriceCents: price, VATRate: rates[r.IntN(len(rates))]})
	}
	return b
}

// TestSplitProperties: on 1000 random baskets and amounts the parts sum
// to the amount, none is negative or above its line, and the per-rate
// sums are the sums of their lines' parts and add up to the amount.
func TestSplitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 1))
	for n := range 1000 {
		b := randomBasket(r)
		totals, sum := b.Totals()
		amount := int64(0)
		if sum > 0 {
			amount = r.Int64N(sum + 1)
		}
		parts := discount.Split(amount, totals)
		var got int64
		for i, p := range parts {
			if p < 0 || p > totals[i] {
				t.Fatalf("basket %d: part %d of line %d is outside 0..%d (%v over %v)", n, p, i, totals[i], amount, totals)
			}
			got += p
		}
		if got != amount {
			t.Fatalf("basket %d: parts %v sum to %d, want %d", n, parts, got, amount)
		}
		want := map[string]int64{}
		for i, l := range b.Lines {
			want[l.VATRate] += parts[i]
		}
		var rateSum int64
		for _, ra := range discount.ByRate(b.Lines, parts) {
			if ra.Cents != want[ra.VATRate] {
				t.Fatalf("basket %d: rate %s is %d, its lines' parts sum to %d", n, ra.VATRate, ra.Cents, want[ra.VATRate])
			}
			rateSum += ra.Cents
		}
		if rateSum != amount {
			t.Fatalf("basket %d: the rates sum to %d, want %d", n, rateSum, amount)
		}
		// Each part is within a cent of its exact share.
		for i, p := range parts {
			if sum > 0 && (p*sum < amount*totals[i]-sum || p*sum > amount*totals[i]+sum) {
				t.Fatalf("basket %d: part %d of line %d is more than a cent from %d×%d/%d", n, p, i, amount, totals[i], sum)
			}
		}
	}
}
