package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"posbox/backup"
	"posbox/fiscal/afterrestore"
	"posbox/replica"
	"posbox/tse"
)

const restoreUsage = `usage: posbox restore [--data-dir DIR] [--config FILE] [--passphrase-file F] FILE
       posbox restore --from URL --key-file F --data-dir DIR

Checks the backup FILE and puts it into the data dir, which must hold no
database: a new or empty folder, or one whose posbox.db was moved away.
A complete backup (posbox backup --complete) needs its passphrase, from
--passphrase-file F or the environment variable POSBOX_BACKUP_PASSPHRASE; a
database-only backup restores the database alone. Stop the service first.

With --from, rebuilds a whole data dir from the replica at URL (the
replica_url of the old box, as on its recovery sheet) into DIR, which must
be new or empty: the database as far as it was replicated, the TSE archive,
the TSE's settings and keys, jwt.key and the HTTPS files, each checked
against its SHA-256. --key-file is the recovery key (replica.key, or any
key the replica is encrypted to); only the box's own recovery key is
copied to DIR/replica.key. The old box's config file and the secret
files it names go to DIR/restored-config.`

// cmdRestore puts a backup back: posbox restore [--data-dir DIR]
// [--passphrase-file F] FILE.
func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	paceGC() // gc_pace.go: scrypt's 256 MiB, freed before the next derivation
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	passFile := fs.String("passphrase-file", "", "file whose first line is the backup's passphrase (default: $"+backup.PassphraseEnv+")")
	from := fs.String("from", "", "rebuild the data dir from the replica at this URL instead of a backup FILE")
	keyFile := fs.String("key-file", "", "with --from: the replica's recovery key (an age identity file)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, restoreUsage)
		fs.PrintDefaults()
	}
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	if *from != "" || *keyFile != "" {
		if fs.NArg() != 0 || *from == "" || *keyFile == "" || *passFile != "" {
			fs.Usage()
			return errUsage
		}
		return restoreFromReplica(ctx, *from, *keyFile, cfg.DataDir, stdout)
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

// restoreFromReplica is posbox restore --from: a whole data dir rebuilt
// from the replica, the box's recovery key put beside it (the new box
// replicates on with the same key, the recovery sheet stays true).
func restoreFromReplica(ctx context.Context, url, keyFile, dataDir string, stdout io.Writer) error {
	key, err := replica.LoadKey(keyFile)
	if err != nil {
		return err
	}
	r, err := replica.RestoreDataDir(ctx, url, key, dataDir)
	if err != nil {
		return err
	}
	// The first start compares the TSE's transactions with what came back.
	if err := afterrestore.MarkRestored(r.DataDir, r.ReplicatedThrough); err != nil {
		return err
	}
	keyNote := copyRecoveryKey(keyFile, key.Recipient().String(), r)
	fmt.Fprintf(stdout, "restored from the replica %s into %s:\n", replica.Redact(url), r.DataDir)
	through := "(the replica does not say when)"
	if !r.ReplicatedThrough.IsZero() {
		through = "through " + r.ReplicatedThrough.Local().Format("2006-01-02 15:04:05 MST")
	}
	fmt.Fprintf(stdout, "  the database, replicated %s\n", through)
	if !r.HeldBack.IsZero() {
		fmt.Fprintf(stdout, "  (as of %s, the last upload of the files with the TSE simulator's journal: a newer database could record signatures the restored simulator lacks)\n",
			r.HeldBack.Local().Format("2006-01-02 15:04:05 MST"))
	}
	fmt.Fprintf(stdout, "  %d files (%s), each checked against its SHA-256, as uploaded %s\n",
		r.Files, sizeText(r.Bytes), r.FilesAt.Local().Format("2006-01-02 15:04:05 MST"))
	fmt.Fprint(stdout, keyNote)
	if len(r.Config) > 0 {
		fmt.Fprintf(stdout, "The old box's config and the secret files it names are in %s:\n  %s\n"+
			"Put them where the service reads them (e.g. /etc/posbox/posbox.conf, the paths the config names), check data_dir and replica_url, then delete that folder.\n",
			filepath.Join(r.DataDir, replica.RestoredConfigDir), strings.Join(r.Config, ", "))
	}
	if runtime.GOOS != "windows" && os.Geteuid() == 0 {
		fmt.Fprintf(stdout, "Restored as root: give the files to the service's user before starting it, e.g.\n  chown -R posbox:posbox %s\n", r.DataDir)
	}
	fmt.Fprintln(stdout, "Next: start posbox on this data dir (stop the old box for good first: two boxes must never replicate to one replica), then check /api/health and the TSE status.")
	fmt.Fprintln(stdout, "On its first start posbox compares the TSE's transactions with its records and lists what the TSE signed that this box does not have (the last seconds before the old box stopped), so it can be entered again.")
	return nil
}

// sizeText is n bytes in MiB (or bytes when small).
func sizeText(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
