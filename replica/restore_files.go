package replica

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

const (
	// RestoredConfigDir is the folder of the data dir a restore puts the
	// config file and the secret files it names into: where they belong
	// (/etc/posbox, a service's folder) is the owner's to decide.
	RestoredConfigDir = "restored-config"
	// dbFile is the database's name in the data dir (store.FileName;
	// replica knows nothing of store).
	dbFile = "posbox.db"
)

// RestoredDataDir is what RestoreDataDir brought.
type RestoredDataDir struct {
	DataDir string // absolute
	// ReplicatedThrough is the time of the newest database change the
	// replica held (zero if the replica does not say).
	ReplicatedThrough time.Time
	// HeldBack, when set, is the point in time the database was restored
	// as of: the files hold the simulator's journal as of then, and a
	// newer database would name signatures the journal lacks.
	HeldBack time.Time
	// FilesAt is when the newest files manifest was made.
	FilesAt time.Time
	Files   int   // files restored and verified, the database not counted
	Bytes   int64 // their size
	// Config names the files put into RestoredConfigDir.
	Config []string
	// RecoveryKey is the public key (age1...) of the box's own recovery
	// key, as the newest manifest names it: "" when a posbox that did
	// not record it wrote the manifest.
	RecoveryKey string
}

// RestoreDataDir rebuilds a data dir from the replica at url into
// dataDir, which must be empty or not exist: the database as of its
// latest upload (Restore), then every file of the newest manifest, each
// chunk and each file checked against its SHA-256. Everything is staged
// in a folder inside dataDir and renamed into place once all is checked,
// the database last; files are 0600, folders 0700. A failed restore
// leaves dataDir as it found it.
func RestoreDataDir(ctx context.Context, url string, identity age.Identity, dataDir string) (*RestoredDataDir, error) {
	s, err := openObjects(url, 0)
	if err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	defer s.Close()
	return restoreDataDir(ctx, s, url, identity, dataDir)
}

// restoreDataDir is RestoreDataDir with the files read from s. A restore
// of a box still running may find an object its manifest named gone
// (the box collected it: keepAge): it begins once more from the newest
// manifest, once.
func restoreDataDir(ctx context.Context, s objectStore, url string, identity age.Identity, dataDir string) (_ *RestoredDataDir, err error) {
	dataDir, err = filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	created, err := checkEmptyDir(dataDir)
	if err != nil {
		return nil, err
	}
	if created {
		defer func() {
			if err != nil {
				os.Remove(dataDir)
			}
		}()
	}
	staging, err := os.MkdirTemp(dataDir, ".restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)
	out, err := stage(ctx, s, url, identity, staging)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNoObject) {
		if err = os.RemoveAll(staging); err == nil {
			err = os.Mkdir(staging, 0o700)
		}
		if err == nil {
			out, err = stage(ctx, s, url, identity, staging)
		}
	}
	if err != nil {
		return nil, err
	}
	out.DataDir = dataDir
	if err := moveInStaged(staging, dataDir); err != nil {
		return nil, err
	}
	if created {
		if err := os.Chmod(dataDir, 0o700); err != nil {
			return nil, err
		}
	}
	return out, syncDir(dataDir)
}

// stage restores into staging the database and every file of the newest
// manifest, each checked.
func stage(ctx context.Context, s objectStore, url string, identity age.Identity, staging string) (*RestoredDataDir, error) {
	ids := []age.Identity{identity}
	m, mkey, err := newestManifest(ctx, s, ids)
	if err != nil {
		return nil, fmt.Errorf("replica %s: files: %w", Redact(url), err)
	} else if m == nil {
		return nil, fmt.Errorf("replica %s holds no files (TSE keys, archive): was it written by a posbox that uploads them? Nothing restored", Redact(url))
	}
	files, _, err := manifestFiles(ctx, s, ids, m)
	if err != nil {
		return nil, fmt.Errorf("replica %s: %s: %w", Redact(url), mkey, err)
	}
	out := &RestoredDataDir{FilesAt: m.CreatedAt, RecoveryKey: m.RecoveryKey}
	if slices.ContainsFunc(files, func(e fileEntry) bool { return e.AppendOnly }) {
		out.HeldBack = m.ScannedAt
	}
	if err := restoreAt(ctx, url, identity, filepath.Join(staging, dbFile), out.HeldBack); err != nil {
		return nil, err
	}
	if err := os.Chmod(filepath.Join(staging, dbFile), 0o600); err != nil {
		return nil, err
	}
	for _, e := range files {
		if err := restoreFile(ctx, s, ids, staging, e); err != nil {
			return nil, fmt.Errorf("replica %s: %s: %w", Redact(url), mkey, err)
		}
		out.Files++
		out.Bytes += e.Size
		if e.Config {
			out.Config = append(out.Config, e.Path)
		}
	}
	out.ReplicatedThrough = replicatedThrough(ctx, url, out.HeldBack)
	return out, nil
}

