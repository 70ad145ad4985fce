package discount

import "posbox/store"

// PriceOn is d's part of basket b when taken[i] is already off line i
// (the order's earlier redemptions; nil: nothing): its amount on what its
// lines have left, split over them, per VAT rate. Redeeming the
// discounts of an evaluation one after the other, in the order it lists
// them, gives each exactly its part there (docs/API.md, "Redeem with the
// basket"). b must be valid.
func PriceOn(b Basket, d *store.Discount, taken []int64) Applied {
	left, _ := b.Totals()
	for i := range taken {
		left[i] -= taken[i]
	}
	return price(d, inScope(d, b.Lines), left, b.Lines)
}
