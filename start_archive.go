package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/fiscal/archive"
	"posbox/server"
	"posbox/store"
	"posbox/tse"
)

// archiveTSEDir is where the TSE's TAR exports are kept, inside the data
// dir's fiscal archive (which complete backups hold).
var archiveTSEDir = filepath.Join("archive", "tse")

// checkArchive validates tse_archive_time at start.
func (c *Config) checkArchive() error {
	if _, err := time.Parse(store.ClockFormat, c.TSEArchiveTime); err != nil || len(c.TSEArchiveTime) != 5 {
		return fmt.Errorf("tse_archive_time: %q is not HH:MM", c.TSEArchiveTime)
	}
	return nil
}

// openArchive builds the fiscal archive of the TSS that p signs with for
// restaurantID, or nil (logged) when the provider cannot export.
func openArchive(st *store.Store, p tse.Provider, restaurantID string, cfg Config, log *slog.Logger) (*archive.Archive, error) {
	ex, ok := p.(tse.Exporter)
	if !ok {
		log.Warn("tse archive: the TSE provider cannot export TAR files; nothing is archived", "provider", p.Kind())
		return nil, nil
	}
	return archive.New(p, ex, st, archive.Options{RestaurantID: restaurantID,
		Dir: filepath.Join(cfg.DataDir, archiveTSEDir), Logger: log})
}

// serverArchive is a for the server: nil when the provider cannot
// export (a nil *archive.Archive would be a non-nil server.Archive).
func serverArchive(a *archive.Archive) server.Archive {
	if a == nil {
		return nil
	}
	return a
}

// startArchive makes restored TARs read-only again and resumes, on
// workCtx, the exports a stop interrupted (under
// their export ids), and checks every minute whether the nightly export
// is due (tse_archive_time, restaurant-local). The archive closes when
// workCtx ends, with the other workers.
func startArchive(workCtx context.Context, workers *sync.WaitGroup, sched *cron.Cron, a *archive.Archive, cfg Config, log *slog.Logger) error {
	if a == nil {
		return nil
	}
	workers.Add(2)
	go func() {
		defer workers.Done()
		if err := a.ProtectFiles(); err != nil {
			log.Error("tse archive: make the archived files read-only", "err", err)
		}
		if err := a.Resume(workCtx); err != nil && workCtx.Err() == nil {
			log.Warn("tse archive: resume at start", "err", err)
		}
	}()
	go func() {
		defer workers.Done()
		<-workCtx.Done()
		a.Close() // the exports an admin started
	}()
	nightly := &archive.Nightly{A: a, At: cfg.TSEArchiveTime}
	_, err := sched.AddFunc("* * * * *", func() {
		if err := nightly.Check(workCtx); err != nil && workCtx.Err() == nil {
			log.Error("tse archive: nightly export", "err", err)
		}
	})
	return err
}