// checkEmptyDir accepts a data dir that does not exist (made now,
// 0700: created) or is an empty folder.
func checkEmptyDir(dir string) (created bool, err error) {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, os.MkdirAll(dir, 0o700)
	case err != nil:
		return false, err
	case len(ents) > 0:
		return false, fmt.Errorf("%s is not empty: a restore from the replica rebuilds a whole data dir and never replaces anything; give a new or empty folder", dir)
	}
	return false, nil
}

// restoreFile writes e into staging (a config file into
// RestoredConfigDir), chunk by chunk, each checked, then the whole.
func restoreFile(ctx context.Context, s objectStore, ids []age.Identity, staging string, e fileEntry) error {
	rel := e.Path
	if e.Config {
		if path.Base(rel) != rel {
			return fmt.Errorf("config file %q is not a plain name", rel)
		}
		rel = RestoredConfigDir + "/" + rel
	}
	if rel == "" || path.Clean(rel) != rel || !filepath.IsLocal(filepath.FromSlash(rel)) || rel == dbFile {
		return fmt.Errorf("the manifest names %q, which is not a file of a data dir", e.Path)
	}
	p := filepath.Join(staging, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	var n int64
	for _, c := range e.Chunks {
		b, err := openObject(ctx, s, blobKey(c.SHA256), ids, c.SHA256, c.Size)
		if err != nil {
			return fmt.Errorf("%s: %w", e.Path, err)
		}
		if int64(len(b)) != c.Size {
			return fmt.Errorf("%s: a chunk of %d bytes where the manifest says %d", e.Path, len(b), c.Size)
		}
		h.Write(b)
		if _, err := f.Write(b); err != nil {
			return err
		}
		n += c.Size
	}
	if n != e.Size || hex.EncodeToString(h.Sum(nil)) != e.SHA256 {
		return fmt.Errorf("%s: its chunks do not make the file the manifest lists (size %d, SHA-256 %s)", e.Path, e.Size, e.SHA256)
	}
	if err := f.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chtimes(p, e.ModTime, e.ModTime)
}

// moveInStaged renames every entry of staging into dataDir, the database
// last; a failed move takes back what it moved.
func moveInStaged(staging, dataDir string) error {
	ents, err := os.ReadDir(staging)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if e.Name() != dbFile {
			names = append(names, e.Name())
		}
	}
	names = append(names, dbFile)
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dataDir, n)); err == nil {
			return fmt.Errorf("%s appeared in %s during the restore: nothing restored", n, dataDir)
		}
	}
	var moved []string
	for _, n := range names {
		if err := os.Rename(filepath.Join(staging, n), filepath.Join(dataDir, n)); err != nil {
			for _, m := range moved {
				os.RemoveAll(filepath.Join(dataDir, m))
			}
			return err
		}
		moved = append(moved, n)
	}
	return nil
}

// replicatedThrough is the time of the newest LTX file on the replica
// (made no later than upTo, when set): every change committed before it
// was restored.
func replicatedThrough(ctx context.Context, url string, upTo time.Time) time.Time {
	inner, err := newClient(url)
	if err != nil {
		return time.Time{}
	}
	bc := newBoundedClient(inner, 0)
	var newest *ltxInfo
	for _, level := range []int{0, 1, 2, 3, litestream.SnapshotLevel} {
		itr, err := bc.LTXFiles(ctx, level, 0, true)
		if err != nil {
			continue
		}
		for itr.Next() {
			fi := itr.Item()
			if !upTo.IsZero() && fi.CreatedAt.After(upTo) {
				continue
			}
			if newest == nil || fi.MaxTXID > newest.maxTXID {
				newest = &ltxInfo{maxTXID: fi.MaxTXID, at: fi.CreatedAt}
			}
		}
		itr.Close()
	}
	if newest == nil {
		return time.Time{}
	}
	return newest.at
}

type ltxInfo struct {
	maxTXID ltx.TXID
	at      time.Time
}
