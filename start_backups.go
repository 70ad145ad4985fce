package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/store"
)

// nightlyBackupSpec runs the nightly backup at 03:00 UTC (04:00 or 05:00
// in Germany): after closing time, before the morning shift, and clear of
// the TSE self-test (02:00) and certificate check (02:30).
const nightlyBackupSpec = "CRON_TZ=UTC 0 3 * * *"

// startBackups registers the nightly backup: one file a day in
// cfg.BackupDir named posbox-YYYY-MM-DD.db (UTC date), keeping the newest
// cfg.BackupKeep. backup_keep = 0 turns it off.
func startBackups(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) {
	if cfg.BackupKeep == 0 {
		log.Info("nightly backup is off (backup_keep = 0)")
		return
	}
	// The spec is a constant; AddFunc fails only for a bad one.
	_, _ = sched.AddFunc(nightlyBackupSpec, func() {
		if _, err := nightlyBackup(ctx, st, cfg.BackupDir, cfg.BackupKeep, time.Now(), log); err != nil {
			log.Error("nightly backup failed", "dir", cfg.BackupDir, "err", err)
		}
	})
}

const (
	backupPrefix = "posbox-"
	backupSuffix = ".db"
)

// nightlyBackup writes today's backup unless it exists, then deletes the
// oldest so that keep remain. It returns the path of today's file.
func nightlyBackup(ctx context.Context, st *store.Store, dir string, keep int, now time.Time, log *slog.Logger) (string, error) {
	dest := filepath.Join(dir, backupPrefix+now.UTC().Format(time.DateOnly)+backupSuffix)
	err := st.Backup(ctx, dest)
	switch {
	case errors.Is(err, store.ErrBackupExists):
		log.Info("nightly backup already there", "file", dest)
	case err != nil:
		return "", err
	default:
		log.Info("nightly backup written", "file", dest)
	}
	return dest, pruneBackups(dir, keep)
}

// pruneBackups deletes nightly backups beyond the newest keep, and
// temporary files a crash left. It touches no other file in dir.
func pruneBackups(dir string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var nightly []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case isNightlyBackup(name):
			nightly = append(nightly, name)
		case strings.HasPrefix(name, "."+backupPrefix) && strings.HasSuffix(name, ".tmp"):
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
	slices.Sort(nightly) // dates sort as text
	var errs []error
	for len(nightly) > keep {
		errs = append(errs, os.Remove(filepath.Join(dir, nightly[0])))
		nightly = nightly[1:]
	}
	return errors.Join(errs...)
}

func isNightlyBackup(name string) bool {
	date, ok := strings.CutPrefix(name, backupPrefix)
	if !ok {
		return false
	}
	date, ok = strings.CutSuffix(date, backupSuffix)
	if !ok {
		return false
	}
	_, err := time.Parse(time.DateOnly, date)
	return err == nil
}
