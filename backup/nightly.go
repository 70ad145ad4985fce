package backup

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

	"posbox/store"
)

const (
	nightlyPrefix = "posbox-"
	dbOnlySuffix  = ".db"
)

// Nightly is the nightly backup's settings.
type Nightly struct {
	Dir  string // backup_dir
	Keep int    // backup_keep
	// DataDir and PassphraseFile (backup_passphrase_file) make the
	// backups complete: the data dir's files, encrypted with the file's
	// passphrase.
	DataDir        string
	PassphraseFile string
	// Replicated (replica_url is set): the replica carries the data dir
	// off the box, continuously and encrypted, so the nightly copy stays
	// database-only even with a passphrase file: a dated local point to
	// go back to beyond the replica's one day of history, without
	// scrypt's 256 MiB (docs/OPERATIONS.md, "Off the box").
	Replicated bool
	// Version and Build are posbox's, for a complete backup's manifest.
	Version, Build string
}

// Run writes today's backup (named by its UTC date: posbox-DATE.db, or
// posbox-DATE.posbox-backup when complete) unless it exists, then
// deletes the oldest so that Keep remain. It returns the path of today's
// file. When the passphrase cannot be read it writes a database-only
// backup, so a night is never without one, and returns the error with
// it. Replicated, it writes a database-only backup and reads no
// passphrase.
func (n Nightly) Run(ctx context.Context, st *store.Store, now time.Time, log *slog.Logger) (string, error) {
	if err := os.MkdirAll(n.Dir, 0o700); err != nil {
		return "", err
	}
	date := now.UTC().Format(time.DateOnly)
	var passErr error
	if n.Complete() {
		pass, err := readPassphraseFile(n.PassphraseFile)
		if err == nil {
			err = checkPassphrase(pass)
		}
		if err == nil {
			dest := filepath.Join(n.Dir, nightlyPrefix+date+Ext)
			_, err = Write(ctx, Complete{
				DataDir: n.DataDir, Dest: dest, Passphrase: pass, Now: now, Snapshot: st.Backup,
				Version: n.Version, Build: n.Build,
			})
			switch {
			case errors.Is(err, store.ErrBackupExists):
				log.Info("nightly backup already there", "file", dest)
			case err != nil:
				return "", err
			default:
				log.Info("nightly backup written", "file", dest, "complete", true)
			}
			return dest, Prune(n.Dir, n.Keep)
		}
		passErr = fmt.Errorf("backup_passphrase_file: %w; wrote a database-only backup instead", err)
		log.Error("nightly complete backup impossible: writing a database-only backup", "err", err)
	}
	dest := filepath.Join(n.Dir, nightlyPrefix+date+dbOnlySuffix)
	err := st.Backup(ctx, dest)
	switch {
	case errors.Is(err, store.ErrBackupExists):
		log.Info("nightly backup already there", "file", dest)
	case err != nil:
		return "", errors.Join(passErr, err)
	default:
		log.Info("nightly backup written", "file", dest, "complete", false)
	}
	return dest, errors.Join(passErr, Prune(n.Dir, n.Keep))
}

// Complete reports whether the nightly backups are complete (a
// passphrase file, no replication) rather than the database alone.
func (n Nightly) Complete() bool { return n.PassphraseFile != "" && !n.Replicated }

// Prune deletes nightly backups in dir beyond the newest keep, and
// temporary files a crash left. It touches no other file in dir.
func Prune(dir string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var nightly []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case isNightly(name):
			nightly = append(nightly, name)
		case strings.HasPrefix(name, "."+nightlyPrefix) && strings.HasSuffix(name, ".tmp"):
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

// isNightly: posbox-YYYY-MM-DD.db or posbox-YYYY-MM-DD.posbox-backup.
func isNightly(name string) bool {
	date, ok := strings.CutPrefix(name, nightlyPrefix)
	if !ok {
		return false
	}
	if d, ok := strings.CutSuffix(date, dbOnlySuffix); ok {
		date = d
	} else if date, ok = strings.CutSuffix(date, Ext); !ok {
		return false
	}
	_, err := time.Parse(time.DateOnly, date)
	return err == nil
}
