package backup

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"posbox/store"
)

var (
	sqliteMagic = []byte("SQLite format 3\x00")
	ageMagic    = []byte("age-encryption.org/")
)

// Restored is what Restore put into the data dir.
type Restored struct {
	DataDir  string // absolute
	Complete bool   // a complete backup; else a database alone
	// Manifest lists the files restored (only posbox.db, without sizes,
	// for a database alone).
	Manifest *Manifest
	// Simulator: the backup brought the built-in simulator's journal
	// (tse-sim/), with its keys and counters.
	Simulator bool
}

// Restore checks the backup src (a complete backup, or a database-only
// one: a plain SQLite file) completely in a staging folder inside
// dataDir, then moves its files into dataDir, the database last. dataDir
// may not exist; it must hold no database and none of the files the
// backup brings. Files are mode 0600, folders 0700. passphrase is asked
// only for a complete backup. A refused or failed restore leaves dataDir
// as it found it.
func Restore(ctx context.Context, src, dataDir string, passphrase func() (string, error)) (_ *Restored, err error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	complete, err := sniff(br, src)
	if err != nil {
		return nil, err
	}
	dataDir, err = filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	if err := checkNoDatabase(dataDir); err != nil {
		return nil, err
	}
	var pass string
	if complete {
		if pass, err = passphrase(); err != nil {
			return nil, fmt.Errorf("%s is a complete backup: %w", src, err)
		}
	}

	created, err := makeDataDir(dataDir)
	if err != nil {
		return nil, err
	}
	if created {
		defer func() {
			if err != nil {
				os.Remove(dataDir) // the folder this restore made, empty again
			}
		}()
	}
	staging, err := os.MkdirTemp(dataDir, ".restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)
	m, err := stage(ctx, br, complete, pass, staging)
	if err != nil {
		return nil, fmt.Errorf("restore %s: %w", src, err)
	}
	if err := syncTree(staging); err != nil {
		return nil, err
	}

	if err := moveIn(staging, dataDir, m); err != nil {
		return nil, err
	}
	if created {
		if err := os.Chmod(dataDir, 0o700); err != nil {
			return nil, err
		}
	}
	if err := store.SyncDir(dataDir); err != nil {
		return nil, err
	}
	sim := slices.ContainsFunc(m.Files, func(f File) bool { return f.Path == simJournal })
	return &Restored{DataDir: dataDir, Complete: complete, Manifest: m, Simulator: sim}, nil
}

// sniff tells the two kinds of backup apart by their first bytes: age's
// header (complete) or SQLite's (a database alone).
func sniff(br *bufio.Reader, src string) (complete bool, err error) {
	head, _ := br.Peek(max(len(sqliteMagic), len(ageMagic)))
	switch {
	case bytes.HasPrefix(head, ageMagic):
		return true, nil
	case bytes.HasPrefix(head, sqliteMagic):
		return false, nil
	}
	return false, fmt.Errorf("%s is not a posbox backup (neither a complete backup nor a database)", src)
}

// makeDataDir creates dataDir (0700) unless it exists; created says it did.
func makeDataDir(dataDir string) (created bool, err error) {
	if _, err := os.Stat(dataDir); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return false, err
	}
	return true, nil
}

// stage extracts the backup into staging and checks it whole: every file
// against the manifest (complete) and the database's integrity.
func stage(ctx context.Context, br *bufio.Reader, complete bool, pass, staging string) (*Manifest, error) {
	var m *Manifest
	var err error
	if complete {
		m, err = Read(ctx, br, pass, func(rel string, modTime time.Time, r io.Reader) error {
			return extractFile(filepath.Join(staging, filepath.FromSlash(rel)), modTime, r)
		})
	} else {
		err = extractFile(filepath.Join(staging, store.FileName), time.Time{}, ctxReader{ctx, br})
		m = &Manifest{Files: []File{{Path: store.FileName}}}
	}
	if err != nil {
		return nil, err
	}
	if err := store.CheckIntegrity(ctx, filepath.Join(staging, store.FileName)); err != nil {
		return nil, fmt.Errorf("the database fails its check: %w", err)
	}
	return m, nil
}

// moveIn renames the staged entries into dataDir, the database last,
// after checking again (time passed) that none is there; a failed move
// takes back what it moved.
func moveIn(staging, dataDir string, m *Manifest) error {
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	tops := topLevel(paths)
	if err := checkNoDatabase(dataDir); err != nil {
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
