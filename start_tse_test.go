package main

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/tse/tsesim"
)

// The TSE jobs sit in the UTC scheduler at their times: the self-test at
// 02:00 UTC whatever the restaurant's timezone, and running the entry's
// job records a self-test.
func TestTSEJobsSchedule(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	st, err := store.Open(ctx, dir, store.Options{Logger: log, BcryptCost: 4, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	sim, err := tsesim.Open(tsesim.Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	tq, err := queue.New(ctx, sim, st, queue.Options{RestaurantID: r.ID, Logger: log})
	if err != nil {
		t.Fatal(err)
	}

	sched := newScheduler(log)
	ids, err := registerTSEJobs(ctx, sched, tq, log)
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct{ job, from, want string }{
		{"tse self-test", "2026-11-22T13:37:00Z", "2026-11-23T02:00:00Z"},
		{"tse self-test", "2026-11-23T01:59:59Z", "2026-11-23T02:00:00Z"},
		{"tse self-test", "2026-11-23T02:00:00Z", "2026-11-24T02:00:00Z"},
		// 03:00 in Berlin's summer is 01:00 UTC: the test runs an hour later
		// (04:00 local), at 02:00 UTC, not at 02:00 local.
		{"tse self-test", "2026-07-01T03:00:00+02:00", "2026-07-01T02:00:00Z"},
		{"tse certificate check", "2026-11-22T13:37:00Z", "2026-11-23T02:30:00Z"},
		{"tse reconcile", "2026-11-22T13:37:00Z", "2026-11-22T13:40:00Z"},
	} {
		next := sched.Entry(ids[c.job]).Schedule.Next(at(c.from))
		if !next.Equal(at(c.want)) {
			t.Errorf("%s after %s: %s, want %s", c.job, c.from, next.UTC().Format(time.RFC3339), c.want)
		}
	}
	sched.Entry(ids["tse self-test"]).Job.Run()
	last, err := st.LatestTSESelfTest(ctx, r.ID)
	if err != nil || last.State != store.SelfTestPassed {
		t.Fatalf("self-test after the job ran: %+v %v", last, err)
	}
}
