package replica

import (
	"context"
	"errors"
	"testing"
	"time"
)

// stallClock drives a StallWatcher with a status and a clock the test
// sets: an hour passes without a sleep.
type stallClock struct {
	now    time.Time
	st     Status
	raised []StallChange
	fail   bool
}

func (c *stallClock) watcher() *StallWatcher {
	return &StallWatcher{After: time.Hour, Status: func() Status { return c.st }, Now: func() time.Time { return c.now },
		Raise: func(_ context.Context, ch StallChange) error {
			if c.fail {
				return errors.New("database is locked")
			}
			c.raised = append(c.raised, ch)
			return nil
		}}
}

func TestStallIsRaisedOnceAndItsEndOnce(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	c := &stallClock{now: t0}
	w := c.watcher()
	w.Check(ctx) // healthy
	c.st = Status{LastError: "replica not answering", ErrorSince: t0, BacklogFiles: 3, BacklogBytes: 12 << 20}
	for _, d := range []time.Duration{time.Minute, 59 * time.Minute} {
		c.now = t0.Add(d)
		w.Check(ctx)
	}
	if len(c.raised) != 0 {
		t.Fatalf("raised before the hour: %+v", c.raised)
	}
	c.fail = true // the event cannot be recorded now: tried again next time
	c.now = t0.Add(time.Hour)
	w.Check(ctx)
	c.fail = false
	for _, d := range []time.Duration{61 * time.Minute, 5 * time.Hour, 72 * time.Hour} {
		c.now = t0.Add(d)
		w.Check(ctx)
	}
	if len(c.raised) != 1 || !c.raised[0].Stalled || !c.raised[0].Since.Equal(t0) || c.raised[0].BacklogBytes != 12<<20 {
		t.Fatalf("want one stall, got %+v", c.raised)
	}
	c.st = Status{ReplicatedAt: t0.Add(73 * time.Hour), BacklogFiles: 2} // uploading, not caught up yet
	w.Check(ctx)
	c.st.BacklogFiles = 0
	w.Check(ctx)
	w.Check(ctx)
	if len(c.raised) != 2 || c.raised[1].Stalled || !c.raised[1].Since.Equal(t0) {
		t.Fatalf("want the stall's end once, got %+v", c.raised)
	}
	// A new stall is a new event.
	c.st = Status{LastError: "list: connection refused", ErrorSince: t0.Add(80 * time.Hour)}
	c.now = t0.Add(81 * time.Hour)
	w.Check(ctx)
	if len(c.raised) != 3 || !c.raised[2].Stalled {
		t.Fatalf("want a second stall, got %+v", c.raised)
	}
}

// A backlog given up is told at once, not after the hour.
func TestBacklogGivenUpIsAStallAtOnce(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	c := &stallClock{now: t0.Add(10 * time.Minute)}
	c.st = Status{LastError: "replica unreachable too long", ErrorSince: t0, BacklogGivenUpAt: t0.Add(9 * time.Minute), BacklogGivenUpBytes: 3 << 30}
	w := c.watcher()
	w.Check(context.Background())
	w.Check(context.Background())
	if len(c.raised) != 1 || !c.raised[0].BacklogGivenUp || c.raised[0].DiskNearlyFull {
		t.Fatalf("want one stall naming the backlog given up, got %+v", c.raised)
	}
}

// TestDiskNearlyFullIsToldApart: by the status's reason, not the error
// text (a later failure to reach the replica replaces that).
func TestDiskNearlyFullIsToldApart(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	c := &stallClock{now: t0}
	c.st = Status{LastError: "list: open /mnt/nas/posbox/ltx/0: no such file or directory", ErrorSince: t0,
		BacklogGivenUpAt: t0, BacklogGivenUpReason: GivenUpDiskFull}
	c.watcher().Check(context.Background())
	if len(c.raised) != 1 || !c.raised[0].DiskNearlyFull {
		t.Fatalf("want one stall naming the full disk, got %+v", c.raised)
	}
}

// TestFilesFailingIsAStall: the database goes up, but the data dir's
// files (archive, keys) have failed for the stall's hour: raised once,
// said to be the files, and its end once they go up again.
func TestFilesFailingIsAStall(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	c := &stallClock{now: t0.Add(59 * time.Minute)}
	c.st = Status{ReplicatedAt: t0.Add(59 * time.Minute), FilesError: "put blob: permission denied", FilesErrorSince: t0}
	w := c.watcher()
	w.Check(context.Background())
	if len(c.raised) != 0 {
		t.Fatalf("raised before the hour: %+v", c.raised)
	}
	c.now = t0.Add(61 * time.Minute)
	w.Check(context.Background())
	w.Check(context.Background())
	if len(c.raised) != 1 || !c.raised[0].Stalled || !c.raised[0].FilesFailing || !c.raised[0].Since.Equal(t0) {
		t.Fatalf("want one stall naming the files, got %+v", c.raised)
	}
	c.st.FilesError, c.st.FilesErrorSince = "", time.Time{}
	w.Check(context.Background())
	if len(c.raised) != 2 || c.raised[1].Stalled {
		t.Fatalf("want the end of the stall once, got %+v", c.raised)
	}
}
