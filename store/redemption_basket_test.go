package store

import (
	"context"
	"strings"
	"testing"
)

// fixedBasket is a two-line basket (NORMAL, REDUCED_1) whose pricing hook
// answers part whatever the discount.
func fixedBasket(part BasketPart) *RedeemBasket {
	return &RedeemBasket{SHA256: strings.Repeat("ab", 32), VATRates: []string{"NORMAL", "REDUCED_1"},
		Price: func(*Discount, []int64) BasketPart { return part }}
}

// TestRedeemBasketPartChecked: a part with nothing eligible is refused
// as no_eligible_lines, one whose lines or rates do not sum to its amount
// is an error; neither counts a use or writes a row. A right one records
// its lines and rates, and one of 0.00 on eligible lines is counted with
// none (as evaluate applies it).
func TestRedeemBasketPartChecked(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	d := mustDiscount(t, st, r, "Stammgast", 5)
	rates := func(n, r1 int64) []RateCents { return []RateCents{{"NORMAL", n}, {"REDUCED_1", r1}} }
	for name, part := range map[string]BasketPart{
		"lines short of amount": {Eligible: 2070, Amount: 207, Lines: []int64{78, 128}, Rates: rates(78, 129)},
		"rates short of amount": {Eligible: 2070, Amount: 207, Lines: []int64{78, 129}, Rates: rates(78, 128)},
		"a negative line":       {Eligible: 2070, Amount: 207, Lines: []int64{-1, 208}, Rates: rates(-1, 208)},
		"a line missing":        {Eligible: 2070, Amount: 78, Lines: []int64{78}, Rates: rates(78, 0)[:1]},
		"nothing eligible":      {Lines: []int64{0, 0}},
	} {
		_, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{RedeemedBy: sam.ID, OrderTotalCents: 2070, Basket: fixedBasket(part)})
		if err == nil {
			t.Fatalf("%s: redeemed", name)
		}
		if refused := ErrorCode(err) == ENoEligibleLines; refused != (part.Eligible == 0) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for table, want := range map[string]int64{"discount_redemptions": 0, "discount_redemption_lines": 0, "discount_redemption_rates": 0} {
		if n := queryInt(t, st, `SELECT count(*) FROM `+table); n != want {
			t.Fatalf("%s has %d rows after refusals", table, n)
		}
	}
	if got := discountByID(t, st, r.ID, d.ID).UsageCount; got != 0 {
		t.Fatalf("usage_count %d after refusals", got)
	}
	ok := BasketPart{Eligible: 2070, Amount: 207, Lines: []int64{78, 129}, Rates: rates(78, 129)}
	red, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{RedeemedBy: sam.ID, OrderTotalCents: 2070, Basket: fixedBasket(ok)})
	if err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, st, `SELECT sum(cents) FROM discount_redemption_rates WHERE redemption_id = ?`, red.ID); n != red.AmountCents || n != 207 {
		t.Fatalf("rates sum to %d, amount %d", n, red.AmountCents)
	}
	zero := BasketPart{Eligible: 4, Amount: 0, Lines: []int64{0, 0}}
	red, err = st.Redeem(ctx, r.ID, d.ID, RedeemInput{RedeemedBy: sam.ID, OrderTotalCents: 2070, Basket: fixedBasket(zero)})
	if err != nil || red.AmountCents != 0 || len(red.Rates) != 0 {
		t.Fatalf("a part of 0.00: %+v, %v", red, err)
	}
}

// TestRedemptionBasketTablesAreAppendOnly: a redemption's parts of the
// basket are what the sale books against; the database refuses to change
// or delete them.
func TestRedemptionBasketTablesAreAppendOnly(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	d := mustDiscount(t, st, r, "Stammgast", 5)
	part := BasketPart{Eligible: 2070, Amount: 207, Lines: []int64{78, 129}, Rates: []RateCents{{"NORMAL", 78}, {"REDUCED_1", 129}}}
	if _, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{RedeemedBy: sam.ID, OrderTotalCents: 2070, Basket: fixedBasket(part)}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE discount_redemption_lines SET cents = 1`,
		`DELETE FROM discount_redemption_lines`,
		`UPDATE discount_redemption_rates SET cents = 1`,
		`DELETE FROM discount_redemption_rates`,
	} {
		err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err })
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want refused as append-only", q, err)
		}
	}
	if n := queryInt(t, st, `SELECT count(*) FROM discount_redemption_lines`) + queryInt(t, st, `SELECT count(*) FROM discount_redemption_rates`); n != 4 {
		t.Fatalf("%d rows left, want 4", n)
	}
}
