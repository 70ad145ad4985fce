package store

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestPercentOfMatchesExactArithmetic compares the integer half-up rounding
// with exact rational arithmetic over the whole range the API accepts.
func TestPercentOfMatchesExactArithmetic(t *testing.T) {
	t.Parallel()
	const maxCents = 999_999_999_999_999 // 9999999999999.99, the largest amount decimal2 reads
	exact := func(cents, hundredths int64) int64 {
		// floor((cents*hundredths + 5000) / 10000) in big integers.
		n := new(big.Int).Mul(big.NewInt(cents), big.NewInt(hundredths))
		n.Add(n, big.NewInt(5000))
		return n.Quo(n, big.NewInt(10000)).Int64()
	}
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][2]int64{{0, 0}, {0, 10000}, {maxCents, 10000}, {maxCents, 9999}, {math.MaxInt64, 10000}, {math.MaxInt64, 1}, {1, 5000}, {1, 4999}}
	for range 20000 {
		cents := r.Int64N(maxCents + 1)
		if r.IntN(2) == 0 {
			cents = r.Int64N(100_000) // till-sized amounts
		}
		cases = append(cases, [2]int64{cents, r.Int64N(MaxPercentage + 1)})
	}
	for _, c := range cases {
		if got, want := percentOf(c[0], c[1]), exact(c[0], c[1]); got != want {
			t.Fatalf("percentOf(%d, %d) = %d, want %d", c[0], c[1], got, want)
		}
	}
}

func TestDiscountAmountCaps(t *testing.T) {
	t.Parallel()
	ptr := func(c int64) *int64 { return &c }
	for _, tc := range []struct {
		name     string
		d        Discount
		eligible int64
		want     int64
	}{
		{"PercentHalfUp", Discount{Type: DiscountPercentage, Value: 1500}, 3333, 500},
		{"PercentCap", Discount{Type: DiscountPercentage, Value: 5000, MaxDiscountCents: ptr(999)}, 10000, 999},
		{"FixedOverEligible", Discount{Type: DiscountFixed, Value: 500}, 320, 320},
		{"FixedCap", Discount{Type: DiscountFixed, Value: 500, MaxDiscountCents: ptr(400)}, 3000, 400},
		{"CapAboveEligible", Discount{Type: DiscountFixed, Value: 500, MaxDiscountCents: ptr(450)}, 100, 100},
		{"NothingEligible", Discount{Type: DiscountFixed, Value: 500}, 0, 0},
	} {
		if got := tc.d.Amount(tc.eligible); got != tc.want {
			t.Errorf("%s: Amount(%d) = %d, want %d", tc.name, tc.eligible, got, tc.want)
		}
	}
}
