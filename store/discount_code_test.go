package store

import (
	"context"

	"strings"
	"testing"
)

// A drawn code the restaurant has already is drawn again: the unique
// index decides, and the batch gets fresh codes.
func TestCodeBatchDrawsAgainOnCollision(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	admin := mustUser(t, st, r, "Ann", RoleAdmin)
	d := mustDiscount(t, st, r, "Flyer", 100)
	draws := []string{"AAAA-AAAA", "AAAA-AAAA", "AAAA-AAAA", "BBBB-BBBB"}
	n := 0
	next := func() string { n++; return draws[n-1] }
	b, err := st.CreateCodeBatch(ctx, r.ID, d.ID, CodeBatchInput{Count: 2, UsesPerCode: 1, CreatedBy: admin.ID}, next)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Codes[0].Code + " " + b.Codes[1].Code; got != "AAAA-AAAA BBBB-BBBB" || n != 4 {
		t.Fatalf("codes %s after %d draws, want AAAA-AAAA BBBB-BBBB after 4", got, n)
	}

	// A source that only ever gives taken codes ends in an error, and
	// the batch is not stored in part.
	same := func() string { return "AAAA-AAAA" }
	if _, err := st.CreateCodeBatch(ctx, r.ID, d.ID, CodeBatchInput{Count: 1, UsesPerCode: 1, CreatedBy: admin.ID}, same); err == nil ||
		!strings.Contains(err.Error(), "no free discount code") {
		t.Fatalf("err %v, want no free code", err)
	}
	_, codes, err := st.DiscountCodes(ctx, r.ID, d.ID, "")
	if err != nil || len(codes) != 2 {
		t.Fatalf("%d codes, %v; want the first batch's 2", len(codes), err)
	}
	var batches int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM discount_code_batches`).Scan(&batches); err != nil || batches != 1 {
		t.Fatalf("%d batches, %v; want 1", batches, err)
	}

	// Another restaurant may hold the same text.
	r2 := mustRestaurant(t, st, "R2")
	admin2 := mustUser(t, st, r2, "Ben", RoleAdmin)
	d2 := mustDiscount(t, st, r2, "Flyer", 100)
	if _, err := st.CreateCodeBatch(ctx, r2.ID, d2.ID, CodeBatchInput{Count: 1, UsesPerCode: 1, CreatedBy: admin2.ID}, same); err != nil {
		t.Fatalf("the other restaurant's code: %v", err)
	}
	// Nor may the till of one restaurant redeem the other's code.
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	code := "AAAA-AAAA"
	if _, err := st.Redeem(ctx, r2.ID, d.ID, RedeemInput{OrderTotalCents: 100, RedeemedBy: sam.ID, Code: &code}); ErrorCode(err) != ENotFound {
		t.Fatalf("foreign discount: %v", err)
	}
	if _, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{OrderTotalCents: 100, RedeemedBy: sam.ID, Code: &code}); err != nil {
		t.Fatal(err)
	}
	var uses2 int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT uses FROM discount_codes WHERE restaurant_id = ?`, r2.ID).Scan(&uses2); err != nil || uses2 != 0 {
		t.Fatalf("the other restaurant's code was used: %d %v", uses2, err)
	}
}
