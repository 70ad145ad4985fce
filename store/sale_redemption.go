package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// redemptionOnSale is what a sale's discount lines say of one redemption:
// the first line naming it (for the error's field), its discount and its
// lines' totals per VAT rate.
type redemptionOnSale struct {
	field      string
	discountID string
	rates      map[string]int64
}

// bookRedemptions books the redemptions a sale's discount lines name, in
// the sale's transaction (docs/API.md, "Booking a redemption on the
// sale"): each must be a redemption of this restaurant and of the line's
// discount, booked by no other sale, and its lines must take off per VAT
// rate exactly what the redemption recorded (its total when it was
// redeemed without a basket). A storno's lines name redemptions of the
// sale it cancels and book nothing: the redemption stays counted.
func bookRedemptions(ctx context.Context, tx *Tx, n NewTSESale) error {
	d := n.Detail
	if d == nil {
		return nil
	}
	sale, ids, err := redemptionsOnSale(d)
	if err != nil || len(ids) == 0 {
		return err
	}
	for _, id := range ids {
		g := sale[id]
		want, err := redeemedRates(ctx, tx, n.RestaurantID, id, g)
		if err != nil {
			return err
		}
		if d.CancelsTxID != "" {
			if err := bookedBy(ctx, tx, id, d.CancelsTxID, g.field); err != nil {
				return err
			}
			continue
		}
		if !maps.Equal(want, g.rates) {
			return Invalid(g.field, FRedemptionMismatch, fmt.Sprintf("the lines of redemption %s must take off %s; they take off %s",
				id, ratesText(want), ratesText(g.rates)))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sale_redemptions (redemption_id, tx_id) VALUES (?, ?)`, id, n.TxID)
		if isUnique(err) {
			return Errorf(ERedemptionBooked, "redemption %s is already booked by another sale; a redemption is booked once", id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// redemptionsOnSale groups the sale's lines by the redemption they name,
// in the order the redemptions first appear.
func redemptionsOnSale(d *TSESaleDetail) (map[string]*redemptionOnSale, []string, error) {
	out := map[string]*redemptionOnSale{}
	var ids []string
	for i, l := range d.Lines {
		if l.RedemptionID == "" {
			continue
		}
		field := fmt.Sprintf("line_items[%d].redemption_id", i)
		if d.Kind == SaleKindOrder {
			return nil, nil, Invalid(field, FNotAllowed, "an order books no redemption; the receipt that settles it does")
		}
		g := out[l.RedemptionID]
		if g == nil {
			g = &redemptionOnSale{field: field, discountID: l.DiscountID, rates: map[string]int64{}}
			out[l.RedemptionID] = g
			ids = append(ids, l.RedemptionID)
		} else if l.DiscountID != g.discountID {
			return nil, nil, Invalid(fmt.Sprintf("line_items[%d].discount_id", i), FUnknownRedemption,
				"names another discount than the other lines of its redemption")
		}
		// A discount line's total is 0 or less: what it takes off is its
		// negative. A storno's lines are the original's, negated again.
		off := -l.TotalCents
		if d.CancelsTxID != "" {
			off = l.TotalCents
		}
		g.rates[l.VATRate] += off
		if g.rates[l.VATRate] == 0 {
			delete(g.rates, l.VATRate)
		}
	}
	return out, ids, nil
}

// redeemedRates is what redemption id took off per VAT rate: its recorded
// rates, or its whole amount under the one rate of the sale's lines when
// it was redeemed without a basket. A redemption of another restaurant
// or of another discount than the lines' is unknown to the sale.
func redeemedRates(ctx context.Context, tx *Tx, restaurantID, id string, g *redemptionOnSale) (map[string]int64, error) {
	var discountID string
	var amount int64
	err := tx.QueryRowContext(ctx, `SELECT discount_id, amount_cents FROM discount_redemptions WHERE id = ? AND restaurant_id = ?`,
		id, restaurantID).Scan(&discountID, &amount)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, Invalid(g.field, FUnknownRedemption, "names no redemption of this restaurant")
	case err != nil:
		return nil, err
	case discountID != g.discountID:
		return nil, Invalid(g.field, FUnknownRedemption, "names a redemption of another discount than the line's discount_id")
	}
	rates := map[string]int64{}
	if err := eachRow(ctx, tx, func(sc scanner) error {
		var rate string
		var cents int64
		if err := sc.Scan(&rate, &cents); err != nil {
			return err
		}
		rates[rate] = cents
		return nil
	}, `SELECT vat_rate, cents FROM discount_redemption_rates WHERE redemption_id = ?`, id); err != nil {
		return nil, err
	}
	if len(rates) == 0 && amount > 0 {
		// Redeemed without a basket, it knows no rates: the lines may take
		// its amount off at whichever rates the till chose.
		var sum int64
		for _, c := range g.rates {
			sum += c
		}
		if sum == amount {
			return g.rates, nil
		}
		rates["in all"] = amount
	}
	return rates, nil
}

// bookedBy refuses a storno line that names a redemption the cancelled
// sale did not book.
func bookedBy(ctx context.Context, tx *Tx, id, cancelled, field string) error {
	var txID string
	err := tx.QueryRowContext(ctx, `SELECT tx_id FROM sale_redemptions WHERE redemption_id = ?`, id).Scan(&txID)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && txID != cancelled) {
		return Invalid(field, FUnknownRedemption, "names no redemption the cancelled sale booked")
	}
	return err
}

// ratesText renders amounts per VAT rate for a message: "NORMAL 0.78,
// REDUCED_1 1.29", or "nothing".
func ratesText(rates map[string]int64) string {
	if len(rates) == 0 {
		return "nothing"
	}
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(rates)) {
		parts = append(parts, r+" "+formatCents(rates[r]))
	}
	return strings.Join(parts, ", ")
}
