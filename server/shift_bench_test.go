package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"posbox/store"
)

// Benchmarks of the time clock and shift lists over real HTTP against a
// real store (synchronous=FULL, as shipped). Compare against
// BenchmarkShiftsHelloBaseline from the same run: ratios to a bare handler
// measured in the same run, not absolute numbers, are what carries between
// machines.

// benchServer is a real HTTP server over a fresh test environment.
func benchServer(b *testing.B) (*testEnv, *httptest.Server, *http.Client) {
	b.Helper()
	e := newTestEnv(b)
	ts := httptest.NewServer(e.h)
	b.Cleanup(ts.Close)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Cleanup(c.CloseIdleConnections)
	return e, ts, c
}

// call sends one request and fails unless the status is want.
func call(b *testing.B, c *http.Client, method, url, token string, body []byte, want int) {
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("%s %s: %d, want %d", method, url, resp.StatusCode, want)
	}
}

func BenchmarkShiftsHelloBaseline(b *testing.B) {
	_, ts, c := benchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		call(b, c, "GET", ts.URL+"/api/health", "", nil, http.StatusOK)
	}
}

// BenchmarkClockInOut: one op is a clock-in and a clock-out of one user,
// two committed write transactions with their events.
func BenchmarkClockInOut(b *testing.B) {
	e, ts, c := benchServer(b)
	_, tok := e.staff(b, "Bench Staff")
	b.ReportAllocs()
	for b.Loop() {
		call(b, c, "POST", ts.URL+"/api/shifts/clock-in", tok, nil, http.StatusCreated)
		call(b, c, "POST", ts.URL+"/api/shifts/clock-out", tok, []byte(`{"break_minutes":0}`), http.StatusOK)
	}
}

// BenchmarkClockInOutParallel: the same from many terminals at once, each
// with its own user; writes queue on the one writer connection.
func BenchmarkClockInOutParallel(b *testing.B) {
	e, ts, c := benchServer(b)
	const users = 64
	toks := make([]string, users)
	for i := range toks {
		_, toks[i] = e.staff(b, fmt.Sprintf("Bench %d", i))
	}
	var next atomic.Int32
	before := commits(e.st)
	b.ReportAllocs()
	b.ResetTimer() // not the 64 users' setup
	// One goroutine per user, as the load bench's 64 staff.
	b.SetParallelism(users / runtime.GOMAXPROCS(0))
	b.RunParallel(func(pb *testing.PB) {
		tok := toks[int(next.Add(1)-1)%users]
		for pb.Next() {
			call(b, c, "POST", ts.URL+"/api/shifts/clock-in", tok, nil, http.StatusCreated)
			call(b, c, "POST", ts.URL+"/api/shifts/clock-out", tok, nil, http.StatusOK)
		}
	})
	reportCommits(b, e.st, before) // 2 when every clock-in and -out commits alone
}

// seedStaff adds n staff members directly (bcrypt would dominate setup).
func seedStaff(b *testing.B, e *testEnv, n int) []string {
	ids := make([]string, n)
	err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		for i := range ids {
			ids[i] = store.NewID()
			now := store.FormatTime(tx.Now)
			if _, err := tx.Exec(`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'staff', 'x', ?, ?)`, ids[i], e.restaurant.ID, fmt.Sprintf("s%d@bench.local", i), fmt.Sprintf("Staff %02d", i), now, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return ids
}

// BenchmarkListTimeEntries: one day's 60 entries out of a year of them
// (60 staff × 365 days = 21 900 entries).
func BenchmarkListTimeEntries(b *testing.B) {
	e, ts, c := benchServer(b)
	staff := seedStaff(b, e, 60)
	first := time.Date(2025, 11, 23, 7, 0, 0, 0, time.UTC)
	err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		for d := range 365 {
			for i, id := range staff {
				in := first.AddDate(0, 0, d).Add(time.Duration(i) * time.Minute)
				if _, err := tx.Exec(`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, 30, ?, ?)`, store.NewID(), e.restaurant.ID, id, store.FormatTime(in), store.FormatTime(in.Add(8*time.Hour)),
					store.FormatTime(in), store.FormatTime(in)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		call(b, c, "GET", ts.URL+"/api/time-entries?date=2026-06-01", e.adminToken, nil, http.StatusOK)
	}
}

// BenchmarkListShiftsWeek: a week view (210 shifts) out of 10 000 (30
// shifts a day for 334 days).
func BenchmarkListShiftsWeek(b *testing.B) {
	e, ts, c := benchServer(b)
	staff := seedStaff(b, e, 60)
	berlin := e.restaurant.Location()
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		for d := range 334 {
			day := first.AddDate(0, 0, d)
			for i := range 30 {
				id := staff[(d+i)%len(staff)]
				starts := store.LocalInstant(day, 10*60+i, berlin)
				now := store.FormatTime(tx.Now)
				if _, err := tx.Exec(`INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, store.NewID(), e.restaurant.ID, id, day.Format(store.DateFormat),
					fmt.Sprintf("10:%02d", i), fmt.Sprintf("18:%02d", i), store.FormatTime(starts), store.FormatTime(starts.Add(8*time.Hour)), now, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		call(b, c, "GET", ts.URL+"/api/shifts?date_from=2026-06-01&date_to=2026-06-07", e.adminToken, nil, http.StatusOK)
	}
}
