package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
)

// certifiedTSS answers as the queue does for a certified TSS.
type certifiedTSS struct {
	mu         sync.Mutex
	serial     string
	restaurant string
}

func (c *certifiedTSS) TSS(context.Context, string) (store.TSEInfo, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return store.TSEInfo{SerialNumber: c.serial}, true, nil
}
func (c *certifiedTSS) Kind() string         { return tse.KindFiskaly }
func (c *certifiedTSS) RestaurantID() string { return c.restaurant }

// At start the TSS the box signs with is noted (a first one is due), and
// the five-minute job notes a replacement, once.
func TestRegistrationWatchAtStartAndOnSchedule(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: clock.Now, Logger: log, BcryptCost: 4, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	q := &certifiedTSS{serial: "aaaa", restaurant: r.ID}
	sched := newScheduler(log)
	var workers sync.WaitGroup
	if err := startFiscalJobs(ctx, &workers, sched, st, q, Config{}, log); err != nil {
		t.Fatal(err)
	}
	workers.Wait() // the check at start
	open := func() []store.RegistrationChange {
		list, err := st.OpenRegistrationChanges(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	if got := open(); len(got) != 1 || got[0].Change != store.TSEInService || got[0].Subject != "aaaa" {
		t.Fatalf("after start: %+v", got)
	}
	entries := sched.Entries()
	if len(entries) != 1 { // closing_time empty: only the watch
		t.Fatalf("%d jobs, want the watch only", len(entries))
	}
	from := time.Date(2026, 11, 22, 13, 37, 0, 0, time.UTC)
	if next := entries[0].Schedule.Next(from); !next.Equal(time.Date(2026, 11, 22, 13, 40, 0, 0, time.UTC)) {
		t.Fatalf("next check after %s: %s", from, next)
	}
	q.mu.Lock()
	q.serial = "bbbb"
	q.mu.Unlock()
	entries[0].Job.Run()
	entries[0].Job.Run()
	if got := open(); len(got) != 3 {
		t.Fatalf("after a replacement: %+v", got)
	}
}
