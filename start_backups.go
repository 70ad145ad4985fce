package main

import (
	"context"
	"errors"
	"fmt"
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
// cfg.BackupDir (created if missing) named by its UTC date, keeping the
// newest cfg.BackupKeep. backup_keep = 0 turns it off. With a passphrase
// file set (backup_passphrase_file) the files are complete, encrypted
// backups (posbox-YYYY-MM-DD.posbox-backup), else copies of the database
// only (posbox-YYYY-MM-DD.db).
func startBackups(ctx context.Context, sched *cron.Cron, st *store.Store, cfg Config, log *slog.Logger) {
	if cfg.BackupKeep == 0 {
		log.Info("nightly backup is off (backup_keep = 0)")
		return
	}
	job := nightlyJob{dir: cfg.BackupDir, keep: cfg.BackupKeep, dataDir: cfg.DataDir, passphraseFile: backupPassphraseFile(cfg)}
	// The folder exists from the first start on, for "posbox backup"
	// too, which never creates one.
	if job.dir != "" {
		if err := os.MkdirAll(job.dir, 0o700); err != nil {
			log.Warn("cannot create the backup folder", "dir", job.dir, "err", err)
		}
	}
	if job.passphraseFile != "" {
		log.Info("nightly backups are complete and encrypted", "dir", job.dir, "passphrase_file", job.passphraseFile)
	} else {
		log.Info("nightly backups hold the database only (set backup_passphrase_file for complete ones)", "dir", job.dir)
	}
	// The spec is a constant; AddFunc fails only for a bad one.
	_, _ = sched.AddFunc(nightlyBackupSpec, func() {
		if _, err := nightlyBackup(ctx, st, job, time.Now(), log); err != nil {
			log.Error("nightly backup failed", "dir", job.dir, "err", err)
		}
	})
}

const (
	backupPrefix = "posbox-"
	backupSuffix = ".db"
)

// nightlyJob is the nightly backup's settings.
type nightlyJob struct {
	dir  string // backup_dir
	keep int    // backup_keep
	// dataDir and passphraseFile make the backups complete: the data
	// dir's files, encrypted with the file's passphrase.
	dataDir        string
	passphraseFile string
}

// nightlyBackup writes today's backup unless it exists, then deletes the
// oldest so that keep remain. It returns the path of today's file. When
// the passphrase cannot be read it writes a database-only backup, so a
// night is never without one, and returns the error with it.
func nightlyBackup(ctx context.Context, st *store.Store, job nightlyJob, now time.Time, log *slog.Logger) (string, error) {
	if err := os.MkdirAll(job.dir, 0o700); err != nil {
		return "", err
	}
	date := now.UTC().Format(time.DateOnly)
	var passErr error
	if job.passphraseFile != "" {
		pass, err := readPassphraseFile(job.passphraseFile)
		if err == nil {
			err = checkPassphrase(pass)
		}
		if err == nil {
			dest := filepath.Join(job.dir, backupPrefix+date+completeBackupExt)
			_, err = writeCompleteBackup(ctx, completeBackup{
				DataDir: job.dataDir, Dest: dest, Passphrase: pass, Now: now, Snapshot: st.Backup,
			})
			switch {
			case errors.Is(err, store.ErrBackupExists):
				log.Info("nightly backup already there", "file", dest)
			case err != nil:
				return "", err
			default:
				log.Info("nightly backup written", "file", dest, "complete", true)
			}
			return dest, pruneBackups(job.dir, job.keep)
		}
		passErr = fmt.Errorf("backup_passphrase_file: %w; wrote a database-only backup instead", err)
		log.Error("nightly complete backup impossible: writing a database-only backup", "err", err)
	}
	dest := filepath.Join(job.dir, backupPrefix+date+backupSuffix)
	err := st.Backup(ctx, dest)
	switch {
	case errors.Is(err, store.ErrBackupExists):
		log.Info("nightly backup already there", "file", dest)
	case err != nil:
		return "", errors.Join(passErr, err)
	default:
		log.Info("nightly backup written", "file", dest, "complete", false)
	}
	return dest, errors.Join(passErr, pruneBackups(job.dir, job.keep))
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
	// Both kinds together, by date: after a switch to complete backups
	// the database-only ones age out.
	slices.Sort(nightly) // dates sort as text; a day's .db before its .posbox-backup
	var errs []error
	for len(nightly) > keep {
		errs = append(errs, os.Remove(filepath.Join(dir, nightly[0])))
		nightly = nightly[1:]
	}
	return errors.Join(errs...)
}

// isNightlyBackup: posbox-YYYY-MM-DD.db or posbox-YYYY-MM-DD.posbox-backup.
func isNightlyBackup(name string) bool {
	date, ok := strings.CutPrefix(name, backupPrefix)
	if !ok {
		return false
	}
	if d, ok := strings.CutSuffix(date, backupSuffix); ok {
		date = d
	} else if date, ok = strings.CutSuffix(date, completeBackupExt); !ok {
		return false
	}
	_, err := time.Parse(time.DateOnly, date)
	return err == nil
}
