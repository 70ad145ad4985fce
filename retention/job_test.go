package retention

import (
	"context"
	"fmt"
	"testing"
	"time"

	"posbox/store"
)

// seedKept and seedGone put rows around every cutoff of a run on
// 15 January 2034, 10:00 Berlin: time records of 2026 go (their seven
// years ended with 2033), those of 2027 stay (a night shift into 2027
// too), by the restaurant's calendar, not
// UTC's; notifications go after 90 days, events after 30 once no delivery
// of theirs is left.
func seedAroundCutoffs(t *testing.T, f *fixture, now time.Time) {
	t.Helper()
	r, u, a := f.rest.ID, f.staff.ID, f.admin.ID
	entry := func(id string, in time.Time) string {
		return fmt.Sprintf(`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
			VALUES ('%s', '%s', '%s', '%s', '%s', '%s', '%s')`, id, r, u, ts(in), ts(in.Add(time.Hour)), ts(in), ts(in))
	}
	correction := func(entryID string, at time.Time) string {
		return fmt.Sprintf(`INSERT INTO time_entry_corrections (id, restaurant_id, time_entry_id, action, by_user_id, at, reason,
			after_clock_in, after_break_minutes) VALUES ('%s', '%s', '%s', 'correct', '%s', '%s', 'vergessen', '%s', 0)`,
			store.NewID(), r, entryID, a, ts(at), ts(at))
	}
	shift := func(id, date string) string {
		return fmt.Sprintf(`INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at, created_at, updated_at)
			VALUES ('%s', '%s', '%s', '%s', '10:00', '14:00', '%sT09:00:00.000Z', '%sT13:00:00.000Z', '%s', '%s')`, id, r, u, date, date, date, ts(now), ts(now))
	}
	event := func(id string, at time.Time) string {
		return fmt.Sprintf(`INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES ('%s', '%s', 'clock_in', '{}', '%s')`, id, r, ts(at))
	}
	delivery := func(id, eventID, status string, updated time.Time) string {
		return fmt.Sprintf(`INSERT INTO notification_deliveries (id, restaurant_id, event_id, setting_id, webhook_id, status, next_attempt_at, created_at, updated_at)
			VALUES ('%s', '%s', '%s', 'rule', 'msg_%s', '%s', '%s', '%s', '%s')`, id, r, eventID, id, status, ts(updated), ts(updated), ts(updated))
	}
	logEntry := func(id string, at time.Time) string {
		return fmt.Sprintf(`INSERT INTO notification_logs (id, restaurant_id, channel, event_type, destination, status, error, attempt, sent_at)
			VALUES ('%s', '%s', 'email', 'clock_in', 'chefin@linde.test', 'failed', 'SMTP 550', 1, '%s')`, id, r, ts(at))
	}
	day := 24 * time.Hour
	f.exec(t,
		entry("te-gone", local(2026, time.December, 31, 22, 0)),          // 2026 in Berlin (21:00Z)
		entry("te-kept-local-2027", local(2027, time.January, 1, 0, 30)), // 2026 in UTC, 2027 in Berlin: stays
		entry("te-corrected-2027", local(2026, time.December, 30, 18, 0)),
		fmt.Sprintf(`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
			VALUES ('te-night-into-2027', '%s', '%s', '%s', '%s', '%s', '%s')`, r, u, ts(local(2026, time.December, 31, 22, 0)),
			ts(local(2027, time.January, 1, 6, 0)), ts(now), ts(now)),
		fmt.Sprintf(`INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time, starts_at, ends_at, created_at, updated_at)
			VALUES ('sh-night-into-2027', '%s', '%s', '2026-12-31', '22:00', '06:00', '%s', '%s', '%s', '%s')`, r, u,
			ts(local(2026, time.December, 31, 22, 0)), ts(local(2027, time.January, 1, 6, 0)), ts(now), ts(now)),
		correction("te-gone", local(2026, time.December, 31, 23, 30)),
		correction("te-corrected-2027", local(2027, time.January, 4, 9, 0)),      // keeps its 2026 entry a year longer
		correction("te-night-into-2027", local(2026, time.December, 31, 23, 30)), // of 2026, but its entry is 2027's
		shift("sh-gone", "2026-12-31"), shift("sh-kept", "2027-01-01"),
		event("ev-delivered-old", now.Add(-100*day)), delivery("de-gone", "ev-delivered-old", "delivered", now.Add(-100*day)),
		event("ev-failed-recent", now.Add(-100*day)), delivery("de-kept-recent", "ev-failed-recent", "failed", now.Add(-10*day)),
		event("ev-pending", now.Add(-200*day)), delivery("de-kept-pending", "ev-pending", "pending", now.Add(-200*day)),
		event("ev-no-rule-old", now.Add(-40*day)), event("ev-kept-recent", now.Add(-10*day)), event("ev-now", now),
		logEntry("lg-gone", now.Add(-91*day)), logEntry("lg-kept", now.Add(-89*day)),
		`INSERT INTO idempotency_keys (restaurant_id, scope, key, request_hash, resource_id, created_at)
			VALUES ('`+r+`', 'tse_sale', 'k1', 'h', 'x', '`+ts(now.Add(-400*day))+`')`,
	)
}

