package main

import (
	"context"
	"log/slog"

	"github.com/robfig/cron/v3"

	"posbox/retention"
	"posbox/store"
)

// retentionSpec runs the retention job hourly: a box switched off every
// night would miss a daily slot, and a run with nothing to remove is a
// few indexed look-ups. The job decides itself when the once-only switch
// to incremental vacuum may run (restaurant-local night).
const retentionSpec = "CRON_TZ=UTC 41 * * * *"

// startHousekeeping registers the jobs that keep the database to what the
// law and the API need: the hourly purge of Idempotency-Keys and the
// retention job.
func startHousekeeping(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) error {
	if _, err := startIdempotencyPurge(ctx, sched, st, log); err != nil {
		return err
	}
	_, err := startRetention(ctx, sched, st, cfg, log)
	return err
}

// checkRetention validates the short retention periods at start.
func (c *Config) checkRetention() error {
	if err := retention.CheckDays("notification_keep_days", c.NotificationKeepDays); err != nil {
		return err
	}
	return retention.CheckDays("event_keep_days", c.EventKeepDays)
}

// startRetention registers the retention job; it logs what it removed,
// as counts only.
func startRetention(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) (cron.EntryID, error) {
	log = log.With("area", "retention")
	job := retention.New(st, retention.Options{NotificationDays: cfg.NotificationKeepDays, EventDays: cfg.EventKeepDays,
		Replicated: cfg.ReplicaURL != "", Logger: log})
	return sched.AddFunc(retentionSpec, func() {
		r, err := job.Run(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("retention run failed", append([]any{"err", err}, r.LogAttrs()...)...)
		case r.Total() > 0 || r.FreedPages > 0 || r.Converted:
			log.Info("retention: removed what its period no longer keeps", r.LogAttrs()...)
		}
	})
}
