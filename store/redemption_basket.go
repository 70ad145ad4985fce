package store

import (
	"context"
	"fmt"
)

// RedeemBasket prices a redemption on the till's basket (docs/API.md,
// "Redeem with the basket"). The store cannot price (posbox/discount
// imports it): the caller hands the pricing over, and the store asks it
// inside the transaction that counts the use, with what the order's
// earlier redemptions took off each line.
type RedeemBasket struct {
	// OrderRef joins the redemptions of one order; "" prices the
	// discount alone on the basket.
	OrderRef string
	// SHA256 identifies the basket's lines (hex): an order's redemptions
	// must all price the same basket.
	SHA256 string
	// VATRates is each basket line's VAT rate.
	VATRates []string
	// Price is d's part of the basket when taken[i] is already off line
	// i: what its lines had left (Eligible), its amount and that amount
	// on each line.
	Price func(d *Discount, taken []int64) BasketPart
}

// BasketPart is a discount's part of a basket.
type BasketPart struct {
	Eligible int64
	Amount   int64
	Lines    []int64     // per basket line
	Rates    []RateCents // the sums of Lines per VAT rate, in the rates' order
}

// RateCents is an amount at a VAT rate.
type RateCents struct {
	VATRate string
	Cents   int64
}

// priceBasketTx is d's part of in's basket, after the order's earlier
// redemptions: refused when the basket differs from theirs (409
// basket_changed), when d or one of them does not combine (409
// discount_not_combinable), or when d finds nothing to apply to (409
// no_eligible_lines).
func priceBasketTx(ctx context.Context, tx *Tx, restaurantID string, d *Discount, b *RedeemBasket) (BasketPart, error) {
	taken := make([]int64, len(b.VATRates))
	if b.OrderRef != "" {
		earlier := 0
		err := eachRow(ctx, tx, func(sc scanner) error {
			var id, name, sha string
			var combinable bool
			if err := sc.Scan(&id, &name, &sha, &combinable); err != nil {
				return err
			}
			earlier++
			switch {
			case sha != b.SHA256:
				return Errorf(EBasketChanged, "order %q was redeemed on another basket: send the same lines for each of its discounts", b.OrderRef)
			case !combinable || !d.Combinable:
				return Errorf(EDiscountNotCombinable, "discount %q does not combine with %q, already redeemed on order %q", d.Name, name, b.OrderRef)
			}
			return addTaken(ctx, tx, id, taken)
		}, `SELECT id, discount_name, coalesce(basket_sha256, ''), coalesce(combinable, 0) FROM discount_redemptions
			WHERE restaurant_id = ? AND order_ref = ? ORDER BY created_at, id`, restaurantID, b.OrderRef)
		if err != nil {
			return BasketPart{}, err
		}
	}
	part := b.Price(d, taken)
	// Nothing eligible is refused, as evaluate skips it. An amount of 0
	// on eligible lines (a 0 % discount, a percentage of a few cents) is
	// counted as evaluate applies it: the till followed its list.
	if part.Eligible == 0 {
		return part, Errorf(ENoEligibleLines, "discount %q has nothing to take off this basket: no line it applies to, or earlier discounts took its lines' whole total", d.Name)
	}
	return part, part.check(len(b.VATRates))
}

// check holds the pricing to what the sale relies on (docs/API.md,
// "Splitting a discount over VAT rates"): a part per basket line, none
// negative, the lines and the rates each summing to the amount. A
// mismatch is a bug of the pricing: the redemption is not counted.
func (p BasketPart) check(lines int) error {
	if len(p.Lines) != lines {
		return fmt.Errorf("store: a basket part of %d lines for a basket of %d", len(p.Lines), lines)
	}
	var byLine, byRate int64
	for _, c := range p.Lines {
		if c < 0 {
			return fmt.Errorf("store: a basket part with a negative line: %v", p.Lines)
		}
		byLine += c
	}
	for _, r := range p.Rates {
		byRate += r.Cents
	}
	if byLine != p.Amount || byRate != p.Amount {
		return fmt.Errorf("store: a basket part of %d cents whose lines sum to %d and rates to %d", p.Amount, byLine, byRate)
	}
	return nil
}

// addTaken adds what redemption id took off each basket line to taken.
func addTaken(ctx context.Context, tx *Tx, id string, taken []int64) error {
	return eachRow(ctx, tx, func(sc scanner) error {
		var line int
		var cents int64
		if err := sc.Scan(&line, &cents); err != nil {
			return err
		}
		if line >= len(taken) {
			return fmt.Errorf("store: redemption %s has line %d beyond its basket's %d", id, line, len(taken))
		}
		taken[line] += cents
		return nil
	}, `SELECT line_no, cents FROM discount_redemption_lines WHERE redemption_id = ?`, id)
}

// insertBasketTx records a redemption's part of each line and the sums
// per VAT rate.
func insertBasketTx(ctx context.Context, tx *Tx, r *Redemption, b *RedeemBasket, part BasketPart) error {
	for i, c := range part.Lines {
		if c == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO discount_redemption_lines (redemption_id, line_no, vat_rate, cents) VALUES (?, ?, ?, ?)`,
			r.ID, i, b.VATRates[i], c); err != nil {
			return err
		}
	}
	for _, rc := range part.Rates {
		if _, err := tx.ExecContext(ctx, `INSERT INTO discount_redemption_rates (redemption_id, vat_rate, cents) VALUES (?, ?, ?)`,
			r.ID, rc.VATRate, rc.Cents); err != nil {
			return err
		}
	}
	r.Lines, r.Rates = part.Lines, part.Rates
	return nil
}
