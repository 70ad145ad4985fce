package replica

import (
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
)

// defaultFilesInterval is how often the data dir is scanned for changed
// files (size and mtime: cheap): the simulator's journal lags the
// database by seconds.
const defaultFilesInterval = 2 * time.Second

// heartbeat: a manifest is written at least this often while nothing
// changes, its ScannedAt saying the files were still so. A scan also
// writes one when the database's replication advanced since the last:
// a restore holds the database back to the newest manifest's ScannedAt
// (filesManifest.ScannedAt), which so stays within a scan of what the
// replica holds.
const heartbeat = 30 * time.Second

// fileUploader keeps the newest state of the data dir's files on the
// replica: chunks as blobs, then a manifest naming them all.
type fileUploader struct {
	store      objectStore
	recips     []age.Recipient
	ids        []age.Identity
	dataDir    string
	include    func(rel string) bool
	appendOnly func(rel string) bool
	extra      map[string]string // config name → path
	log        *slog.Logger
	now        func() time.Time
	// recovery is the public key of the box's recovery key, for the
	// manifest (filesManifest.RecoveryKey).
	recovery string
	// through is the database's replication (Status.ReplicatedThrough):
	// nil when not known.
	through func() time.Time

	known map[string]bool       // blob hashes on the replica
	state map[string]*fileState // by entry key (configKey for config files)
	last  *filesManifest        // the newest manifest on the replica
	// lastThrough is through() when last was written.
	lastThrough time.Time
	// dirty: a file was read anew (or went) since last was written.
	dirty  bool
	kept   map[string][]string // manifest key → the trees it names
	trees  map[string][]string // tree → the blob hashes it names (itself too)
	primed bool                // known, last and kept read from the replica
	lastGC time.Time
	buf    []byte

	mu      sync.Mutex
	at      time.Time // every file was on the replica then
	lastErr string

	errSince time.Time // the first failure of lastErr's run, under mu
}

// fileState is what the last scan knew of one file.
type fileState struct {
	entry fileEntry
	// sealed is the SHA-256 state after the file's big chunks, for an
	// append-only file: its next scan hashes only what follows.
	sealed []byte
}

// errGone: a file the walk found was gone when it was opened.
var errGone = errors.New("file gone")

// configKey keys a config file's state apart from a data-dir file.
func configKey(name string) string { return "\x00config/" + name }

// candidate is one file a scan found.
type candidate struct {
	key, rel, abs string
	config        bool
	info          fs.FileInfo
}

