package retention

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// A clock that jumps years ahead (a Pi without a real-time clock, a bad
// time server) must not delete time records: the job waits while the
// clock runs far ahead of the newest record, and while the cutoff would
// move more than a year past the last run's, logs why (no name, no id),
// and prunes once the clock is plausible again.
func TestTimeRecordsWaitWhenTheClockJumps(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.November, 22, 10, 0))
	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
		VALUES ('te-2026', '`+f.rest.ID+`', '`+f.staff.ID+`', '2026-11-22T08:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z'),
		('te-2027', '`+f.rest.ID+`', '`+f.staff.ID+`', '2027-11-22T08:00:00.000Z', '2027-11-22T09:00:00.000Z', '2027-11-22T09:00:00.000Z', '2027-11-22T09:00:00.000Z')`)
	f.touch(t)
	var out bytes.Buffer
	job := New(f.st, Options{Logger: slog.New(slog.NewTextHandler(&out, nil))})
	run := func(want int64) {
		t.Helper()
		rep, err := job.Run(ctx)
		if err != nil || rep.TimeEntries != want {
			t.Fatalf("at %s: %+v, %v; want %d time entries pruned", f.clock.Now(), rep.RetentionCounts, err, want)
		}
	}

	f.clock.Set(local(2040, time.June, 1, 10, 0)) // the clock jumped, nothing was written since
	run(0)
	if s := out.String(); !strings.Contains(s, "clock is far ahead") || strings.Contains(s, f.staff.ID) || strings.Contains(s, "Kim") {
		t.Errorf("the log: %s", s)
	}

	f.clock.Set(local(2034, time.January, 2, 10, 0)) // a plausible year: 2026 goes
	f.touch(t)
	run(1)

	out.Reset()
	f.clock.Set(local(2040, time.June, 1, 10, 0)) // jumped again, and the tills wrote at the wrong time
	f.touch(t)
	run(0)
	if !strings.Contains(out.String(), "more than a year") {
		t.Errorf("the log: %s", out.String())
	}
	if n := f.count(t, `SELECT count(*) FROM kv WHERE value > '2027-02'`); n != 0 {
		t.Errorf("the cutoff moved on with the jumped clock")
	}

	f.clock.Set(local(2035, time.January, 2, 10, 0)) // a year on: 2027 goes
	f.touch(t)
	run(1)
}
