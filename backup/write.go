package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"

	"posbox/store"
)

// snapshotPrefix names the database snapshot a complete backup takes in
// the data dir (beside the database, as private as it).
const snapshotPrefix = ".posbox-snapshot-"

// ScryptWorkFactor is scrypt's log2(N) for a new backup: age's default
// (about a second and 256 MiB once per backup). Tests lower it; a
// restore reads it from the file.
var ScryptWorkFactor = 18

// Complete is one complete backup to write.
type Complete struct {
	DataDir    string
	Dest       string // its folder must exist; never overwritten
	Passphrase string
	// Snapshot writes a consistent, checked copy of the database to a new
	// file (store.BackupFile, or the running store's Backup).
	Snapshot func(ctx context.Context, dest string) error
	Now      time.Time
	// Version and Build are posbox's, for the manifest.
	Version, Build string
}

// Write writes b.Dest: a temporary file beside it (mode
// 0600) filled with the snapshot and the data dir's files, read back and
// checked against its manifest, synced, and linked into place, so Dest is
// either absent or complete. The database snapshot comes first, then the
// TSE simulator's journal, then the rest: every signature the database
// holds is in the journal (the journal records a signature before the
// sale is committed), never the other way round.
func Write(ctx context.Context, b Complete) (*Manifest, error) {
	dest, err := filepath.Abs(b.Dest)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, fmt.Errorf("%s: %w", dest, store.ErrBackupExists)
	}
	if err := checkPassphrase(b.Passphrase); err != nil {
		return nil, err
	}
	tmp, err := store.CreateTemp(dest)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)

	removeStaleSnapshots(b.DataDir, time.Now())
	snap := filepath.Join(b.DataDir, snapshotPrefix+rand.Text()[:8]+".db")
	defer os.Remove(snap)
	if err := b.Snapshot(ctx, snap); err != nil {
		return nil, err
	}

	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return nil, err
	}
	m, err := writeArchive(ctx, f, b, snap)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}

	// Read it back as a restore would: the passphrase opens it and every
	// file matches the manifest.
	rf, err := os.Open(tmp)
	if err != nil {
		return nil, err
	}
	got, err := Read(ctx, rf, b.Passphrase, nil)
	rf.Close()
	if err != nil {
		return nil, fmt.Errorf("backup: the written file fails its check: %w", err)
	}
	if len(got.Files) != len(m.Files) {
		return nil, fmt.Errorf("backup: the written file holds %d files, want %d", len(got.Files), len(m.Files))
	}
	if err := store.Publish(tmp, dest); err != nil {
		return nil, err
	}
	return m, nil
}

// writeArchive writes the encrypted archive to w and returns its manifest.
func writeArchive(ctx context.Context, w io.Writer, b Complete, snap string) (*Manifest, error) {
	r, err := age.NewScryptRecipient(b.Passphrase)
	if err != nil {
		return nil, err
	}
	r.SetWorkFactor(ScryptWorkFactor)
	bw := bufio.NewWriterSize(w, 1<<16)
	enc, err := age.Encrypt(bw, r)
	if err != nil {
		return nil, err
	}
	// BestSpeed: on a ten-year data dir (4.4 GB database, 2.2 GB of TSE
	// archive) the default level took 2.2x (database) and 3.8x (TARs) as
	// long for a copy 10 % smaller (docs/PERFORMANCE.md, "Year ten").
	gz, err := gzip.NewWriterLevel(enc, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	m := &Manifest{
		Format: format, FormatVersion: formatVersion,
		PosboxVersion: b.Version, PosboxBuild: b.Build, CreatedAt: b.Now.UTC().Truncate(time.Second),
	}
	add := func(rel, abs string) error {
		f, err := addToArchive(ctx, tw, rel, abs)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, f)
		return nil
	}
	if err := add(store.FileName, snap); err != nil {
		return nil, err
	}
	for _, name := range topFiles {
		if err := addIfPresent(b.DataDir, name, add); err != nil {
			return nil, err
		}
	}
	// The journal before the keys: a key is written before the journal
	// line that uses it, so keys listed after the journal was read cover
	// every TSS in it.
	if err := addIfPresent(b.DataDir, simJournal, add); err != nil {
		return nil, err
	}
	for _, dir := range trees {
		if err := addTree(b.DataDir, dir, add); err != nil {
			return nil, err
		}
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	mb = append(mb, '\n')
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: manifestName, Mode: 0o600, Size: int64(len(mb)), ModTime: m.CreatedAt}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(mb); err != nil {
		return nil, err
	}
	for _, c := range []io.Closer{tw, gz, enc} {
		if err := c.Close(); err != nil {
			return nil, err
		}
	}
	return m, bw.Flush()
}

// addIfPresent adds the data dir's file rel unless it does not exist.
func addIfPresent(dataDir, rel string, add func(rel, abs string) error) error {
	abs := filepath.Join(dataDir, filepath.FromSlash(rel))
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	return add(rel, abs)
}

// addTree adds every file under the data dir's folder dir (which may be
// absent, or a link to a folder elsewhere), except the simulator's journal
// (added first) and temporary files (".NAME.tmp"). Anything but regular
// files and folders is an error: a backup that silently lacks part of
// the fiscal archive is worse than a failed one.
func addTree(dataDir, dir string, add func(rel, abs string) error) error {
	root := filepath.Join(dataDir, dir)
	if fi, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", root)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dataDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		switch {
		case rel == simJournal:
			return nil
		case strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp"):
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s): a backup holds only files and folders", p, d.Type())
		}
		return add(rel, p)
	})
}

// addToArchive copies one file into tw, hashing it. A file that grows
// meanwhile (the simulator's journal) is copied up to the size it had
// when opened.
func addToArchive(ctx context.Context, tw *tar.Writer, rel, abs string) (File, error) {
	f, err := os.Open(abs)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, err
	}
	if !fi.Mode().IsRegular() {
		return File{}, fmt.Errorf("%s is not a regular file", abs)
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime().UTC().Truncate(time.Second)}
	if err := tw.WriteHeader(hdr); err != nil {
		return File{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tw, h), ctxReader{ctx, io.LimitReader(f, hdr.Size)})
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", abs, err)
	}
	if n != hdr.Size {
		return File{}, fmt.Errorf("%s shrank from %d to %d bytes while it was copied", abs, hdr.Size, n)
	}
	return File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// removeStaleSnapshots deletes database snapshots a crashed backup left
// in the data dir; a day old, so a backup running now keeps its own.
func removeStaleSnapshots(dataDir string, now time.Time) {
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		// The snapshot, or the temporary file store.Backup makes beside it.
		if !strings.HasPrefix(name, snapshotPrefix) && !strings.HasPrefix(name, "."+snapshotPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > 24*time.Hour {
			_ = os.Remove(filepath.Join(dataDir, name))
		}
	}
}
