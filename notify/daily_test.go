package notify

import (
	"context"
	"testing"
	"time"

	"posbox/store"
)

func (e *env) user(t testing.TB, name string) *store.User {
	t.Helper()
	u := &store.User{RestaurantID: e.rest.ID, Email: name + "@trattoria.example", Name: name, Role: store.RoleStaff}
	if err := e.st.CreateUser(context.Background(), u, "password1"); err != nil {
		t.Fatal(err)
	}
	return u
}

// timeEntry writes a time entry directly (the time clock's API lives in
// another package); out "" leaves it open.
func (e *env) timeEntry(t testing.TB, u *store.User, in, out string, breakMin int) {
	t.Helper()
	var outV any
	if out != "" {
		outV = out
	}
	err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Exec(`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, store.NewID(), e.rest.ID, u.ID, in, outV, breakMin, in, in)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDailyReportOncePerLocalDate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	anna, ben := e.user(t, "Anna"), e.user(t, "Ben")
	// 2026-11-21 in Berlin (UTC+1) runs from 2026-11-20T23:00Z to 2026-11-21T23:00Z.
	e.timeEntry(t, anna, "2026-11-21T07:00:00.000Z", "2026-11-21T15:30:00.000Z", 30) // 8 h
	e.timeEntry(t, ben, "2026-11-21T16:00:00.000Z", "2026-11-21T22:15:00.000Z", 0)   // 6.25 h
	e.timeEntry(t, ben, "2026-11-21T22:30:00.000Z", "", 0)                           // open: not counted
	e.timeEntry(t, anna, "2026-11-20T22:00:00.000Z", "2026-11-20T23:30:00.000Z", 0)  // the 20th, local
	e.timeEntry(t, anna, "2026-11-21T23:00:00.000Z", "2026-11-22T01:00:00.000Z", 0)  // the 22nd, local
	rcv := newReceiver(t)
	e.rule(t, store.ChannelWebhook, store.EventDailyReport, rcv.URL)
	ctx := context.Background()
	reporter := &DailyReporter{St: e.st, At: "06:00"}
	events := func() []*store.Event {
		evs, err := e.st.Events(ctx, e.rest.ID, store.EventDailyReport, 10)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}

	e.clock.Add(-(9*time.Hour - 4*time.Hour - 59*time.Minute)) // 2026-11-22 04:59Z = 05:59 in Berlin
	if err := reporter.Run(ctx); err != nil || len(events()) != 0 {
		t.Fatalf("a report before 06:00 local: %v, %d", err, len(events()))
	}
	e.clock.Add(time.Minute)
	if err := reporter.Run(ctx); err != nil {
		t.Fatal(err)
	}
	evs := events()
	if len(evs) != 1 {
		t.Fatalf("%d reports, want 1", len(evs))
	}
	body := mustJSON(t, evs[0].Data)
	if body["date"] != "2026-11-21" || body["total_hours"] != 14.25 || body["timezone"] != "Europe/Berlin" {
		t.Fatalf("report %s", evs[0].Data)
	}
	staff := body["staff"].([]any)
	a, b := staff[0].(map[string]any), staff[1].(map[string]any)
	if a["name"] != "Anna" || a["hours"] != 8.0 || a["entries"] != 1.0 || b["name"] != "Ben" || b["hours"] != 6.25 || b["open_entries"] != 1.0 {
		t.Fatalf("staff %v", staff)
	}
	for _, k := range []string{"discounts", "tse"} {
		if _, ok := body[k].(map[string]any); !ok {
			t.Fatalf("no %s in %s", k, evs[0].Data)
		}
	}

	// A second run, and a restart, send nothing more.
	if err := reporter.Run(ctx); err != nil {
		t.Fatal(err)
	}
	e.st.Close()
	e.open(t)
	if err := (&DailyReporter{St: e.st, At: "06:00"}).Run(ctx); err != nil || len(events()) != 1 {
		t.Fatalf("after restart: %v, %d reports", err, len(events()))
	}
	runOnce(t, e.webhookDispatcher(t))
	if hits := rcv.got(); len(hits) != 1 || mustJSON(t, hits[0].Body)["type"] != "daily_report" {
		t.Fatalf("receiver got %d", len(hits))
	}

	// The next local day brings the next report.
	e.clock.Add(24 * time.Hour)
	if err := (&DailyReporter{St: e.st, At: "06:00"}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if evs := events(); len(evs) != 2 || mustJSON(t, evs[0].Data)["date"] != "2026-11-22" {
		t.Fatalf("%d reports", len(evs))
	}
}

// A report day is the restaurant's local day: 23 hours long when the
// clocks go forward.
func TestDailyReportDayFollowsDST(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for date, want := range map[string][2]string{
		"2026-03-29": {"2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"},
		"2026-10-25": {"2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"},
		"2026-11-21": {"2026-11-20T23:00:00.000Z", "2026-11-21T23:00:00.000Z"},
	} {
		rep, err := e.st.BuildDailyReport(context.Background(), e.rest, date)
		if err != nil {
			t.Fatal(err)
		}
		if rep.From != want[0] || rep.To != want[1] {
			t.Errorf("%s: %s..%s, want %s..%s", date, rep.From, rep.To, want[0], want[1])
		}
	}
}
