package main

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"posbox/store"
	"posbox/store/storetest"
)

// The open-entry check runs every five minutes; an entry open past the
// limit is flagged and raises its event once, also across a restart of
// the store (the flag is in the database), and is not closed.
func TestOpenEntryCheckJob(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	opts := store.Options{Now: clock.Now, Logger: log, BcryptCost: 4, Synchronous: "NORMAL"}
	st, err := store.Open(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	notifyOn(t, st, r, store.EventTimeEntryOpenTooLong) // so the event is stored
	u := &store.User{RestaurantID: r.ID, Email: "sam@test.local", Name: "Sam", Role: store.RoleStaff}
	if err := st.CreateUser(ctx, u, "password1"); err != nil {
		t.Fatal(err)
	}
	e, err := st.ClockIn(ctx, r, u)
	if err != nil {
		t.Fatal(err)
	}
	sched := newScheduler(log)
	id, err := startTimeClock(ctx, sched, st, log)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 11, 22, 13, 37, 0, 0, time.UTC)
	if next := sched.Entry(id).Schedule.Next(from); !next.Equal(time.Date(2026, 11, 22, 13, 40, 0, 0, time.UTC)) {
		t.Fatalf("next check after %s: %s", from, next)
	}
	events := func(st *store.Store) int {
		evs, err := st.Events(ctx, r.ID, store.EventTimeEntryOpenTooLong, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	clock.Add(16 * time.Hour) // exactly the limit: not yet
	sched.Entry(id).Job.Run()
	if n := events(st); n != 0 {
		t.Fatalf("%d events at exactly 16 h", n)
	}
	clock.Add(time.Minute)
	sched.Entry(id).Job.Run()
	sched.Entry(id).Job.Run()
	if n := events(st); n != 1 {
		t.Fatalf("%d events past 16 h, want 1", n)
	}
	st.Close()
	st, err = store.Open(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock.Add(time.Hour)
	checkOpenEntries(ctx, st, log)
	if n := events(st); n != 1 {
		t.Fatalf("%d events after a restart, want still 1", n)
	}
	open, err := st.OpenEntry(ctx, r.ID, u.ID)
	if err != nil || open.ID != e.ID || open.OpenFlaggedAt == nil {
		t.Fatalf("the entry after the check: %+v %v", open, err)
	}
}

// notifyOn subscribes r to each event type with an enabled webhook rule,
// so the events of those types are stored: one no enabled rule wants is
// not written (store.InsertEvent). No dispatcher runs in these tests.
// Call it before the action that raises them.
func notifyOn(tb testing.TB, st *store.Store, r *store.Restaurant, types ...string) {
	tb.Helper()
	for _, typ := range types {
		n := &store.NotificationSetting{RestaurantID: r.ID, Channel: store.ChannelWebhook, EventType: typ,
			Destination: "https://hooks.example.test/" + typ, IsEnabled: true}
		if err := st.CreateNotificationSetting(context.Background(), n); err != nil {
			tb.Fatal(err)
		}
	}
}
