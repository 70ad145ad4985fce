package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

var weekdays1719 = []ScheduleWindow{{5, 1020, 1140}, {1, 1020, 1140}, {2, 1020, 1140}, {3, 1020, 1140}, {4, 1020, 1140}}

// TestDiscountScheduleStored: kept sorted, listed, kept by an update
// without it, replaced whole by one with it, removed by null.
func TestDiscountScheduleStored(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	d, err := st.CreateDiscount(ctx, r.ID, DiscountUpdate{Name: Of("Drinks"), Type: Of(DiscountPercentage), Value: Of(int64(20_00)),
		Schedule: Of(weekdays1719)})
	if err != nil {
		t.Fatal(err)
	}
	sorted := []ScheduleWindow{{1, 1020, 1140}, {2, 1020, 1140}, {3, 1020, 1140}, {4, 1020, 1140}, {5, 1020, 1140}}
	if !slices.Equal(d.Schedule, sorted) || !slices.Equal(discountByID(t, st, r.ID, d.ID).Schedule, sorted) {
		t.Fatalf("schedule %v, listed %v", d.Schedule, discountByID(t, st, r.ID, d.ID).Schedule)
	}
	if _, err := st.UpdateDiscount(ctx, r.ID, d.ID, DiscountUpdate{Value: Of(int64(25_00))}); err != nil {
		t.Fatal(err)
	}
	if got := discountByID(t, st, r.ID, d.ID).Schedule; !slices.Equal(got, sorted) {
		t.Fatalf("an update without the schedule changed it: %v", got)
	}
	night := []ScheduleWindow{{5, 22 * 60, 2 * 60}}
	if _, err := st.UpdateDiscount(ctx, r.ID, d.ID, DiscountUpdate{Schedule: Of(night)}); err != nil {
		t.Fatal(err)
	}
	if got := discountByID(t, st, r.ID, d.ID).Schedule; !slices.Equal(got, night) {
		t.Fatalf("replaced schedule %v", got)
	}
	if _, err := st.UpdateDiscount(ctx, r.ID, d.ID, DiscountUpdate{Schedule: Field[[]ScheduleWindow]{Set: true, Null: true}}); err != nil {
		t.Fatal(err)
	}
	if got := discountByID(t, st, r.ID, d.ID).Schedule; got != nil {
		t.Fatalf("schedule after null %v", got)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM discount_schedule_windows`); n != 0 {
		t.Fatalf("%d window rows left", n)
	}
}

// TestDiscountScheduleRules: the store's checks and the table's CHECKs.
func TestDiscountScheduleRules(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	many := make([]ScheduleWindow, 29)
	for i := range many {
		many[i] = ScheduleWindow{i%7 + 1, i, i + 1}
	}
	for name, tc := range map[string]struct {
		ws   []ScheduleWindow
		code FieldCode
	}{
		"Empty":     {[]ScheduleWindow{}, FTooFew},
		"TooMany":   {many, FTooMany},
		"Weekday0":  {[]ScheduleWindow{{0, 0, 60}}, FOutOfRange},
		"Minute24h": {[]ScheduleWindow{{1, 0, 1440}}, FNotTime},
		"Duplicate": {[]ScheduleWindow{{1, 60, 120}, {2, 60, 120}, {1, 60, 120}}, FDuplicate},
	} {
		_, err := st.CreateDiscount(ctx, r.ID, DiscountUpdate{Name: Of(name), Type: Of(DiscountFixed), Value: Of(int64(100)), Schedule: Of(tc.ws)})
		var e *Error
		if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != "schedule" || e.Fields[0].Code != tc.code {
			t.Errorf("%s: %v, want %s on schedule", name, err, tc.code)
		}
	}
	if _, err := st.CreateDiscount(ctx, r.ID, DiscountUpdate{Name: Of("Max"), Type: Of(DiscountFixed), Value: Of(int64(100)), Schedule: Of(many[:28])}); err != nil {
		t.Fatalf("28 windows: %v", err)
	}
	d := mustDiscount(t, st, r, "Raw", 5)
	for _, q := range []string{
		`INSERT INTO discount_schedule_windows VALUES (?, 8, 0, 60)`,
		`INSERT INTO discount_schedule_windows VALUES (?, 1, -1, 60)`,
		`INSERT INTO discount_schedule_windows VALUES (?, 1, 0, 1440)`,
	} {
		if err := st.write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q, d.ID); return err }); err == nil {
			t.Errorf("%s was stored", q)
		}
	}
	if err := st.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO discount_schedule_windows VALUES ('no-such-discount', 1, 0, 60)`)
		return err
	}); err == nil {
		t.Error("a window of no discount was stored")
	}
}

// TestRedeemScheduleInTransaction: the schedule is asked with the
// transaction's clock; a caller that does not pass the check cannot
// redeem a discount that has a schedule; 64 tills inside a window with a
// limit of 9 get exactly 9, and outside it none.
func TestRedeemScheduleInTransaction(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	d, err := st.CreateDiscount(ctx, r.ID, DiscountUpdate{Name: Of("Nine"), Type: Of(DiscountFixed), Value: Of(int64(100)),
		UsageLimit: Of(int64(9)), Schedule: Of([]ScheduleWindow{{7, 0, 0}})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{OrderTotalCents: 1000, RedeemedBy: sam.ID}); ErrorCode(err) != EDiscountOutsideSchedule {
		t.Fatalf("without the check: %v, want %s", err, EDiscountOutsideSchedule)
	}
	// The check as posbox/discount gives it; here: open before 10:00Z.
	var seen sync.Map
	check := func(d *Discount, at time.Time) error {
		seen.Store(at, true)
		if at.Before(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) {
			return nil
		}
		return Errorf(EDiscountOutsideSchedule, "discount %q is outside its schedule", d.Name)
	}
	fire := func() map[string]int {
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 64 {
			wg.Go(func() {
				<-start
				_, err := st.Redeem(ctx, r.ID, d.ID, RedeemInput{OrderTotalCents: 1000, RedeemedBy: sam.ID, Schedule: check})
				mu.Lock()
				got[ErrorCode(err)]++
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		return got
	}
	if got := fire(); got[""] != 9 || got[EUsageLimitReached] != 55 {
		t.Fatalf("inside: %v, want 9 redeemed and 55 usage_limit_reached", got)
	}
	if _, ok := seen.Load(testStart); !ok {
		t.Fatal("the check did not get the transaction's clock")
	}
	d2, err := st.CreateDiscount(ctx, r.ID, DiscountUpdate{Name: Of("Later"), Type: Of(DiscountFixed), Value: Of(int64(100)),
		UsageLimit: Of(int64(9)), Schedule: Of([]ScheduleWindow{{7, 0, 0}})})
	if err != nil {
		t.Fatal(err)
	}
	d = d2
	clock.Set(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	if got := fire(); got[EDiscountOutsideSchedule] != 64 {
		t.Fatalf("outside: %v, want 64 discount_outside_schedule", got)
	}
	if n := queryInt(t, st, `SELECT usage_count FROM discounts WHERE id = ?`, d.ID); n != 0 {
		t.Fatalf("usage_count %d outside the schedule", n)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM discount_redemptions WHERE discount_id = ?`, d.ID); n != 0 {
		t.Fatalf("%d redemptions outside the schedule", n)
	}
}
