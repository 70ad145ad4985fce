package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/robfig/cron/v3"

	"posbox/fiscal/registration"
	"posbox/store"
)

// startFiscalJobs schedules the fiscal jobs that need no worker of
// their own: the daily closing and the registration's TSS watch.
func startFiscalJobs(ctx context.Context, workers *sync.WaitGroup, sched *cron.Cron, st *store.Store, tss registration.TSS, cfg Config,
	log *slog.Logger) error {
	if err := startClosings(ctx, sched, st, cfg, log); err != nil {
		return err
	}
	return startRegistrationWatch(ctx, workers, sched, st, tss, log)
}

// startRegistrationWatch notes the certified TSS the box signs with, at
// start and every five minutes, so a TSS put into service by anything
// (setup, a replacement) raises registration_due once (docs/FISCAL.md,
// "When a registration is due"). The registers' changes are noticed when
// their master data is saved.
func startRegistrationWatch(ctx context.Context, workers *sync.WaitGroup, sched *cron.Cron, st *store.Store, tss registration.TSS,
	log *slog.Logger) error {
	w := registration.TSEWatch{Store: st, TSS: tss}
	run := func() {
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			log.Error("registration: noting the TSS", "err", err)
		}
	}
	workers.Add(1)
	go func() {
		defer workers.Done()
		run()
	}()
	_, err := sched.AddFunc("*/5 * * * *", run)
	return err
}
