package store

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// TestClockInSurvivesReopen: an acknowledged clock-in is on disk, and the
// one-open-entry rule still holds after the store is closed and reopened.
func TestClockInSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	opts := Options{Now: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost}
	st, err := Open(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := &Restaurant{Name: "R", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	u := &User{RestaurantID: r.ID, Email: "sam@test.local", Name: "Sam", Role: RoleStaff}
	if err := st.CreateUser(ctx, u, "password1"); err != nil {
		t.Fatal(err)
	}
	notifyOn(t, st, r, EventClockIn, EventClockOut) // so the events are stored
	in, err := st.ClockIn(ctx, r, u)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = Open(ctx, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open, err := st.OpenEntry(ctx, r.ID, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if open == nil || open.ID != in.ID || !open.ClockIn.Equal(now) || open.ClockOut != nil {
		t.Fatalf("after reopen: %+v, want the entry %s opened at %v", open, in.ID, now)
	}
	if _, err := st.ClockIn(ctx, r, u); ErrorCode(err) != EAlreadyClockedIn {
		t.Fatalf("second clock-in after reopen: %v, want %s", err, EAlreadyClockedIn)
	}
	now = now.Add(8 * time.Hour)
	out, err := st.ClockOut(ctx, r, u, 30)
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != in.ID || out.WorkedHundredths(now) != 750 {
		t.Fatalf("clock-out %+v", out)
	}
	evs, err := st.Events(ctx, r.ID, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Type != EventClockOut || evs[1].Type != EventClockIn {
		t.Fatalf("events %+v", evs)
	}
}
