package store

import (
	"context"
	"sync"
	"testing"

	"posbox/store/storetest"
)

// A database from before 00015: its shifts had always been visible to
// staff, so they count as published; new ones are drafts.
func TestMigrationPublishesExistingShifts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := databaseAt(t, dir, 14,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at)
			VALUES ('u1', 'r1', 'a@b.example', 'A', 'staff', 'x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at, created_at, updated_at)
			VALUES ('s1', 'r1', 'u1', '2026-11-02', '10:00', '14:00', '2026-11-02T09:00:00.000Z', '2026-11-02T13:00:00.000Z',
			'2026-11-01T00:00:00.000Z', '2026-11-01T05:00:00.000Z')`,
	)
	db.Close()
	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mine, err := st.UserShifts(ctx, "r1", "u1", "2026-11-02", "2026-11-02")
	if err != nil || len(mine) != 1 || mine[0].PublishedAt == nil || FormatTime(*mine[0].PublishedAt) != "2026-11-01T05:00:00.000Z" {
		t.Fatalf("the older shift after 00015: %+v %v", mine, err)
	}
}

// TestCopyWeekConcurrent: four copies of the same week at once; exactly
// one copy's shifts exist afterwards, the others skipped every shift as
// an overlap.
func TestCopyWeekConcurrent(t *testing.T) {
	ctx := context.Background()
	f := newShiftFixture(t)
	f.mustCreate(t, f.sam, "2026-11-23", "10:00", "14:00")
	f.mustCreate(t, f.sam, "2026-11-24", "22:00", "06:00")
	f.mustCreate(t, f.alex, "2026-11-29", "18:00", "23:00")
	from, _ := WeekOf("from_week", "2026-11-23")
	to, _ := WeekOf("to_week", "2026-12-02")
	const n = 4
	copied := make([]int, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c, _, err := f.st.CopyWeek(ctx, f.r, from, to)
			copied[i], errs[i] = len(c), err
		}()
	}
	close(start)
	wg.Wait()
	total := 0
	for i, err := range errs {
		if err != nil {
			t.Fatalf("copy %d: %v", i, err)
		}
		if copied[i] != 0 && copied[i] != 3 {
			t.Fatalf("copy %d copied %d shifts, want all 3 or none", i, copied[i])
		}
		total += copied[i]
	}
	if total != 3 {
		t.Fatalf("%d shifts copied in all, want 3 (one copy)", total)
	}
	if c := queryInt(t, f.st, `SELECT COUNT(*) FROM shifts WHERE shift_date >= '2026-11-30'`); c != 3 {
		t.Fatalf("%d shifts in the target week, want 3", c)
	}
}

// TestPublishWeekConcurrent: three publishes of one week at once publish
// each draft once and raise one shift_change per shift, not three.
func TestPublishWeekConcurrent(t *testing.T) {
	ctx := context.Background()
	f := newShiftFixture(t)
	notifyOn(t, f.st, f.r, EventShiftChange) // so the events are stored
	for _, d := range []string{"2026-11-23", "2026-11-24", "2026-11-29"} {
		sh := &Shift{UserID: f.sam.ID, ShiftDate: d, StartTime: "10:00", EndTime: "14:00"}
		if err := f.st.CreateShift(ctx, f.r, f.admin, sh, false); err != nil {
			t.Fatal(err)
		}
	}
	week, _ := WeekOf("week", "2026-11-25")
	const n = 3
	published := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			shs, err := f.st.PublishWeek(ctx, f.r, f.admin, week)
			if err != nil {
				t.Error(err)
			}
			published[i] = len(shs)
		}()
	}
	close(start)
	wg.Wait()
	if total := published[0] + published[1] + published[2]; total != 3 {
		t.Fatalf("published %v, want 3 in all", published)
	}
	if c := len(eventsOf(t, f.st, f.restaurant, EventShiftChange)); c != 3 {
		t.Fatalf("%d shift_change events, want 3", c)
	}
	if c := queryInt(t, f.st, `SELECT COUNT(*) FROM shifts WHERE published_at IS NULL`); c != 0 {
		t.Fatalf("%d drafts left", c)
	}
}
