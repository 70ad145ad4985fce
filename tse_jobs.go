package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/server"
	"posbox/store"
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

// startTSE opens the configured TSE provider, attaches it to the server,
// starts the forwarding worker on workCtx (waited for via workers) and
// registers the TSE jobs. The provider closes after the worker stopped.
func startTSE(workCtx context.Context, workers *sync.WaitGroup, sched *cron.Cron, st *store.Store, srv *server.Server, cfg Config, log *slog.Logger) error {
	rs, err := st.Restaurants(workCtx)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("tse: no restaurant to serve")
	}
	p, closer, err := openTSEProvider(cfg, log)
	if err != nil {
		return fmt.Errorf("tse: %w", err)
	}
	// One TSS, one restaurant: the oldest. Others get 409
	// tse_not_configured rather than sales signed under its TSS.
	for _, r := range rs[1:] {
		log.Warn("tse: restaurant has no TSE; its sales are refused (409 tse_not_configured)",
			"restaurant_id", r.ID, "name", r.Name, "tse_restaurant_id", rs[0].ID)
	}
	srv.EnableTSE(p, server.TSEOptions{RestaurantID: rs[0].ID, Budget: cfg.TSEBudget})
	workers.Add(1)
	go func() {
		defer workers.Done()
		srv.RunTSE(workCtx)
		if closer != nil {
			if err := closer.Close(); err != nil {
				log.Error("close TSE provider", "err", err)
			}
		}
	}()
	if _, err := registerTSEJobs(workCtx, sched, srv, log); err != nil {
		return err
	}
	// Catch up at start: stale transactions and the mirror.
	workers.Add(1)
	go func() {
		defer workers.Done()
		ctx, cancel := context.WithTimeout(workCtx, time.Minute)
		defer cancel()
		if err := srv.TSEReconcileJob(ctx); err != nil {
			log.Warn("tse: reconcile at start", "err", err)
		}
	}()
	return nil
}

// registerTSEJobs adds the self-test, certificate check and reconciler
// to the scheduler; the ids let a test read each entry's next run.
func registerTSEJobs(ctx context.Context, sched *cron.Cron, srv *server.Server, log *slog.Logger) (map[string]cron.EntryID, error) {
	jobs := []struct {
		name, spec string
		run        func(context.Context) error
	}{
		{"tse self-test", tseSelfTestSpec, srv.TSESelfTestJob},
		{"tse certificate check", tseCertificateSpec, srv.TSECertificateJob},
		{"tse reconcile", tseReconcileSpec, srv.TSEReconcileJob},
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
