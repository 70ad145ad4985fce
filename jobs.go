package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/robfig/cron/v3"
)

// newScheduler is the cron of the appliance's own jobs, in UTC. Recover
// sits inside SkipIfStillRunning: the other order loses the skip token at
// the first panic and the job never runs again (robfig/cron #366).
func newScheduler(log *slog.Logger) *cron.Cron {
	l := cronLogger{log}
	return cron.New(cron.WithLocation(time.UTC), cron.WithChain(cron.SkipIfStillRunning(l), cron.Recover(l)))
}

// stopScheduler stops scheduling and waits, at most until ctx ends, for
// running jobs to return.
func stopScheduler(ctx context.Context, c *cron.Cron) {
	select {
	case <-c.Stop().Done():
	case <-ctx.Done():
	}
}

// cronLogger adapts slog to cron.Logger.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", fmt.Sprint(err))...)
}
