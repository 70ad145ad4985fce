package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"posbox/store"
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
	passFile := fs.String("passphrase-file", "", "file whose first line is the backup's passphrase (default: $"+passphraseEnv+")")
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
	passphrase := func() (string, error) { return backupPassphrase(*passFile, cfg, false) }
	return restoreBackup(ctx, fs.Arg(0), cfg.DataDir, passphrase, stdout, stderr)
}

var (
	sqliteMagic = []byte("SQLite format 3\x00")
	ageMagic    = []byte("age-encryption.org/")
)

// restoreBackup checks the backup src completely in a staging folder
// inside dataDir, then moves its files into dataDir, the database last.
// dataDir may not exist; it must hold no database and none of the files
// the backup brings. Files are mode 0600, folders 0700.
func restoreBackup(ctx context.Context, src, dataDir string, passphrase func() (string, error), stdout, stderr io.Writer) (err error) {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(max(len(sqliteMagic), len(ageMagic)))
	var complete bool
	switch {
	case bytes.HasPrefix(head, ageMagic):
		complete = true
	case bytes.HasPrefix(head, sqliteMagic):
	default:
		return fmt.Errorf("%s is not a posbox backup (neither a complete backup nor a database)", src)
	}
	dataDir, err = filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if err := checkNoDatabase(dataDir); err != nil {
		return err
	}
	var pass string
	if complete {
		if pass, err = passphrase(); err != nil {
			return fmt.Errorf("%s is a complete backup: %w", src, err)
		}
	}

	created := false
	if _, err := os.Stat(dataDir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return err
		}
		created = true
		defer func() {
			if err != nil {
				os.Remove(dataDir) // the folder this restore made, empty again
			}
		}()
	} else if err != nil {
		return err
	}
	staging, err := os.MkdirTemp(dataDir, ".restore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)

	var m *backupManifest
	if complete {
		m, err = readCompleteBackup(ctx, br, pass, func(rel string, modTime time.Time, r io.Reader) error {
			return extractFile(filepath.Join(staging, filepath.FromSlash(rel)), modTime, r)
		})
	} else {
		err = extractFile(filepath.Join(staging, store.FileName), time.Time{}, ctxReader{ctx, br})
		m = &backupManifest{Files: []backupFile{{Path: store.FileName}}}
	}
	if err != nil {
		return fmt.Errorf("restore %s: %w", src, err)
	}
	if err := store.CheckIntegrity(ctx, filepath.Join(staging, store.FileName)); err != nil {
		return fmt.Errorf("restore %s: the database fails its check: %w", src, err)
	}
	if err := syncTree(staging); err != nil {
		return err
	}

	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	tops := topLevel(paths)
	if err := checkNoDatabase(dataDir); err != nil { // again: time passed
		return err
	}
	var taken []string
	for _, top := range tops {
		if _, err := os.Lstat(filepath.Join(dataDir, top)); err == nil {
			taken = append(taken, top)
		}
	}
	if len(taken) > 0 {
		return fmt.Errorf("the data dir %s already holds %s, which the backup brings: restore into a new or empty folder, or move %s away first",
			dataDir, strings.Join(taken, ", "), strings.Join(taken, ", "))
	}
	var moved []string
	for _, top := range tops {
		if err := os.Rename(filepath.Join(staging, top), filepath.Join(dataDir, top)); err != nil {
			for _, done := range moved { // they are ours: leave the folder as it was
				os.RemoveAll(filepath.Join(dataDir, done))
			}
			return err
		}
		moved = append(moved, top)
	}
	if created {
		if err := os.Chmod(dataDir, 0o700); err != nil {
			return err
		}
	}
	if err := store.SyncDir(dataDir); err != nil {
		return err
	}

	if !complete {
		fmt.Fprintf(stdout, "restored the database from %s into %s\n", src, dataDir)
		fmt.Fprintf(stderr, `warning: %s holds the database only. The secrets must come from elsewhere (the
  old data dir, or a complete backup), into %s:
  jwt.key (without it a new one is made at start and every user logs in again),
  tse.json (the fiskaly TSE's credentials and PIN: without it posbox signs with
  its built-in simulator instead of your TSE), tse-sim/ (the simulator's keys).
`, src, dataDir)
	} else {
		fmt.Fprintf(stdout, "restored %s (made %s by posbox %s) into %s:\n  %s\n",
			src, m.CreatedAt.UTC().Format(time.RFC3339), m.PosboxVersion, dataDir, describeFiles(m.Files))
		switch {
		case pathExists(filepath.Join(dataDir, tse.SettingsFile)):
			if c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile)); err == nil {
				fmt.Fprintf(stdout, "  TSE: fiskaly TSS %s at %s\n", c.TSSID, c.URL)
			}
		case pathExists(filepath.Join(dataDir, tse.SimDir, simJournal)):
			fmt.Fprintln(stdout, "  TSE: the built-in simulator (tse-sim/), with its keys and counters")
		}
	}
	if runtime.GOOS != "windows" && os.Geteuid() == 0 {
		fmt.Fprintf(stdout, "Restored as root: give the files to the service's user before starting it, e.g.\n  chown -R posbox:posbox %s\n", dataDir)
	}
	fmt.Fprintln(stdout, "Start the service, then check /api/health and the TSE status.")
	return nil
}

// checkNoDatabase refuses a data dir that holds a database: a restore
// never replaces one.
func checkNoDatabase(dataDir string) error {
	for _, name := range []string{store.FileName, store.FileName + "-wal", store.FileName + "-shm"} {
		p := filepath.Join(dataDir, name)
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%s exists: a restore never replaces a database. Restore into a new data dir, or stop posbox and move the old data dir (or its posbox.db, posbox.db-wal and posbox.db-shm) away first", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// pathExists reports whether p exists.
func pathExists(p string) bool { _, err := os.Stat(p); return err == nil }

// extractFile writes r to a new file p (mode 0600, its folders 0700),
// synced, with modTime when it is set.
func extractFile(p string, modTime time.Time, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Chmod(0o600) // whatever the umask
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !modTime.IsZero() {
		err = os.Chtimes(p, modTime, modTime)
	}
	return err
}

// syncTree makes every folder under root 0700 and syncs it.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if err := os.Chmod(p, 0o700); err != nil {
			return err
		}
		return store.SyncDir(p)
	})
}
