package replica

import (
	"context"
	"log/slog"
	"time"
)

// DefaultStallAfter is how long uploads may fail before replication
// counts as stalled and the owner is told.
const DefaultStallAfter = time.Hour

// StallChange is a change the owner is told of: replication stalled (no
// upload of the database or of the data dir's files succeeded for a
// while, or a backlog given up), or caught up again after a stall.
type StallChange struct {
	Stalled      bool      // false: recovered
	URL          string    // without a password
	Since        time.Time // the first failure
	ReplicatedAt time.Time // the last upload that succeeded
	LastError    string
	BacklogBytes int64 // waiting on the box
	// BacklogGivenUp: the backlog outgrew its bound and was given up; the
	// replica holds an older state until a complete copy goes up.
	BacklogGivenUp bool
	// DiskNearlyFull: it was given up because the box's disk is nearly
	// full, whatever the replica does.
	DiskNearlyFull bool
	GivenUpReason  string // Status.BacklogGivenUpReason
	// FilesFailing: the database goes up, but the data dir's files (the
	// TSE archive, the keys, the config) have failed to since Since.
	FilesFailing bool
	At           time.Time // when noticed
}

// StallWatcher tells of a stall once per stall, and of its end. It is
// driven by Check (Run calls it on a ticker); its clock is injected so
// that a test needs no hour to pass.
type StallWatcher struct {
	After  time.Duration // DefaultStallAfter when zero
	Status func() Status
	Now    func() time.Time // time.Now when nil
	// Raise records the change (an event); an error leaves the watcher's
	// state alone, so the next Check tries again.
	Raise func(ctx context.Context, c StallChange) error
	Log   *slog.Logger

	stalled bool
	since   time.Time
}

// Run checks every interval until ctx ends.
func (w *StallWatcher) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.Check(ctx)
		}
	}
}

// Check looks at the status once and raises what changed.
func (w *StallWatcher) Check(ctx context.Context) {
	now, after := time.Now, w.After
	if w.Now != nil {
		now = w.Now
	}
	if after <= 0 {
		after = DefaultStallAfter
	}
	s := w.Status()
	c := StallChange{URL: s.URL, Since: s.ErrorSince, ReplicatedAt: s.ReplicatedAt, LastError: s.LastError,
		BacklogBytes: s.BacklogBytes, BacklogGivenUp: !s.BacklogGivenUpAt.IsZero(), At: now(),
		DiskNearlyFull: s.BacklogGivenUpReason == GivenUpDiskFull, GivenUpReason: s.BacklogGivenUpReason}
	if !w.stalled {
		dbStall := s.LastError != "" && !s.ErrorSince.IsZero() && (c.At.Sub(s.ErrorSince) >= after || c.BacklogGivenUp)
		filesStall := s.FilesError != "" && !s.FilesErrorSince.IsZero() && c.At.Sub(s.FilesErrorSince) >= after
		if !dbStall && !filesStall {
			return
		}
		if !dbStall { // the database goes up, the data dir's files do not
			c.FilesFailing, c.Since, c.LastError = true, s.FilesErrorSince, "files: "+s.FilesError
		}
		c.Stalled = true
		if w.raise(ctx, c) {
			w.stalled, w.since = true, c.Since
		}
		return
	}
	if s.LastError != "" || c.BacklogGivenUp || s.BacklogFiles > 0 || s.FilesError != "" {
		return
	}
	c.Since = w.since
	if w.raise(ctx, c) {
		w.stalled = false
	}
}

func (w *StallWatcher) raise(ctx context.Context, c StallChange) bool {
	if err := w.Raise(ctx, c); err != nil {
		if w.Log != nil {
			w.Log.Error("replica: recording the stall event", "stalled", c.Stalled, "err", err)
		}
		return false
	}
	if w.Log != nil && c.Stalled {
		w.Log.Warn("replication stalled: nothing reached the replica for a while", "since", c.Since, "last_error", c.LastError, "backlog_given_up", c.BacklogGivenUp)
	} else if w.Log != nil {
		w.Log.Info("replication caught up after a stall", "since", c.Since)
	}
	return true
}
