package main

import (
	"context"
	"log/slog"

	"github.com/robfig/cron/v3"

	"posbox/store"
)

// idempotencyPurgeSpec runs the purge of expired Idempotency-Keys hourly:
// an appliance switched off every night would miss a daily slot, and the
// indexed DELETE of an hour's expired keys costs next to nothing.
const idempotencyPurgeSpec = "CRON_TZ=UTC 17 * * * *"

// startIdempotencyPurge registers the purge of Idempotency-Keys older than
// store.IdempotencyRetention (both POSTs that honour the header share them).
func startIdempotencyPurge(ctx context.Context, sched *cron.Cron, st *store.Store, log *slog.Logger) (cron.EntryID, error) {
	return sched.AddFunc(idempotencyPurgeSpec, func() {
		n, err := st.PurgeIdempotencyKeys(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("idempotency key purge failed", "err", err)
		case n > 0:
			log.Debug("idempotency keys purged", "count", n)
		}
	})
}
