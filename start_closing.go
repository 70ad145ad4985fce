package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/fiscal/closing"
	"posbox/fiscal/dsfinvk"
	"posbox/store"
)

// checkClosing validates closing_time at start.
func (c *Config) checkClosing() error {
	if c.ClosingTime == "" {
		return nil
	}
	if _, err := time.Parse("15:04", c.ClosingTime); err != nil || len(c.ClosingTime) != 5 {
		return fmt.Errorf("closing_time: %q is not HH:MM (or empty: no automatic closing)", c.ClosingTime)
	}
	return nil
}

// startClosings schedules the automatic daily closing (docs/FISCAL.md):
// checked every minute, taken once the restaurant's local time has
// passed closing_time, for the previous day's registers that had sales
// and were not closed by their POS. An empty closing_time turns it off.
func startClosings(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) error {
	if cfg.ClosingTime == "" {
		return nil
	}
	job := &closing.AutoCloser{St: st, At: cfg.ClosingTime, Log: log}
	_, err := sched.AddFunc("* * * * *", func() {
		if err := job.Run(ctx); err != nil && ctx.Err() == nil {
			log.Error("daily closing", "err", err)
		}
	})
	return err
}

// newDSFinVK is the DSFinV-K export the server offers (GET
// /api/fiscal/dsfinvk).
func newDSFinVK(st *store.Store) *dsfinvk.Exporter {
	return &dsfinvk.Exporter{St: st, SoftwareVersion: version}
}
