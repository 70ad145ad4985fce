package discount

import (
	"math/bits"
	"slices"

	"posbox/store"
)

// Split divides amount cents over lines whose totals are totals, in
// proportion to the totals, by the largest-remainder (Hamilton) method
// (docs/API.md, "Splitting a discount over VAT rates"):
//
//  1. each line gets its exact share amount × total / Σ totals, rounded
//     down to the cent;
//  2. the cents still missing (fewer than the lines) go one each to the
//     lines with the largest remainders of step 1; between equal
//     remainders the larger line first, then the earlier line.
//
// So the parts add up to amount exactly, none is negative and none
// exceeds its line's total. amount must be 0 to Σ totals and every total
// 0 or more; an amount outside is clamped to that range. The products go
// through 128 bits: no basket Validate accepts can overflow.
func Split(amount int64, totals []int64) []int64 {
	parts := make([]int64, len(totals))
	var sum int64
	for _, t := range totals {
		sum += max(t, 0)
	}
	amount = max(0, min(amount, sum))
	if amount == 0 {
		return parts
	}
	rems := make([]uint64, len(totals))
	missing := amount
	for i, t := range totals {
		if t <= 0 {
			continue
		}
		// amount ≤ sum, so the high word is below sum and Div64 cannot
		// overflow.
		hi, lo := bits.Mul64(uint64(amount), uint64(t))
		q, r := bits.Div64(hi, lo, uint64(sum))
		parts[i], rems[i] = int64(q), r
		missing -= int64(q)
	}
	order := make([]int, len(totals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case rems[a] != rems[b]:
			return cmpDesc(rems[a], rems[b])
		case totals[a] != totals[b]:
			return cmpDesc(totals[a], totals[b])
		}
		return a - b
	})
	// missing < the number of lines with a remainder: each gets at most
	// one cent, and a line with remainder 0 none, so no part passes its
	// total.
	for _, i := range order[:missing] {
		parts[i]++
	}
	return parts
}

// cmpDesc orders larger values first.
func cmpDesc[T int64 | uint64](a, b T) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// RateAmount is an amount of one VAT rate: the store's type, so a
// redemption records the pricing's sums as they are.
type RateAmount = store.RateCents

// ByRate sums parts, one per basket line, by the lines' VAT rates, in
// VATRates' order; rates without a line, or whose parts are all 0, are
// left out. The per-rate amounts are these sums, never rounded anew, so
// a receipt's discount lines per rate and its line items agree to the
// cent.
func ByRate(lines []Line, parts []int64) []RateAmount {
	sums := make(map[string]int64, len(VATRates))
	for i, l := range lines {
		sums[l.VATRate] += parts[i]
	}
	var out []RateAmount
	for _, r := range VATRates {
		if c := sums[r]; c != 0 {
			out = append(out, RateAmount{VATRate: r, Cents: c})
		}
	}
	return out
}
