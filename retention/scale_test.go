package retention

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"posbox/store"
)

// At scale (only with RETENTION_MEASURE=1: it takes a minute or more):
// 100,000 events with a delivery and a log entry each and 25,000 time
// entries, all past their periods, go in one run and the file gives its
// space back; the second run finds nothing. It logs how long the runs
// took (docs/RETENTION.md quotes it); it asserts no time.
func TestRetentionAtScale(t *testing.T) {
	if os.Getenv("RETENTION_MEASURE") == "" {
		t.Skip("set RETENTION_MEASURE=1 to run")
	}
	ctx := context.Background()
	now := local(2034, time.March, 1, 14, 0)
	f := newFixture(t, now)
	old := ts(now.Add(-200 * 24 * time.Hour))
	n := 100000
	for i := 0; i < n; i += 2000 {
		err := f.st.Write(ctx, func(tx *store.Tx) error {
			for j := i; j < i+2000; j++ {
				ev := fmt.Sprintf("ev%07d", j)
				if _, err := tx.ExecContext(ctx, `INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES (?, ?, 'payment_received', '{"order":"1042","amount":"45.80","table":4}', ?)`, ev, f.rest.ID, old); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO notification_deliveries (id, restaurant_id, event_id, setting_id, webhook_id, status, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 'rule', ?, 'delivered', ?, ?, ?)`, "de"+ev, f.rest.ID, ev, "msg_"+ev, old, old, old); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO notification_logs (id, restaurant_id, delivery_id, channel, event_type, destination, status, message, attempt, sent_at) VALUES (?, ?, ?, 'webhook', 'payment_received', 'http://192.168.1.50:8123/api/webhook/pos', 'delivered', 'Zahlung erhalten: 45,80 €', 1, ?)`, "lg"+ev, f.rest.ID, "de"+ev, old); err != nil {
					return err
				}
				in := now.AddDate(-8, 0, 0).Add(time.Duration(j) * time.Minute)
				if j%4 == 0 {
					if _, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, "te"+ev, f.rest.ID, f.staff.ID, ts(in), ts(in.Add(time.Minute/2)), ts(in), ts(in)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	f.touch(t) // the box is in use: its clock is trusted
	before, _ := f.st.FileSpace(ctx)
	start := time.Now()
	rep, err := f.job().Run(ctx)
	el := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := f.st.FileSpace(ctx)
	start2 := time.Now()
	rep2, _ := f.job().Run(ctx)
	el2 := time.Since(start2)
	want := store.RetentionCounts{TimeEntries: 25000, Deliveries: 100000, NotificationLogs: 100000, Events: 100000}
	if rep.RetentionCounts != want || rep2.Total() != 0 || after.PageCount*50 > before.PageCount || after.FreelistCount != 0 {
		t.Errorf("first run %+v, second %+v, pages %d -> %d (free %d)", rep, rep2, before.PageCount, after.PageCount, after.FreelistCount)
	}
	t.Logf("first run %v: %+v; file %.1f MiB -> %.1f MiB (pages %d -> %d, free after %d); second run %v: %+v",
		el, rep, float64(before.Bytes())/(1<<20), float64(after.Bytes())/(1<<20), before.PageCount, after.PageCount, after.FreelistCount, el2, rep2)
}
