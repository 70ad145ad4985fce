package main

import (
	"bytes"
	"context"
	"flag"
	"log/slog"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// The retention job sits in the UTC scheduler hourly with the configured
// periods, logs what it removed as counts only (no name, address or id),
// and periods under a week are refused at start.
func TestRetentionJob(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(&out, nil))
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: func() time.Time { return now }, Logger: slog.New(slog.DiscardHandler), BcryptCost: 4, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	addEvent := func(id string, age time.Duration) {
		err := st.Write(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES (?, ?, 'clock_in', '{"user_name":"Kim Koch"}', ?)`,
				id, r.ID, store.FormatTime(now.Add(-age)))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	addEvent("old", 11*24*time.Hour)
	addEvent("kept", 9*24*time.Hour)

	cfg := DefaultConfig()
	cfg.EventKeepDays = 10
	sched := newScheduler(log)
	id, err := startRetention(ctx, sched, st, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 11, 22, 13, 37, 0, 0, time.UTC)
	if next := sched.Entry(id).Schedule.Next(from); !next.Equal(time.Date(2026, 11, 22, 13, 41, 0, 0, time.UTC)) {
		t.Fatalf("next run after %s: %s", from, next)
	}
	sched.Entry(id).Job.Run()
	if _, err := st.Event(ctx, "old"); !store.IsNotFound(err) {
		t.Errorf("the event past event_keep_days is still there: %v", err)
	}
	if _, err := st.Event(ctx, "kept"); err != nil {
		t.Errorf("the event within event_keep_days went: %v", err)
	}
	if s := out.String(); !strings.Contains(s, "events=1") || strings.Contains(s, "Kim") || strings.Contains(s, r.ID) {
		t.Errorf("the log: %s", s)
	}

	for _, arg := range []string{"--event-keep-days=6", "--notification-keep-days=0"} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		_, err := loadConfig(fs, []string{arg}, "event_keep_days", "notification_keep_days")
		if err == nil || !strings.Contains(err.Error(), "less than 7 days") {
			t.Errorf("%s: %v, want a refusal", arg, err)
		}
	}
}

// A keep-days setting past ten years is a config error, not a period:
// from 106,752 days on the cutoff overflowed into the future and the run
// deleted every event.
func TestRetentionConfigRefusesHugePeriods(t *testing.T) {
	for _, arg := range []string{"--event-keep-days=200000", "--event-keep-days=106752",
		"--notification-keep-days=9223372036854775807", "--notification-keep-days=3651"} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		_, err := loadConfig(fs, []string{arg}, "event_keep_days", "notification_keep_days")
		if err == nil || !strings.Contains(err.Error(), "at most 3650") {
			t.Errorf("%s: %v, want a refusal", arg, err)
		}
	}
}