// scan lists the files that go along: the data dir's files include
// takes, then the config files.
func (u *fileUploader) scan() ([]candidate, error) {
	var out []candidate
	err := filepath.WalkDir(u.dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p != u.dataDir {
				return nil // gone since the folder was read
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(u.dataDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !u.include(rel) {
			return nil
		}
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		out = append(out, candidate{key: rel, rel: rel, abs: p, info: fi})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(mapKeys(u.extra)) {
		fi, err := os.Stat(u.extra[name])
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone (a config file moved): the others still go along
		} else if err != nil {
			return nil, fmt.Errorf("config file %s: %w", name, err)
		}
		out = append(out, candidate{key: configKey(name), rel: name, abs: u.extra[name], config: true, info: fi})
	}
	return out, nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// sync makes the replica hold the files as they are now: the chunks it
// lacks, then a new manifest if anything changed since the last one.
func (u *fileUploader) sync(ctx context.Context) error {
	if !u.primed {
		if err := u.prime(ctx); err != nil {
			return err
		}
	}
	var through time.Time
	if u.through != nil {
		// Before the scan: whatever the replica held then is older than
		// scanned, so a restore as of scanned has it.
		through = u.through()
	}
	scanned := u.now().UTC()
	cands, err := u.scan()
	if err != nil {
		return err
	}
	var files []fileEntry
	seen := map[string]bool{}
	for _, c := range cands {
		prev := u.state[c.key]
		e, err := u.entry(ctx, c)
		if errors.Is(err, errGone) {
			u.dirty = true
			continue // gone since the walk (a temporary file renamed)
		} else if err != nil {
			return err
		}
		u.dirty = u.dirty || prev != u.state[c.key]
		files = append(files, e)
		seen[c.key] = true
	}
	for k := range u.state {
		if !seen[k] {
			delete(u.state, k) // deleted from the data dir
			u.dirty = true
		}
	}
	if cap(u.buf) > smallChunk {
		// A big chunk's buffer is not kept between scans, and what
		// reading and encrypting it took goes back to the system now,
		// not minutes later: a Pi has little memory, and big chunks
		// are rare (the first scan, a month's archive).
		u.buf = nil
		debug.FreeOSMemory()
	}
	m := &filesManifest{Format: manifestFormat, Version: manifestVersion, ScannedAt: scanned, RecoveryKey: u.recovery}
	if !u.dirty && u.last != nil { // every file as in the last manifest: its trees stand
		m.Trees = u.last.Trees
	} else if m.Trees, err = u.writeTrees(ctx, files); err != nil {
		return err
	}
	if u.last != nil && slices.Equal(u.last.Trees, m.Trees) {
		u.dirty = false
		dbAdvanced := through.After(u.lastThrough)
		if scanned.Sub(u.last.ScannedAt) < heartbeat && !dbAdvanced && u.last.RecoveryKey == m.RecoveryKey {
			return u.collect(ctx)
		}
	}
	m.CreatedAt = u.now().UTC()
	if u.last != nil && !m.CreatedAt.After(u.last.CreatedAt) {
		m.CreatedAt = u.last.CreatedAt.Add(time.Nanosecond) // names stay in order
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	key := manifestKey(m.CreatedAt)
	if err := putVerified(ctx, u.store, key, b, u.recips, u.ids); err != nil {
		return err
	}
	u.last, u.lastThrough, u.kept[key], u.dirty = m, through, treeSums(m), false
	return u.collect(ctx)
}

// writeTrees uploads the tree of every folder (and the sealed lists of
// its files) the replica lacks and returns the trees, sorted by folder;
// u.trees gets the blobs each refers to.
func (u *fileUploader) writeTrees(ctx context.Context, files []fileEntry) ([]treeRef, error) {
	byDir := map[string][]fileEntry{}
	refs := map[string][]string{}
	for _, e := range files {
		d := treeDir(e)
		for _, c := range e.Chunks {
			refs[d] = append(refs[d], c.SHA256)
		}
		se, list := stored(e)
		if list != nil {
			if err := u.putBlob(ctx, se.Sealed, list); err != nil {
				return nil, err
			}
			refs[d] = append(refs[d], se.Sealed)
		}
		byDir[d] = append(byDir[d], se)
	}
	var trees []treeRef
	for _, dir := range slices.Sorted(mapKeys(byDir)) {
		entries := byDir[dir]
		slices.SortFunc(entries, func(a, b fileEntry) int { return strings.Compare(a.Path, b.Path) })
		b, err := json.Marshal(entries)
		if err != nil {
			return nil, err
		}
		t := treeRef{Dir: dir, SHA256: sumHex(b), Files: len(entries)}
		for _, e := range entries {
			t.Bytes += e.Size
		}
		if err := u.putBlob(ctx, t.SHA256, b); err != nil {
			return nil, err
		}
		trees = append(trees, t)
		u.trees[t.SHA256] = append(refs[dir], t.SHA256)
	}
	return trees, nil
}

// putBlob uploads plain as the blob sum unless the replica has it.
func (u *fileUploader) putBlob(ctx context.Context, sum string, plain []byte) error {
	if u.known[sum] {
		return nil
	}
	if err := putVerified(ctx, u.store, blobKey(sum), plain, u.recips, u.ids); err != nil {
		return err
	}
	u.known[sum] = true
	return nil
}

// entry is the manifest entry of c, its chunks on the replica. A file
// whose size and mtime are as the last scan saw them is not read again.
func (u *fileUploader) entry(ctx context.Context, c candidate) (fileEntry, error) {
	mode := uint32(c.info.Mode().Perm())
	prev := u.state[c.key]
	if prev != nil && prev.entry.Size == c.info.Size() && prev.entry.ModTime.Equal(c.info.ModTime()) && prev.entry.Mode == mode {
		return prev.entry, nil
	}
	appendOnly := !c.config && u.appendOnly != nil && u.appendOnly(c.rel)
	e := fileEntry{Path: c.rel, Config: c.config, AppendOnly: appendOnly, Size: c.info.Size(), Mode: mode, ModTime: c.info.ModTime().UTC()}
	h := sha256.New()
	var from int64
	if appendOnly && prev != nil && prev.sealed != nil && c.info.Size() >= sealedEnd(prev.entry.Size) {
		// Appended: the big chunks are as they were.
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(prev.sealed); err == nil {
			from = sealedEnd(prev.entry.Size)
			e.Chunks = slices.Clone(prev.entry.Chunks[:from/bigChunk])
		} else {
			h.Reset()
		}
	}
	st := &fileState{}
	if err := u.readChunks(ctx, c.abs, from, &e, h, st); err != nil {
		return fileEntry{}, err
	}
	e.SHA256 = hex.EncodeToString(h.Sum(nil))
	st.entry = e
	u.state[c.key] = st
	return e, nil
}

// readChunks hashes the file at abs from off to e.Size into h, chunk by
// chunk, uploading every chunk the replica lacks; st.sealed gets h's
// state at the end of the big chunks.
func (u *fileUploader) readChunks(ctx context.Context, abs string, off int64, e *fileEntry, h hash.Hash, st *fileState) error {
	f, err := os.Open(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %v", errGone, err)
	} else if err != nil {
		return err
	}
	defer f.Close()
	for {
		if off == sealedEnd(e.Size) {
			st.sealed, _ = h.(encoding.BinaryMarshaler).MarshalBinary()
		}
		if off >= e.Size {
			return nil
		}
		end := chunkEnd(off, e.Size)
		if cap(u.buf) < int(end-off) {
			u.buf = make([]byte, bigChunk)
		}
		b := u.buf[:end-off]
		if _, err := f.ReadAt(b, off); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%s shrank while being read; trying again", e.Path)
			}
			return err
		}
		h.Write(b)
		sum := sumHex(b)
		if err := u.putBlob(ctx, sum, b); err != nil {
			return err
		}
		e.Chunks = append(e.Chunks, chunkRef{SHA256: sum, Size: end - off})
		off = end
	}
}

// run scans every interval until ctx ends; a request on now runs a scan
// at once and gets its outcome.
func (u *fileUploader) run(ctx context.Context, interval time.Duration, now chan chan error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			u.record(u.sync(ctx))
		case reply := <-now:
			err := u.sync(ctx)
			u.record(err)
			reply <- err
		}
	}
}

// record keeps the outcome of a scan for Status.
func (u *fileUploader) record(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err != nil {
		if u.lastErr != err.Error() {
			u.log.Warn("replica: files", "err", err)
		}
		if u.lastErr == "" {
			u.errSince = u.now()
		}
		u.lastErr = err.Error()
		return
	}
	u.at, u.lastErr, u.errSince = u.now(), "", time.Time{}
}

func (u *fileUploader) status(s *Status) {
	u.mu.Lock()
	defer u.mu.Unlock()
	s.FilesAt, s.FilesError, s.FilesErrorSince = u.at, u.lastErr, u.errSince
}
