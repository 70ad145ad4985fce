package main

import (
	"log/slog"
	"sync"
	"time"
)

// waitBounded waits for the workers to finish or hand back their item,
// at most d: a stop must end even if a worker is stuck in a call that
// ignores its context. What it held stays queued in the database.
func waitBounded(wg *sync.WaitGroup, d time.Duration, log *slog.Logger) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		log.Warn("background workers did not stop in time; closing anyway", "waited", d)
	}
}
