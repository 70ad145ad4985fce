package main

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"posbox/store"
)

// The purge sits in the UTC scheduler hourly and, when it runs, removes
// exactly the keys past store.IdempotencyRetention.
func TestIdempotencyPurgeJob(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: func() time.Time { return now }, Logger: log, BcryptCost: 4, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	addKey := func(key string, age time.Duration) {
		err := st.Write(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys (restaurant_id, scope, key, request_hash, resource_id, status, response, created_at)
				VALUES (?, 'discount_redeem', ?, 'h', 'r', 200, '{}', ?)`, r.ID, key, store.FormatTime(now.Add(-age)))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	addKey("old", store.IdempotencyRetention+time.Second)
	addKey("kept", store.IdempotencyRetention-time.Second)

	sched := newScheduler(log)
	id, err := startIdempotencyPurge(ctx, sched, st, log)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 11, 22, 13, 37, 0, 0, time.UTC)
	if next := sched.Entry(id).Schedule.Next(from); !next.Equal(time.Date(2026, 11, 22, 14, 17, 0, 0, time.UTC)) {
		t.Fatalf("next purge after %s: %s", from, next)
	}
	sched.Entry(id).Job.Run()
	for key, want := range map[string]bool{"old": false, "kept": true} {
		_, err := st.Idempotent(ctx, store.IdempotencyKey{RestaurantID: r.ID, Scope: store.IdemDiscountRedeem, Key: key})
		if got := err == nil; got != want {
			t.Errorf("key %q kept %v after the purge, want %v (%v)", key, got, want, err)
		}
	}
}
