package retention

import (
	"context"
	"log/slog"
	"time"

	"posbox/internal/diskfree"
	"posbox/store"
)

// Options configure the job; periods are whole days (the config keys).
type Options struct {
	NotificationDays int // final deliveries and the log
	EventDays        int // events none of whose deliveries is left
	Logger           *slog.Logger
	// Replicated: the database is replicated (replica_url), so the job
	// never rewrites it whole on its own (a VACUUM would send the file to
	// the replica at once, past its backlog limit when large).
	Replicated bool
}

// Job is the retention job of one box.
type Job struct {
	st  *store.Store
	opt Options
	// free measures the free space for the conversion; tests replace it.
	free func(dir string) (int64, error)
	// step runs one incremental_vacuum; tests watch it.
	step func(ctx context.Context, pages int) error
}

// New builds the job; zero periods take the defaults.
func New(st *store.Store, opt Options) *Job {
	if opt.NotificationDays == 0 {
		opt.NotificationDays = DefaultNotificationDays
	}
	if opt.EventDays == 0 {
		opt.EventDays = DefaultEventDays
	}
	// A period past MaxDays is refused at start (CheckDays); clamp it
	// anyway, so no caller can make a cutoff in the future.
	opt.NotificationDays = min(opt.NotificationDays, MaxDays)
	opt.EventDays = min(opt.EventDays, MaxDays)
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	return &Job{st: st, opt: opt, free: diskfree.Available, step: st.IncrementalVacuum}
}

// Report is what one run did: counts only, never whose rows.
type Report struct {
	store.RetentionCounts
	FreedPages int64 // pages incremental_vacuum gave back
	Converted  bool  // the file was switched to incremental auto-vacuum
}

// Run prunes every restaurant's expired rows, then gives the space back.
// Running it again at once removes nothing.
func (j *Job) Run(ctx context.Context) (Report, error) {
	var r Report
	rests, err := j.st.Restaurants(ctx)
	if err != nil {
		return r, err
	}
	now := j.st.Now()
	var loc *time.Location
	ids := make([]string, 0, len(rests))
	for _, rest := range rests {
		loc = rest.Location()
		ids = append(ids, rest.ID)
		c := j.Cutoffs(rest.ID, now, loc)
		ok, err := j.timeRecordsTrusted(ctx, rest.ID, now, c, loc)
		if err != nil {
			return r, err
		}
		if !ok {
			c.TimeRecords, c.TimeRecordsDate = time.Time{}, ""
		}
		n, err := j.st.PruneRetention(ctx, c)
		r.add(n)
		if err != nil {
			return r, err
		}
	}
	if loc == nil {
		return r, nil
	}
	r.FreedPages, r.Converted, err = j.vacuum(ctx, now, loc, ids)
	return r, err
}

// Cutoffs are the instants before which rows of restaurantID go at now.
func (j *Job) Cutoffs(restaurantID string, now time.Time, loc *time.Location) store.RetentionCutoffs {
	tr := yearsCutoff(now, loc, TimeRecordsYears)
	return store.RetentionCutoffs{RestaurantID: restaurantID,
		TimeRecords: tr, TimeRecordsDate: tr.Format(time.DateOnly),
		Notifications: daysBefore(now, j.opt.NotificationDays),
		Events:        daysBefore(now, j.opt.EventDays),
	}
}

func (r *Report) add(n store.RetentionCounts) {
	c := &r.RetentionCounts
	c.TimeEntries += n.TimeEntries
	c.Corrections += n.Corrections
	c.Shifts += n.Shifts
	c.Deliveries += n.Deliveries
	c.NotificationLogs += n.NotificationLogs
	c.Events += n.Events
	c.Pseudonymised += n.Pseudonymised
}

// LogAttrs are the report's counts for the log.
func (r Report) LogAttrs() []any {
	c := r.RetentionCounts
	return []any{"time_entries", c.TimeEntries, "corrections", c.Corrections, "shifts", c.Shifts,
		"deliveries", c.Deliveries, "notification_logs", c.NotificationLogs, "events", c.Events,
		"pseudonymised_users", c.Pseudonymised, "freed_pages", r.FreedPages, "converted", r.Converted}
}
