package store

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// The clock-out's check reads only the entry's day and its neighbours
// (labour_warning_entry.go); its warnings must be those of the check over
// every entry around it, as it was before. Random non-overlapping
// histories: short and long entries, split days, night shifts, entries
// without length, breaks up to the whole entry.
func TestEntryWarningsMatchTheWholeWindow(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Check")
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 22))
		u := mustUser(t, st, r, "Staff", "staff")
		r.MinRestHours = 10 + int(seed%2)
		at := time.Date(2026, 3, 20, 6, 0, 0, 0, time.UTC) // over the spring DST change
		var all []*TimeEntry
		for range 60 {
			length := time.Duration(rng.IntN([]int{5 * 60, 12 * 60}[rng.IntN(2)])) * time.Minute
			if rng.IntN(10) == 0 {
				length = 0
			}
			out := at.Add(length)
			e := &TimeEntry{ID: NewID(), UserID: u.ID, ClockIn: at, ClockOut: &out, BreakMinutes: rng.IntN(min(int(length/time.Minute), 40) + 1)}
			all = append(all, e)
			gaps := []time.Duration{time.Minute, 5 * time.Minute, 10 * time.Minute, 20 * time.Minute, 3 * time.Hour, 9 * time.Hour, 11 * time.Hour, 30 * time.Hour, 60 * time.Hour}
			at = out.Add(gaps[rng.IntN(len(gaps))] + time.Duration(rng.IntN(60))*time.Minute)
		}
		// Each entry is checked right after it is stored, as its clock-out
		// is, and then one earlier entry, as a correction is.
		for i, e := range all {
			err := st.Write(ctx, func(tx *Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, r.ID, u.ID, FormatTime(e.ClockIn), FormatTime(*e.ClockOut), e.BreakMinutes,
					FormatTime(e.ClockIn), FormatTime(e.ClockIn))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			checkEntryAgainstWindow(t, st, r, all[:i+1], e)
			checkEntryAgainstWindow(t, st, r, all[:i+1], all[rng.IntN(i+1)])
		}
	}
}

// checkEntryAgainstWindow compares entryWarnings for e with the check
// over every stored entry around it.
func checkEntryAgainstWindow(t *testing.T, st *Store, r *Restaurant, stored []*TimeEntry, e *TimeEntry) {
	t.Helper()
	ctx := context.Background()
	var want, got []LabourWarning
	lo, hi := e.ClockIn.Add(-arbzgMargin), e.ClockOut.Add(arbzgMargin)
	var window []*TimeEntry
	for _, o := range stored {
		if o.ClockIn.Before(hi) && o.ClockOut.After(lo) {
			window = append(window, o)
		}
	}
	if e.ClockOut.After(e.ClockIn) {
		want = WarningsFor(CheckArbZG(EntryPeriods(window), r.Location(), r.MinRestHours), e.ID)
	}
	err := st.Write(ctx, func(tx *Tx) error {
		var err error
		got, err = entryWarnings(ctx, tx, r, e, "correction")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("entry %s-%s: got %+v, want %+v", e.ClockIn, e.ClockOut, got, want)
	}
}
