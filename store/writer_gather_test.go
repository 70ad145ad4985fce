package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"posbox/store/storetest"
)

// Concurrent clock-ins share commits (the writer gathers them), and each
// is acknowledged only once it is committed: the moment ClockIn returns,
// another connection sees the entry, and after a reopen every
// acknowledged clock-in is one stored entry, none twice.
func TestGroupCommitConcurrentClockInsAreDurableWhenAcknowledged(t *testing.T) {
	dir := t.TempDir()
	clock := storetest.NewClock(testStart)
	st := openTestStore(t, dir, clock)
	r := mustRestaurant(t, st, "Gather")
	const n = 48
	users := make([]*User, n)
	for i := range users {
		users[i] = mustUser(t, st, r, fmt.Sprintf("Staff %02d", i), RoleStaff)
	}
	// Rules for both, so each clock-in and -out stores its event.
	mustRule(t, st, r, EventClockIn, true)
	mustRule(t, st, r, EventClockOut, true)
	ctx := context.Background()
	for round := range 3 { // the first round's batch makes the next ones gather
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for _, u := range users {
			wg.Go(func() {
				e, err := st.ClockIn(ctx, r, u)
				if err != nil {
					errs <- err
					return
				}
				var seen int
				if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM time_entries WHERE id = ?`, e.ID).Scan(&seen); err != nil || seen != 1 {
					errs <- fmt.Errorf("round %d: %s acknowledged, seen by a reader %d times (%v)", round, u.Name, seen, err)
					return
				}
				if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	if c := st.Commits(); c == 0 {
		t.Fatal("no commits counted")
	}
	st.Close()
	st = openTestStore(t, dir, clock)
	if got := queryInt(t, st, `SELECT count(*) FROM time_entries WHERE restaurant_id = ? AND clock_out IS NOT NULL`, r.ID); got != 3*n {
		t.Fatalf("%d closed entries stored, want %d", got, 3*n)
	}
	if got := queryInt(t, st, `SELECT count(*) FROM events WHERE restaurant_id = ? AND type IN (?, ?)`, r.ID, EventClockIn, EventClockOut); got != 2*3*n {
		t.Fatalf("%d clock events stored, want %d", got, 2*3*n)
	}
}
