package store

import (
	"context"
	"errors"
	"testing"
)

// The writer's copy of the notification rules follows every change: a
// clock event gets one delivery per rule enabled at its commit, whether
// the rule was added, disabled, enabled again or deleted just before (in
// another batch or earlier in the same operation), and a rule whose
// operation failed never gets one.
func TestEventsFollowRuleChanges(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Rules")
	u := mustUser(t, st, r, "Staff", RoleStaff)
	pairs := 0
	pair := func(want int) {
		t.Helper()
		before := len(deliveriesOf(t, st, r.ID, ""))
		if _, err := st.ClockIn(ctx, r, u); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
			t.Fatal(err)
		}
		pairs++
		if got := len(deliveriesOf(t, st, r.ID, "")) - before; got != want {
			t.Fatalf("pair %d: %d deliveries, want %d", pairs, got, want)
		}
	}
	pair(0) // the copy now knows: no rules
	in := mustRule(t, st, r, EventClockIn, true)
	mustRule(t, st, r, EventClockOut, true)
	deliveriesNow := len(deliveriesOf(t, st, r.ID, ""))
	if _, err := st.ClockIn(ctx, r, u); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
		t.Fatal(err)
	}
	if got := len(deliveriesOf(t, st, r.ID, "")) - deliveriesNow; got != 2 {
		t.Fatalf("after adding a rule per type: %d deliveries, want 2", got)
	}
	if _, err := st.UpdateNotificationSetting(ctx, r.ID, in.ID, NotificationSettingUpdate{IsEnabled: Of(false)}); err != nil {
		t.Fatal(err)
	}
	before := len(deliveriesOf(t, st, r.ID, ""))
	if _, err := st.ClockIn(ctx, r, u); err != nil {
		t.Fatal(err)
	}
	if got := len(deliveriesOf(t, st, r.ID, "")) - before; got != 0 {
		t.Fatalf("clock-in after its rule was disabled: %d deliveries, want 0", got)
	}
	if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
		t.Fatal(err)
	}

	// An operation that adds a rule, raises an event (which reads the
	// rules with the new one) and then fails: the rule is gone, and the
	// next event must not be delivered to it.
	boom := errors.New("boom")
	err := st.Write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO notification_settings (id, restaurant_id, channel, event_type, destination, is_enabled,
			secret, created_at, updated_at) VALUES (?, ?, 'webhook', ?, 'https://hooks.example.test/x', 1, 'whsec_x', ?, ?)`,
			NewID(), r.ID, EventClockIn, FormatTime(tx.Now), FormatTime(tx.Now)); err != nil {
			return err
		}
		if _, err := InsertEvent(ctx, tx, r.ID, EventClockIn, map[string]string{"probe": "x"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("write: %v, want boom", err)
	}
	before = len(deliveriesOf(t, st, r.ID, ""))
	if _, err := st.ClockIn(ctx, r, u); err != nil {
		t.Fatal(err)
	}
	if got := len(deliveriesOf(t, st, r.ID, "")) - before; got != 0 {
		t.Fatalf("clock-in after a failed operation added a rule: %d deliveries, want 0", got)
	}
	if _, err := st.ClockOut(ctx, r, u, 0); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteNotificationSetting(ctx, r.ID, in.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateNotificationSetting(ctx, r.ID, in.ID, NotificationSettingUpdate{IsEnabled: Of(true)}); err == nil {
		t.Fatal("the deleted rule was updated")
	}
	pair(1) // only the clock-out's rule is left: one delivery per pair
}
