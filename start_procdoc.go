package main

import (
	"context"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/robfig/cron/v3"

	"posbox/backup"
	"posbox/fiscal"
	"posbox/fiscal/procdoc"
	"posbox/server"
	"posbox/store"
)

// procDocSpec makes each restaurant's procedure document every night at
// 03:30 UTC (after the nightly backup), so that a change nobody looked
// at is a new version within a day (docs/FISCAL.md).
const procDocSpec = "CRON_TZ=UTC 30 3 * * *"

// recordProgram adds this program to the box's program-change log when
// it differs from the one that ran before (GoBD: the program-change log
// of the procedure document).
func recordProgram(ctx context.Context, st *store.Store, log *slog.Logger) error {
	added, err := st.RecordProgramVersion(ctx, version, build)
	if err != nil {
		return err
	}
	if added {
		log.Info("program change recorded for the procedure document", "version", version, "build", build, "schema", st.SchemaVersion())
	}
	return nil
}

// newProcDoc is the procedure document's builder with the box's setup:
// folders, schedules and the kind of replica target, never its URL
// (which may hold a user name) nor a key or passphrase.
func newProcDoc(st *store.Store, signer procdoc.TSE, archiving bool, cfg Config) *procdoc.Builder {
	night := backup.Nightly{PassphraseFile: cfg.BackupPassphraseFile, Replicated: cfg.ReplicaURL != ""}
	rep := fiscal.ProcDocReplication{Enabled: cfg.ReplicaURL != ""}
	if rep.Enabled {
		if u, err := url.Parse(cfg.ReplicaURL); err == nil {
			rep.TargetKind = u.Scheme
		}
		for _, r := range strings.Split(cfg.ReplicaRecipients, ",") {
			if strings.TrimSpace(r) != "" {
				rep.Recipients++
			}
		}
	}
	return &procdoc.Builder{St: st, TSE: signer, ArchiveStart: archiveStartOf(st), Setup: procdoc.Setup{
		Version: version, Build: build,
		Archive: fiscal.ProcDocArchive{Enabled: archiving, Folder: filepath.Join(absDir(cfg.DataDir), archiveTSEDir), DailyAt: cfg.TSEArchiveTime},
		Backups: fiscal.ProcDocBackups{Enabled: cfg.BackupKeep > 0, Folder: absDir(cfg.BackupDir), DailyAt: "03:00", Keep: cfg.BackupKeep,
			Complete: night.Complete(), Encrypted: night.Complete()},
		Replication: rep,
		Retention:   fiscal.ProcDocRetention{NotificationKeepDays: cfg.NotificationKeepDays, EventKeepDays: cfg.EventKeepDays},
	}}
}

// archiveStartOf is the procedure document's first archived counter:
// the restaurant's latest declaration with its reason (docs/FISCAL.md,
// "The TSE archive"), none while the chain starts at counter 1.
func archiveStartOf(st *store.Store) func(ctx context.Context, restaurantID string) (int64, string, bool, error) {
	return func(ctx context.Context, restaurantID string) (int64, string, bool, error) {
		all, err := st.TSEArchiveStartsOfRestaurant(ctx, restaurantID)
		if err != nil || len(all) == 0 {
			return 0, "", false, err
		}
		last := all[len(all)-1]
		return last.FirstCounter, last.Reason, true, nil
	}
}

// absDir is dir made absolute for the document (a relative data_dir
// says nothing on paper); as given when that fails.
func absDir(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return dir
}

// startProcDoc records the program in the change log, then makes every
// restaurant's document once (a new program is a new version at once,
// in the background) and every night.
func startProcDoc(ctx context.Context, workers *sync.WaitGroup, sched *cron.Cron, st *store.Store, b server.ProcedureDocuments, log *slog.Logger) error {
	if err := recordProgram(ctx, st, log); err != nil {
		return err
	}
	log = log.With("area", "procedure_document")
	run := func() {
		rests, err := st.Restaurants(ctx)
		if err != nil {
			log.Warn("procedure document: list restaurants", "err", err)
			return
		}
		for _, r := range rests {
			if _, err := b.Current(ctx, r.ID); err != nil && ctx.Err() == nil {
				log.Warn("procedure document: cannot make it now; it is made when opened", "restaurant", r.ID, "err", err)
			}
		}
	}
	workers.Add(1)
	go func() {
		defer workers.Done()
		run()
	}()
	// The spec is a constant; AddFunc fails only for a bad one.
	_, _ = sched.AddFunc(procDocSpec, run)
	return nil
}
