package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// The week's list reads its shifts once and only the times of the dates
// around it (shift_list.go); every shift's warnings must be those the
// check over the whole plan gives, as ShiftsWarnings does. A random plan:
// five staff over five weeks, night shifts, cancelled shifts, short rests.
func TestShiftsWithWarningsMatchTheWholePlan(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Plan")
	rng := rand.New(rand.NewPCG(22, 5))
	var users []*User
	for i := range 5 {
		users = append(users, mustUser(t, st, r, fmt.Sprintf("Staff %d", i), "staff"))
	}
	first := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC) // over the spring DST change
	err := st.Write(ctx, func(tx *Tx) error {
		for d := range 35 {
			day := first.AddDate(0, 0, d)
			for _, u := range users {
				for range rng.IntN(3) {
					start := rng.IntN(24*60) / 15 * 15
					length := (60 + rng.IntN(12*60)) / 15 * 15
					starts := LocalInstant(day, start, r.Location())
					status := []string{"pending", "confirmed", "cancelled"}[rng.IntN(3)]
					now := FormatTime(tx.Now)
					if _, err := tx.ExecContext(ctx, `INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at,
						break_minutes, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
						NewID(), r.ID, u.ID, day.Format(DateFormat), fmt.Sprintf("%02d:%02d", start/60, start%60), "00:00",
						FormatTime(starts), FormatTime(starts.Add(time.Duration(length)*time.Minute)), rng.IntN(50), status, now, now); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	warned := 0
	for _, week := range [][2]string{{"2026-03-09", "2026-03-15"}, {"2026-03-23", "2026-03-29"}, {"2026-03-02", "2026-03-02"}, {"2026-04-01", "2026-04-05"}} {
		shs, got, err := st.ShiftsWithWarnings(ctx, r, week[0], week[1])
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.ShiftsWarnings(ctx, r, shs)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shs {
			if !reflect.DeepEqual(got[sh.ID], want[sh.ID]) {
				t.Fatalf("%v, shift %s %s: got %+v, want %+v", week, sh.ShiftDate, sh.StartTime, got[sh.ID], want[sh.ID])
			}
			if len(want[sh.ID]) > 0 {
				warned++
			}
		}
	}
	if warned == 0 {
		t.Fatal("no shift warned: the plan tests nothing")
	}
}
