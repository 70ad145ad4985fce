package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/tse"
)

// TSE job schedules. The self-test time is the seed's (02:00 UTC); the
// certificate check follows it; the reconciler runs every 5 minutes with
// at most 10 list calls a run (fiskaly allows 20 a minute). CRON_TZ pins
// each schedule to UTC by itself, not only through the scheduler's clock.
const (
	tseSelfTestSpec    = "CRON_TZ=UTC 0 2 * * *"
	tseCertificateSpec = "CRON_TZ=UTC 30 2 * * *"
	tseReconcileSpec   = "CRON_TZ=UTC */5 * * * *"
)

// openTSE opens the configured TSE provider and the forwarding queue of
// its TSS, bound to the oldest restaurant, and the provider itself (the
// archive exports through it). closeTSE releases the provider.
func openTSE(ctx context.Context, st *store.Store, cfg Config, log *slog.Logger) (tq *queue.Queue, p tse.Provider, closeTSE func(), err error) {
	rs, err := st.Restaurants(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(rs) == 0 {
		return nil, nil, nil, fmt.Errorf("tse: no restaurant to serve")
	}
	p, closer, err := openTSEProvider(cfg, log)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("tse: %w", err)
	}
	closeTSE = func() {
		if closer == nil {
			return
		}
		if err := closer.Close(); err != nil {
			log.Error("close TSE provider", "err", err)
		}
	}
	// One TSS, one restaurant: the oldest. Others get 409
	// tse_not_configured rather than sales signed under its TSS.
	for _, r := range rs[1:] {
		log.Warn("tse: restaurant has no TSE; its sales are refused (409 tse_not_configured)",
			"restaurant_id", r.ID, "name", r.Name, "tse_restaurant_id", rs[0].ID)
	}
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tq, err = queue.New(rctx, p, st, queue.Options{RestaurantID: rs[0].ID, Budget: cfg.TSEBudget, Logger: log})
	if err != nil {
		closeTSE()
		return nil, nil, nil, err
	}
	return tq, p, closeTSE, nil
}

// startTSE starts the forwarding worker on workCtx (waited for via
// workers) and registers the TSE jobs. The provider closes after the
// worker stopped.
func startTSE(workCtx context.Context, workers *sync.WaitGroup, sched *cron.Cron, tq *queue.Queue, closeTSE func(), log *slog.Logger) error {
	workers.Add(1)
	go func() {
		defer workers.Done()
		tq.Run(workCtx)
		closeTSE()
	}()
	if _, err := registerTSEJobs(workCtx, sched, tq, log); err != nil {
		return err
	}
	// Catch up at start: stale transactions and the mirror.
	workers.Add(1)
	go func() {
		defer workers.Done()
		ctx, cancel := context.WithTimeout(workCtx, time.Minute)
		defer cancel()
		if err := tq.ReconcileJob(ctx); err != nil {
			log.Warn("tse: reconcile at start", "err", err)
		}
	}()
	return nil
}

// registerTSEJobs adds the self-test, certificate check and reconciler
// to the scheduler; the ids let a test read each entry's next run.
func registerTSEJobs(ctx context.Context, sched *cron.Cron, tq *queue.Queue, log *slog.Logger) (map[string]cron.EntryID, error) {
	jobs := []struct {
		name, spec string
		run        func(context.Context) error
	}{
		{"tse self-test", tseSelfTestSpec, tq.SelfTestJob},
		{"tse certificate check", tseCertificateSpec, tq.CertificateJob},
		{"tse reconcile", tseReconcileSpec, tq.ReconcileJob},
	}
	ids := map[string]cron.EntryID{}
	for _, j := range jobs {
		id, err := sched.AddFunc(j.spec, func() {
			if err := j.run(ctx); err != nil && ctx.Err() == nil {
				log.Warn(j.name+" failed", "err", err)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", j.name, err)
		}
		ids[j.name] = id
	}
	return ids, nil
}
