package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/backup"
	"posbox/store"
)

// nightlyBackupSpec runs the nightly backup at 03:00 UTC (04:00 or 05:00
// in Germany): after closing time, before the morning shift, and clear of
// the TSE self-test (02:00) and certificate check (02:30).
const nightlyBackupSpec = "CRON_TZ=UTC 0 3 * * *"

// startBackups registers the nightly backup: one file a day in
// cfg.BackupDir (created if missing) named by its UTC date, keeping the
// newest cfg.BackupKeep. backup_keep = 0 turns it off. With a passphrase
// file set (backup_passphrase_file) the files are complete, encrypted
// backups (posbox-YYYY-MM-DD.posbox-backup), else copies of the database
// only (posbox-YYYY-MM-DD.db). With replication on (replica_url) they are
// database-only in any case: the replica carries the rest off the box.
func startBackups(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) {
	if cfg.BackupKeep == 0 {
		log.Info("nightly backup is off (backup_keep = 0)")
		return
	}
	job := backup.Nightly{Dir: cfg.BackupDir, Keep: cfg.BackupKeep, DataDir: cfg.DataDir, PassphraseFile: cfg.BackupPassphraseFile,
		Replicated: cfg.ReplicaURL != "", Version: version, Build: build}
	// The folder exists from the first start on, for "posbox backup"
	// too, which never creates one.
	if job.Dir != "" {
		if err := os.MkdirAll(job.Dir, 0o700); err != nil {
			log.Warn("cannot create the backup folder", "dir", job.Dir, "err", err)
		}
	}
	switch {
	case job.Complete():
		log.Info("nightly backups are complete and encrypted", "dir", job.Dir, "passphrase_file", job.PassphraseFile)
	case job.Replicated:
		log.Info("nightly backups hold the database only: with replica_url the replica carries the keys, the TSE archive and the rest off the box "+
			"(backup_passphrase_file serves posbox backup --complete)", "dir", job.Dir)
	default:
		log.Info("nightly backups hold the database only (set backup_passphrase_file for complete ones)", "dir", job.Dir)
	}
	// The spec is a constant; AddFunc fails only for a bad one.
	_, _ = sched.AddFunc(nightlyBackupSpec, func() {
		if _, err := job.Run(ctx, st, time.Now(), log); err != nil {
			log.Error("nightly backup failed", "dir", job.Dir, "err", err)
		}
	})
}
