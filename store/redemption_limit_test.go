package store

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
)

// The usage limit of a discount under concurrent redemption, straight on
// the store (redemption_test.go covers the amount arithmetic).

// mustDiscount creates an active 10 % order discount usable limit times.
func mustDiscount(tb testing.TB, st *Store, r *Restaurant, name string, limit int64) *Discount {
	tb.Helper()
	d, err := st.CreateDiscount(context.Background(), r.ID, DiscountUpdate{Name: Of(name), Type: Of(DiscountPercentage),
		Value: Of(int64(10_00)), UsageLimit: Of(limit)})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// discountByID reads a discount of r through the list.
func discountByID(tb testing.TB, st *Store, restaurantID, id string) *Discount {
	tb.Helper()
	ds, err := st.Discounts(context.Background(), restaurantID)
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range ds {
		if d.ID == id {
			return d
		}
	}
	tb.Fatalf("discount %s not listed", id)
	return nil
}

// TestRedeemUsageLimitConcurrent: 40 tills redeem a discount limited to 7
// uses at the same moment: exactly 7 succeed with counts 1..7, the rest
// get usage_limit_reached, 7 redemptions are stored and one
// discount_exhausted event is raised.
func TestRedeemUsageLimitConcurrent(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	d := mustDiscount(t, st, r, "Happy hour", 7)
	notifyOn(t, st, r, EventDiscountExhausted) // so the event is stored
	const tills, limit = 40, 7

	reds := make([]*Redemption, tills)
	errs := make([]error, tills)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range tills {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			reds[i], errs[i] = st.Redeem(ctx, r.ID, d.ID, RedeemInput{OrderTotalCents: 2000, RedeemedBy: sam.ID})
		}()
	}
	close(start)
	wg.Wait()

	counts := map[int64]bool{}
	ok, refused := 0, 0
	for i := range tills {
		switch {
		case errs[i] == nil:
			ok++
			rd := reds[i]
			if rd.AmountCents != 200 || rd.DiscountID != d.ID || rd.UsageCount < 1 || rd.UsageCount > limit || counts[rd.UsageCount] {
				t.Fatalf("redemption %d: %+v", i, rd)
			}
			counts[rd.UsageCount] = true
		case ErrorCode(errs[i]) == EUsageLimitReached:
			refused++
			if reds[i] != nil {
				t.Fatalf("refused redemption %d returned %+v", i, reds[i])
			}
		default:
			t.Fatalf("redemption %d: %v", i, errs[i])
		}
	}
	if ok != limit || refused != tills-limit {
		t.Fatalf("%d redeemed, %d usage_limit_reached; want %d and %d", ok, refused, limit, tills-limit)
	}
	if got := discountByID(t, st, r.ID, d.ID); got.UsageCount != limit {
		t.Fatalf("usage_count %d, want %d", got.UsageCount, limit)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM discount_redemptions WHERE discount_id = ?`, d.ID); n != limit {
		t.Fatalf("%d redemption rows, want %d", n, limit)
	}
	if n := queryInt(t, st, `SELECT COALESCE(SUM(amount_cents), 0) FROM discount_redemptions WHERE discount_id = ?`, d.ID); n != limit*200 {
		t.Fatalf("%d cents given away, want %d", n, limit*200)
	}
	evs := eventsOf(t, st, r.ID, EventDiscountExhausted)
	if len(evs) != 1 {
		t.Fatalf("%d discount_exhausted events, want 1", len(evs))
	}
	if data := eventData(t, evs[0]); data["discount_id"] != d.ID || data["usage_count"] != float64(limit) || data["usage_limit"] != float64(limit) {
		t.Fatalf("discount_exhausted data %v", data)
	}
	// Used up for good: one more is refused and changes nothing.
	if _, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{OrderTotalCents: 2000, RedeemedBy: sam.ID}); ErrorCode(err) != EUsageLimitReached {
		t.Fatalf("redemption after the limit: %v, want %s", err, EUsageLimitReached)
	}
	if n := len(eventsOf(t, st, r.ID, EventDiscountExhausted)); n != 1 {
		t.Fatalf("%d discount_exhausted events after a refusal, want 1", n)
	}
}

// TestRedeemOnceConcurrentRetries: one till's request retried 12 times at
// once under one Idempotency-Key counts one use, and every answer is the
// first one, byte for byte; a second key is a second use.
func TestRedeemOnceConcurrentRetries(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	d := mustDiscount(t, st, r, "Lunch", 2)
	render := func(rd *Redemption) ([]byte, error) {
		return fmt.Appendf(nil, `{"id":%q,"amount":%d,"usage_count":%d}`, rd.ID, rd.AmountCents, rd.UsageCount), nil
	}
	in := RedeemInput{OrderTotalCents: 1500, RedeemedBy: sam.ID}
	key := IdempotencyKey{RestaurantID: r.ID, Key: "till-3-0042", RequestHash: "h1"}

	const retries = 12
	answers := make([]*IdempotentReplay, retries)
	errs := make([]error, retries)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range retries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			answers[i], errs[i] = st.RedeemOnce(ctx, r.ID, d.ID, in, key, render)
		}()
	}
	close(start)
	wg.Wait()
	for i := range retries {
		if errs[i] != nil {
			t.Fatalf("retry %d: %v", i, errs[i])
		}
		if a := answers[i]; a.Status != 200 || a.ResourceID != answers[0].ResourceID || !bytes.Equal(a.Response, answers[0].Response) {
			t.Fatalf("retry %d answered %+v, retry 0 %+v", i, a, answers[0])
		}
	}
	if got := discountByID(t, st, r.ID, d.ID); got.UsageCount != 1 {
		t.Fatalf("usage_count %d after %d retries of one request, want 1", got.UsageCount, retries)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM discount_redemptions WHERE id = ?`, answers[0].ResourceID); n != 1 {
		t.Fatalf("the answered redemption %s is stored %d times", answers[0].ResourceID, n)
	}
	want := fmt.Sprintf(`{"id":%q,"amount":150,"usage_count":1}`, answers[0].ResourceID)
	if string(answers[0].Response) != want {
		t.Fatalf("answer %s, want %s", answers[0].Response, want)
	}

	key2 := key
	key2.Key = "till-3-0043"
	if a, err := st.RedeemOnce(ctx, r.ID, d.ID, in, key2, render); err != nil || a.ResourceID == answers[0].ResourceID {
		t.Fatalf("second key: %+v, %v; want a second use", a, err)
	}
	if got := discountByID(t, st, r.ID, d.ID); got.UsageCount != 2 {
		t.Fatalf("usage_count %d, want 2", got.UsageCount)
	}
	// The discount is used up, yet the first key still replays its answer.
	if a, err := st.RedeemOnce(ctx, r.ID, d.ID, in, key, render); err != nil || !bytes.Equal(a.Response, answers[0].Response) {
		t.Fatalf("replay after the limit: %+v, %v", a, err)
	}
	key3 := key
	key3.Key = "till-3-0044"
	if _, err := st.RedeemOnce(ctx, r.ID, d.ID, in, key3, render); ErrorCode(err) != EUsageLimitReached {
		t.Fatalf("third key: %v, want %s", err, EUsageLimitReached)
	}
	if _, err := st.Idempotent(ctx, IdempotencyKey{RestaurantID: r.ID, Scope: IdemDiscountRedeem, Key: key3.Key}); !IsNotFound(err) {
		t.Fatalf("the refused request's key was stored: %v", err)
	}
}
