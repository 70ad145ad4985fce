package main

import (
	"context"
	"log/slog"

	"github.com/robfig/cron/v3"

	"posbox/store"
)

// openEntryCheckSpec checks for entries open past their restaurant's limit
// every five minutes: a forgotten clock-out is flagged (and its event
// raised) within minutes of crossing the limit, and the check is one
// indexed query per restaurant.
const openEntryCheckSpec = "CRON_TZ=UTC */5 * * * *"

// startTimeClock registers the open-entry check (docs/TIMECLOCK.md). The
// flag is stored with the event, so a restart raises nothing twice.
func startTimeClock(ctx context.Context, sched *cron.Cron, st *store.Store, log *slog.Logger) (cron.EntryID, error) {
	return sched.AddFunc(openEntryCheckSpec, func() { checkOpenEntries(ctx, st, log) })
}

func checkOpenEntries(ctx context.Context, st *store.Store, log *slog.Logger) {
	n, err := st.FlagOpenEntries(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Warn("open time entry check failed", "err", err)
	case n > 0:
		log.Info("time entries open too long flagged", "count", n)
	}
}
