package store

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A month of a busy restaurant: 30 staff, one evening shift a day each,
// many across midnight. The report and the payroll export run these over
// every entry of the range.
func monthOfEntries() ([]*TimeEntry, []WorkPeriod) {
	var es []*TimeEntry
	for u := range 30 {
		for d := 1; d <= 31; d++ {
			in := time.Date(2026, 12, d, 16+u%6, 0, 0, 0, berlin)
			out := in.Add(time.Duration(6+u%5)*time.Hour + 30*time.Minute)
			es = append(es, &TimeEntry{ID: fmt.Sprintf("e%d-%d", u, d), UserID: fmt.Sprintf("u%02d", u), UserName: fmt.Sprintf("Staff %02d", u),
				ClockIn: in, ClockOut: &out, BreakMinutes: 30, Source: EntryClock})
		}
	}
	return es, EntryPeriods(es)
}

func BenchmarkCheckArbZGMonth(b *testing.B) {
	_, ps := monthOfEntries()
	b.ReportAllocs()
	for b.Loop() {
		CheckArbZG(ps, berlin, 11)
	}
}

func BenchmarkWorkRecordsMonth(b *testing.B) {
	es, _ := monthOfEntries()
	r := &Restaurant{Timezone: "Europe/Berlin", FederalState: "BY", MinRestHours: 11, OpenEntryLimitHours: 16}
	now := time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		WorkRecords(es, r, now)
	}
}

// The time clock's hot paths on day one and in year ten: the same
// operations over an empty history and over ten years of it (20 of the
// 60 staff with an entry and a shift each per working day, 313 days a
// year: 62 600 of each, inserted directly), so a check that reads
// history shows as a growing ratio between the two. Run with
// go test ./store -run '^$' -bench TimeclockHistory -benchmem
// (the ten years take a minute or two to insert).

// historyYears is the long history's length.
const historyYears = 10

// benchHistory is a store with a restaurant, its 60 staff and, when
// years > 0, the entries and shifts of 20 of them over that many years
// before the test clock's start, plus the week of 2026-12-07 planned: 200
// shifts.
func benchHistory(b *testing.B, years int) (*Store, *Restaurant, []*User) {
	b.Helper()
	st, _ := newTestStore(b)
	ctx := context.Background()
	r := mustRestaurant(b, st, "History")
	var staff []*User
	err := st.Write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		for i := range 60 {
			u := &User{ID: NewID(), Name: fmt.Sprintf("Staff %02d", i)}
			staff = append(staff, u)
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'staff', 'x', ?, ?)`, u.ID, r.ID, u.ID+"@bench.local", u.Name, now, now); err != nil {
				return err
			}
		}
		first := testStart.AddDate(-years, 0, -1)
		for d := 0; d < years*365; d++ {
			if d%7 == 5 { // 313 working days a year
				continue
			}
			day := time.Date(first.Year(), first.Month(), first.Day()+d, 0, 0, 0, 0, time.UTC)
			for i, u := range staff[:20] {
				if err := insertHistoryDay(ctx, tx, r, u, day, i); err != nil {
					return err
				}
			}
		}
		for i := range 200 {
			if err := insertHistoryShift(ctx, tx, r, staff[i%len(staff)], time.Date(2026, 12, 7+i/len(staff), 0, 0, 0, 0, time.UTC), 10*60, 30); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st, r, staff
}

// insertHistoryDay stores one past working day of u: an 8.5-hour entry
// and its shift.
func insertHistoryDay(ctx context.Context, tx *Tx, r *Restaurant, u *User, day time.Time, i int) error {
	in := LocalInstant(day, 9*60+i, r.Location())
	if _, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 30, ?, ?)`, NewID(), r.ID, u.ID, FormatTime(in), FormatTime(in.Add(8*time.Hour+30*time.Minute)),
		FormatTime(in), FormatTime(in)); err != nil {
		return err
	}
	return insertHistoryShift(ctx, tx, r, u, day, 9*60, 30)
}

// insertHistoryShift stores a published 8.5-hour shift of u on day at
// start (minutes after midnight).
func insertHistoryShift(ctx context.Context, tx *Tx, r *Restaurant, u *User, day time.Time, start, breakMinutes int) error {
	starts := LocalInstant(day, start, r.Location())
	now := FormatTime(tx.Now)
	_, err := tx.ExecContext(ctx, `INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at,
		break_minutes, role, notes, published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'service', 'Lunch and dinner', ?, ?, ?)`,
		NewID(), r.ID, u.ID, day.Format(DateFormat), fmt.Sprintf("%02d:%02d", start/60, start%60), fmt.Sprintf("%02d:%02d", (start+510)/60%24, (start+510)%60),
		FormatTime(starts), FormatTime(starts.Add(510*time.Minute)), breakMinutes, now, now, now)
	return err
}

// BenchmarkTimeclockHistory runs, on day one and in year ten: the admins'
// week (200 shifts with their warnings), my-status's read of a
// clocked-in user, and a clock-in with its clock-out (the labour-law
// check included) of a user with history.
func BenchmarkTimeclockHistory(b *testing.B) {
	ctx := context.Background()
	for _, years := range []int{0, historyYears} {
		b.Run(fmt.Sprintf("years=%d", years), func(b *testing.B) {
			st, r, staff := benchHistory(b, years)
			b.Run("week", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if shs, _, err := st.ShiftsWithWarnings(ctx, r, "2026-12-07", "2026-12-13"); err != nil || len(shs) != 200 {
						b.Fatal(len(shs), err)
					}
				}
			})
			b.Run("my-status", func(b *testing.B) {
				if _, err := st.ClockIn(ctx, r, staff[0]); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := st.OpenPunch(ctx, r.ID, staff[0].ID); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := st.ClockOut(ctx, r, staff[0], 0); err != nil {
					b.Fatal(err)
				}
			})
			b.Run("clock-in-out", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					u := staff[i%20]
					if _, err := st.ClockIn(ctx, r, u); err != nil {
						b.Fatal(err)
					}
					if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkClockPairsParallel is the load bench's clock pairs without
// HTTP: 64 staff clock in and out at once, each op one pair; commits/op
// shows how well the writer gathers (2 when every write commits alone).
func BenchmarkClockPairsParallel(b *testing.B) {
	ctx := context.Background()
	st, r, staff := benchHistory(b, 0)
	var next atomic.Int32
	before := st.Commits()
	b.ReportAllocs()
	b.SetParallelism(max(1, len(staff)/runtime.GOMAXPROCS(0))) // one goroutine per staff member (60)
	b.RunParallel(func(pb *testing.PB) {
		u := staff[int(next.Add(1)-1)%len(staff)]
		for pb.Next() {
			if _, err := st.ClockIn(ctx, r, u); err != nil {
				b.Error(err)
				return
			}
			if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(st.Commits()-before)/float64(b.N), "commits/op")
}
