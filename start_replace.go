package main

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"

	"posbox/fiscal/archive"
	"posbox/fiscal/replace"
	"posbox/server"
	"posbox/store"
	"posbox/tse"
)

// errRestartForNewTSS ends serve once a replacement has set up the new
// TSS: the service manager starts posbox again (systemd Restart=on-failure,
// the Windows recovery actions), which then signs with the new tse.json
// (docs/TSE.md, "Replacing the TSS").
var errRestartForNewTSS = errors.New("restarting to sign with the new TSS (TSS replacement)")

// openReplacer builds the replacement of the fiskaly TSS p signs with
// and hands it to the server (none with the built-in simulator or
// without an archive). The context it returns ends with
// errRestartForNewTSS once the new TSS is set up: serve then stops
// (stopped).
func openReplacer(ctx context.Context, st *store.Store, p tse.Provider, arc *archive.Archive, restaurantID string, cfg Config,
	scfg *server.Config, log *slog.Logger) (context.Context, *replace.Replacer) {
	f, ok := p.(*tse.Fiskaly)
	if !ok || arc == nil {
		return ctx, nil
	}
	c, err := tse.ReadSettings(filepath.Join(cfg.DataDir, tse.SettingsFile))
	if err != nil {
		log.Warn("tse replacement unavailable", "err", err)
		return ctx, nil
	}
	ctx, restart := context.WithCancelCause(ctx)
	rp := replace.New(st, replace.Options{RestaurantID: restaurantID, DataDir: cfg.DataDir, Old: f, Settings: c, Archive: arc,
		Restart: func() { restart(errRestartForNewTSS) }, Logger: log})
	scfg.Replacer = rp
	return ctx, rp
}

// stopped is serve's result: a replacement's restart is an error, so the
// service manager starts posbox again.
func stopped(ctx context.Context, err error, log *slog.Logger) error {
	if err == nil && errors.Is(context.Cause(ctx), errRestartForNewTSS) {
		log.Warn("posbox stops to start again with the new TSS")
		return errRestartForNewTSS
	}
	if err == nil {
		log.Info("posbox stopped")
	}
	return err
}

// startReplacer finishes, after the restart, a replacement whose new TSS
// now signs (the change recorded), or resumes one a stop interrupted.
func startReplacer(workCtx context.Context, workers *sync.WaitGroup, rp *replace.Replacer, st *store.Store, restaurantID, tssID string, log *slog.Logger) {
	if rp == nil {
		return
	}
	workers.Add(1)
	go func() {
		defer workers.Done()
		<-workCtx.Done()
		rp.Close()
	}()
	rep, err := rp.Finish(workCtx, restaurantID, tssID)
	if err != nil {
		log.Error("tse replacement: record the switch", "err", err)
		return
	}
	if rep != nil && rep.Step != store.ReplaceDone {
		if _, err := rp.Resume(workCtx, restaurantID); err != nil {
			log.Warn("tse replacement: resume at start", "err", err)
		}
	}
}
