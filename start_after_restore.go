package main

import (
	"context"
	"log/slog"
	"sync"

	"posbox/fiscal/afterrestore"
	"posbox/store"
	"posbox/tse"
)

// startAfterRestore turns the marker posbox restore --from left into a
// pending comparison with the TSE (before the tills can sell) and runs it
// on workCtx, retrying until the TSE answers; a comparison still pending
// from an earlier start runs again. A marker that cannot be read stops no
// sale: the error is logged and the next start tries again.
func startAfterRestore(workCtx context.Context, workers *sync.WaitGroup, st *store.Store, p tse.Provider, restaurantID string, cfg Config, log *slog.Logger) {
	c := afterrestore.New(p, st, restaurantID, log)
	if _, err := c.Begin(workCtx, cfg.DataDir); err != nil {
		log.Error("after restore: the comparison with the TSE cannot start", "err", err)
	}
	workers.Add(1)
	go func() {
		defer workers.Done()
		c.Run(workCtx)
	}()
}
