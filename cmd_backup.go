package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"posbox/backup"
	"posbox/store"
)

const backupUsage = `usage: posbox backup [--data-dir DIR] [--config FILE] FILE
       posbox backup --complete [--passphrase-file F] [--data-dir DIR] [--config FILE] FILE.posbox-backup

Without --complete: a checked copy of the database only (a plain SQLite file).
With --complete: the database, jwt.key, the TSE settings, the TSE
simulator's state and the fiscal archive (archive/: the TSE's TAR exports),
encrypted with a passphrase of at least 12 characters read
from --passphrase-file F or the environment variable POSBOX_BACKUP_PASSPHRASE
(never from the command line). Keep the passphrase away from the box: without
it the backup cannot be opened. Restore with "posbox restore".`

// dbOnlyWarning follows a database-only backup.
const dbOnlyWarning = `warning: this backup holds the database only, not the secrets a new box needs:
  jwt.key (without it every user logs in again), tse.json (the fiskaly TSE's
  credentials, PUK and admin PIN), tse-sim/ (the TSE simulator's keys) and
  archive/ (the TSE's verified TAR exports, kept ten years; docs/FISCAL.md).
  For a complete, encrypted backup:
  posbox backup --complete --passphrase-file FILE DEST.posbox-backup
`

// cmdBackup writes a consistent copy of the database, or a complete
// backup of the data dir, while the appliance may be serving.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	paceGC() // gc_pace.go: scrypt's 256 MiB, freed before the next derivation
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	complete := fs.Bool("complete", false, "write a complete backup (database, keys, TSE settings and simulator state), encrypted with the passphrase")
	passFile := fs.String("passphrase-file", "", "file whose first line is the passphrase of a complete backup (default: $"+backup.PassphraseEnv+")")
	fs.Usage = func() {
		fmt.Fprintln(stderr, backupUsage)
		fs.PrintDefaults()
	}
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	dest, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return err
	}
	dbPath := filepath.Join(cfg.DataDir, store.FileName)
	if !*complete {
		if *passFile != "" {
			return errors.New("backup: --passphrase-file is for a complete backup: add --complete")
		}
		if err := store.BackupFile(ctx, dbPath, dest); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "backup written and checked:", dest)
		fmt.Fprint(stderr, dbOnlyWarning)
		return nil
	}
	pass, err := backup.Passphrase(*passFile, cfg.BackupPassphraseFile, true)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	m, err := backup.Write(ctx, backup.Complete{
		DataDir: cfg.DataDir, Dest: dest, Passphrase: pass, Now: time.Now(), Version: version, Build: build,
		Snapshot: func(ctx context.Context, snap string) error { return store.BackupFile(ctx, dbPath, snap) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "complete backup written and checked: %s\n  holds %s\n", dest, backup.DescribeFiles(m.Files))
	fmt.Fprintln(stdout, "  encrypted: keep the passphrase away from the box; without it this backup cannot be opened")
	return nil
}