// ids lists the ids of a table, sorted.
func (f *fixture) ids(t *testing.T, table string) []string {
	t.Helper()
	ids, err := queryStrings(f.st.ReadDB(), `SELECT id FROM `+table+` ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// What should go goes, what should stay stays, and a second run changes
// nothing.
func TestRetentionRemovesWhatItsPeriodEndedAndKeepsTheRest(t *testing.T) {
	ctx := context.Background()
	now := local(2034, time.January, 15, 10, 0)
	f := newFixture(t, now)
	seedAroundCutoffs(t, f, now)

	rep, err := f.job().Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := store.RetentionCounts{TimeEntries: 1, Corrections: 1, Shifts: 1, Deliveries: 1, NotificationLogs: 1, Events: 2}
	if rep.RetentionCounts != want {
		t.Errorf("counts = %+v, want %+v", rep.RetentionCounts, want)
	}
	for table, kept := range map[string]string{
		"time_entries":            "[te-corrected-2027 te-kept-local-2027 te-night-into-2027]",
		"shifts":                  "[sh-kept sh-night-into-2027]",
		"notification_deliveries": "[de-kept-pending de-kept-recent]",
		"notification_logs":       "[lg-kept]",
		"events":                  "[ev-failed-recent ev-kept-recent ev-now ev-pending]",
	} {
		if got := fmt.Sprint(f.ids(t, table)); got != kept {
			t.Errorf("%s kept %s, want %s", table, got, kept)
		}
	}
	if n := f.count(t, `SELECT count(*) FROM time_entry_corrections`); n != 2 {
		t.Errorf("%d corrections left, want the one of 2027 and the one of the night into 2027", n)
	}
	// Idempotency keys are the hourly purge's (start_idempotency.go).
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys`); n != 1 {
		t.Errorf("the retention job touched idempotency keys")
	}

	// Append-only outside the job: the trigger still refuses a correction
	// of 2027.
	err = f.st.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM time_entry_corrections`)
		return err
	})
	if err == nil {
		t.Error("a correction after the cutoff could be deleted")
	}
	// Nor one before the cutoff whose entry is kept.
	err = f.st.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM time_entry_corrections WHERE time_entry_id = 'te-night-into-2027'`)
		return err
	})
	if err == nil {
		t.Error("the correction of a kept entry could be deleted")
	}

	sums := f.tableSums(t)
	rep, err = f.job().Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total() != 0 || rep.FreedPages != 0 {
		t.Errorf("the second run did something: %+v", rep)
	}
	for name, sum := range f.tableSums(t) {
		if sums[name] != sum {
			t.Errorf("the second run changed %s: %s, then %s", name, sums[name], sum)
		}
	}
}
