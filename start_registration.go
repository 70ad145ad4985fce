package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/robfig/cron/v3"

	"posbox/fiscal/registration"
	"posbox/store"
)

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
