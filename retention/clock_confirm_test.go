package retention

import (
	"context"
	"errors"
	"testing"
	"time"

	"posbox/store"
)

// A box switched off for years comes back with a right clock: the cutoff
// would jump more than a year, so the job holds the time records back and
// says so (the hold the console shows) until an admin confirms the clock
// for exactly the date she saw; then the next run deletes up to that date
// and no further, and the confirmation stays as the audit record.
func TestAnAdminConfirmsTheClockAfterALongPause(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.November, 22, 10, 0))
	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
		VALUES ('te-2026', '`+f.rest.ID+`', '`+f.staff.ID+`', '2026-11-22T08:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z'),
		('te-2027', '`+f.rest.ID+`', '`+f.staff.ID+`', '2027-11-22T08:00:00.000Z', '2027-11-22T09:00:00.000Z', '2027-11-22T09:00:00.000Z', '2027-11-22T09:00:00.000Z'),
		('te-2029', '`+f.rest.ID+`', '`+f.staff.ID+`', '2029-11-22T08:00:00.000Z', '2029-11-22T09:00:00.000Z', '2029-11-22T09:00:00.000Z', '2029-11-22T09:00:00.000Z')`)
	job := f.job()
	run := func(want int64) {
		t.Helper()
		rep, err := job.Run(ctx)
		if err != nil || rep.TimeEntries != want {
			t.Fatalf("at %s: %+v, %v; want %d time entries pruned", f.clock.Now(), rep.RetentionCounts, err, want)
		}
	}
	held := func() *store.RetentionHold {
		t.Helper()
		h, err := f.st.RetentionHeld(ctx, f.rest.ID)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	f.clock.Set(local(2034, time.January, 2, 10, 0)) // 2026 goes, the box is in use
	f.touch(t)
	run(1)
	if h := held(); h != nil {
		t.Fatalf("a trusted run left a hold: %+v", h)
	}

	f.clock.Set(local(2037, time.March, 1, 10, 0)) // switched off three years, the clock is right
	f.touch(t)
	run(0)
	h := held()
	if h == nil || h.Reason != store.HoldCutoffJump || h.DeleteBefore != "2030-01-01" || h.LastDeleteBefore != "2027-01-01" {
		t.Fatalf("the hold: %+v", h)
	}
	since := h.Since

	_, err := f.st.ConfirmRetentionClock(ctx, f.rest.ID, f.admin.ID, "2031-01-01")
	var se *store.Error
	if !errors.As(err, &se) || se.Code != store.EConflict {
		t.Fatalf("a confirmation of another date: %v, want conflict", err)
	}
	if n := f.count(t, `SELECT count(*) FROM retention_confirmations`); n != 0 {
		t.Fatalf("the refused confirmation left %d rows", n)
	}

	f.clock.Set(local(2037, time.March, 1, 11, 0))
	run(0) // still held, and since when stays
	if h := held(); h == nil || !h.Since.Equal(since) || !h.CheckedAt.After(since) {
		t.Fatalf("the renewed hold: %+v (since %s)", h, since)
	}

	c, err := f.st.ConfirmRetentionClock(ctx, f.rest.ID, f.admin.ID, "2030-01-01")
	if err != nil || c.Reason != store.HoldCutoffJump {
		t.Fatalf("confirm: %+v, %v", c, err)
	}
	run(2) // 2027 and 2029
	if h := held(); h != nil {
		t.Fatalf("the hold stayed after the confirmed run: %+v", h)
	}
	if _, err := f.st.ConfirmRetentionClock(ctx, f.rest.ID, f.admin.ID, "2030-01-01"); err == nil {
		t.Fatal("a confirmation with nothing held was taken")
	}
	list, err := f.st.RetentionConfirmations(ctx, f.rest.ID)
	if err != nil || len(list) != 1 || list[0].ConfirmedByName != "Anna Admin" || list[0].DeleteBefore != "2030-01-01" {
		t.Fatalf("the audit record: %+v, %v", list, err)
	}
}

// A confirmation covers the date the admin saw, not a later jump: the
// clock then runs years ahead of every record again, and the job holds.
func TestAConfirmationDoesNotCoverALaterJump(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.November, 22, 10, 0))
	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
		VALUES ('te-2026', '`+f.rest.ID+`', '`+f.staff.ID+`', '2026-11-22T08:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z'),
		('te-2028', '`+f.rest.ID+`', '`+f.staff.ID+`', '2028-11-22T08:00:00.000Z', '2028-11-22T09:00:00.000Z', '2028-11-22T09:00:00.000Z', '2028-11-22T09:00:00.000Z')`)
	f.touch(t)
	job := f.job()

	f.clock.Set(local(2034, time.February, 1, 10, 0)) // closed for the winter: nothing written since November
	if rep, err := job.Run(ctx); err != nil || rep.TimeEntries != 0 {
		t.Fatalf("%+v, %v", rep, err)
	}
	h, err := f.st.RetentionHeld(ctx, f.rest.ID)
	if err != nil || h == nil || h.Reason != store.HoldClockAhead || h.NewestRecord == nil || h.DeleteBefore != "2027-01-01" {
		t.Fatalf("the hold: %+v, %v", h, err)
	}
	if _, err := f.st.ConfirmRetentionClock(ctx, f.rest.ID, f.admin.ID, h.DeleteBefore); err != nil {
		t.Fatal(err)
	}
	if rep, err := job.Run(ctx); err != nil || rep.TimeEntries != 1 {
		t.Fatalf("after the confirmation: %+v, %v", rep.RetentionCounts, err)
	}

	f.clock.Set(local(2040, time.June, 1, 10, 0)) // the clock jumps; nothing was written
	if rep, err := job.Run(ctx); err != nil || rep.TimeEntries != 0 {
		t.Fatalf("after the jump: %+v, %v", rep.RetentionCounts, err)
	}
	if h, _ := f.st.RetentionHeld(ctx, f.rest.ID); h == nil || h.DeleteBefore != "2033-01-01" {
		t.Fatalf("the hold after the jump: %+v", h)
	}
}
