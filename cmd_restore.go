package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"posbox/backup"
	"posbox/tse"
)

const restoreUsage = `usage: posbox restore [--data-dir DIR] [--config FILE] [--passphrase-file F] FILE

Checks the backup FILE and puts it into the data dir, which must hold no
database: a new or empty folder, or one whose posbox.db was moved away.
A complete backup (posbox backup --complete) needs its passphrase, from
--passphrase-file F or the environment variable POSBOX_BACKUP_PASSPHRASE; a
database-only backup restores the database alone. Stop the service first.`

// cmdRestore puts a backup back: posbox restore [--data-dir DIR]
// [--passphrase-file F] FILE.
func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	passFile := fs.String("passphrase-file", "", "file whose first line is the backup's passphrase (default: $"+backup.PassphraseEnv+")")
	fs.Usage = func() {
		fmt.Fprintln(stderr, restoreUsage)
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
	passphrase := func() (string, error) { return backup.Passphrase(*passFile, cfg.BackupPassphraseFile, false) }
	r, err := backup.Restore(ctx, fs.Arg(0), cfg.DataDir, passphrase)
	if err != nil {
		return err
	}
	printRestored(fs.Arg(0), r, stdout, stderr)
	return nil
}

// printRestored says what the restore brought, what a database alone
// lacks, and what to do before the service starts.
func printRestored(src string, r *backup.Restored, stdout, stderr io.Writer) {
	if !r.Complete {
		fmt.Fprintf(stdout, "restored the database from %s into %s\n", src, r.DataDir)
		fmt.Fprintf(stderr, `warning: %s holds the database only. The secrets must come from elsewhere (the
  old data dir, or a complete backup), into %s:
  jwt.key (without it a new one is made at start and every user logs in again),
  tse.json (the fiskaly TSE's credentials and PIN: without it posbox signs with
  its built-in simulator instead of your TSE), tse-sim/ (the simulator's keys).
`, src, r.DataDir)
	} else {
		m := r.Manifest
		fmt.Fprintf(stdout, "restored %s (made %s by posbox %s) into %s:\n  %s\n",
			src, m.CreatedAt.UTC().Format(time.RFC3339), m.PosboxVersion, r.DataDir, backup.DescribeFiles(m.Files))
		settings := filepath.Join(r.DataDir, tse.SettingsFile)
		switch {
		case pathExists(settings):
			if c, err := tse.ReadSettings(settings); err == nil {
				fmt.Fprintf(stdout, "  TSE: fiskaly TSS %s at %s\n", c.TSSID, c.URL)
			}
		case r.Simulator:
			fmt.Fprintln(stdout, "  TSE: the built-in simulator (tse-sim/), with its keys and counters")
		}
	}
	if runtime.GOOS != "windows" && os.Geteuid() == 0 {
		fmt.Fprintf(stdout, "Restored as root: give the files to the service's user before starting it, e.g.\n  chown -R posbox:posbox %s\n", r.DataDir)
	}
	fmt.Fprintln(stdout, "Start the service, then check /api/health and the TSE status.")
}

// pathExists reports whether p exists.
func pathExists(p string) bool { _, err := os.Stat(p); return err == nil }
