package replica

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/s3"
	"github.com/superfly/ltx"
)

// ErrNotReady: the follower has no copy yet (the first restore has not
// finished, or the replica was not reachable so far).
var ErrNotReady = errors.New("replica: no copy of the database yet")

// FollowStatus is what a follower knows of its copy.
type FollowStatus struct {
	URL string // without a password
	// ReplicatedAt is when the box's Litestream took the newest change
	// the copy holds (the LTX file's timestamp): the copy is as of then.
	ReplicatedAt time.Time
	// CheckedAt is the last time the replica answered a listing: the copy
	// held everything the replica had then, or ReplicatedAt says how far
	// it got.
	CheckedAt  time.Time
	LastError  string // of reaching, reading or applying; cleared once up to date
	ErrorSince time.Time
	Ready      bool // a copy exists and can be read
}

// Follower keeps a read-only copy of a box's database current from its
// replica (Litestream's restore in follow mode). Only the copy, its
// -txid sidecar and their temporary files are written; the replica is
// only listed and read.
type Follower struct {
	url      string // redacted
	rawURL   string
	ids      []age.Identity
	dest     string
	interval time.Duration
	log      *slog.Logger

	// apply is held for writing while Litestream writes a change into
	// the copy and for reading by Read: Litestream's own fcntl lock does
	// not keep readers of the same process out (POSIX locks are per
	// process), so the HQ's queries would see half-applied pages.
	apply sync.RWMutex

	mu     sync.Mutex
	stamps map[ltx.TXID]time.Time // MaxTXID → timestamp of the LTX files opened
	l0     l0Note                 // the newest level-0 file opened
	st     FollowStatus
	done   chan struct{}
}

// Follow keeps destPath a current copy of the database on the replica at
// url, read with identities (a key the box encrypted to: its recovery
// key, or HQ's key listed in its replica_recipients), polling every
// interval (1 s when zero), until ctx ends. A replica missing or away at
// start is retried; the status says so. An existing copy resumes where
// its -txid sidecar says; one the replica no longer continues (history
// pruned, the box replaced) is restored fresh.
func Follow(ctx context.Context, url string, identities []age.Identity, destPath string, interval time.Duration) (*Follower, error) {
	if len(identities) == 0 {
		return nil, errors.New("replica: follow: no key")
	}
	if _, err := newClient(url); err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	if interval <= 0 {
		interval = litestream.DefaultFollowInterval
	}
	f := &Follower{url: Redact(url), rawURL: url, ids: identities, dest: destPath, interval: interval,
		stamps: map[ltx.TXID]time.Time{}, done: make(chan struct{})}
	f.log = slog.New(&errorTap{Handler: slog.Default().Handler(), f: f}).With("follow", f.url)
	f.st.URL = f.url
	go f.run(ctx)
	return f, nil
}

// Done is closed once the follower stopped (its ctx ended).
func (f *Follower) Done() <-chan struct{} { return f.done }

// Status is the follower's state now.
func (f *Follower) Status() FollowStatus {
	f.replicatedAt()
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.st
	s.Ready = fileExists(f.dest) && fileExists(litestream.TXIDPath(f.dest))
	return s
}

// Read runs fn with the copy's path while no change is being applied to
// it; fn opens the copy read-only and closes it before it returns.
// ErrNotReady before the first restore finished.
func (f *Follower) Read(fn func(path string) error) error {
	for range 2 {
		f.apply.RLock()
		marked, err := f.readable()
		if err == nil && marked {
			defer f.apply.RUnlock()
			return fn(f.dest)
		}
		f.apply.RUnlock()
		if err != nil {
			return err
		}
		if err := f.prepareCopy(); err != nil {
			return err
		}
	}
	return ErrNotReady // restored afresh twice meanwhile
}

// readable reports whether the copy is marked for readers (prepareCopy);
// ErrNotReady without a copy.
func (f *Follower) readable() (bool, error) {
	if !fileExists(litestream.TXIDPath(f.dest)) {
		return false, ErrNotReady
	}
	file, err := os.Open(f.dest)
	if err != nil {
		return false, err
	}
	defer file.Close()
	var b [2]byte
	if _, err := file.ReadAt(b[:], 18); err != nil {
		return false, err
	}
	return b == [2]byte{1, 1}, nil
}

// prepareCopy marks a fresh copy as a rollback-journal database: the
// restore leaves the box's WAL mode in its header, and a read-only
// connection cannot open a WAL database without its -shm file.
// Litestream writes the same mark into page 1 with every change.
func (f *Follower) prepareCopy() error {
	f.apply.Lock()
	defer f.apply.Unlock()
	if !fileExists(litestream.TXIDPath(f.dest)) {
		return ErrNotReady
	}
	file, err := os.OpenFile(f.dest, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer file.Close()
	var b [2]byte
	if _, err := file.ReadAt(b[:], 18); err != nil {
		return err
	}
	if b == [2]byte{1, 1} {
		return nil
	}
	if _, err := file.WriteAt([]byte{1, 1}, 18); err != nil {
		return err
	}
	return file.Sync()
}

// run restores and follows until ctx ends, starting over after a
// failure: at once with a fresh restore when the copy cannot continue,
// else after a pause.
func (f *Follower) run(ctx context.Context) {
	defer close(f.done)
	pause := max(5*f.interval, 2*time.Second)
	for ctx.Err() == nil {
		err := f.followOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		var fresh errStartFresh
		if errors.As(err, &fresh) {
			f.log.Warn("follow: the copy cannot continue; restoring it fresh", "reason", fresh.reason)
			f.removeCopy()
			continue
		}
		f.failed(err)
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
}

// errStartFresh: the copy must be dropped and restored again.
type errStartFresh struct{ reason string }

func (e errStartFresh) Error() string { return e.reason }

// followOnce runs one restore in follow mode and watches it; it returns
// when the restore failed, or the watch found the copy stuck.
func (f *Follower) followOnce(ctx context.Context) error {
	inner, err := newClient(f.rawURL)
	if err != nil {
		return err
	}
	dropCABundle(inner, f.log)
	inner.SetLogger(f.log)
	// File and SFTP replicas list a file's time as its header's timestamp
	// (its mtime); S3 lists the upload's time, which tells nothing.
	_, isS3 := inner.(*s3.ReplicaClient)
	exactTimes := !isS3
	bc := newBoundedClient(inner, 0)
	if err := bc.Init(ctx); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	cc := newCryptClient(bc, nil, f.ids, nil)
	db := litestream.NewDB(f.dest) // never opened: it carries the logger to the restore
	db.Logger = f.log
	rep := litestream.NewReplicaWithClient(db, &applyClient{cryptClient: cc, f: f})
	opt := litestream.NewRestoreOptions()
	opt.OutputPath, opt.Follow, opt.FollowInterval = f.dest, true, f.interval
	opt.IntegrityCheck = litestream.IntegrityCheckQuick

	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := make(chan error, 1)
	go func() { res <- rep.Restore(rctx, opt) }()
	w := watch{}
	tick := time.NewTicker(max(5*f.interval, 2*time.Second))
	defer tick.Stop()
	for {
		select {
		case err := <-res:
			return f.restoreEnded(ctx, err)
		case <-tick.C:
			if err := f.check(ctx, bc, cc, &w, exactTimes); err != nil {
				cancel()
				<-res
				return err
			}
		}
	}
}

// restoreEnded classifies the end of Litestream's restore.
func (f *Follower) restoreEnded(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return nil
	case err == nil:
		return errors.New("follow ended")
	case errors.Is(err, litestream.ErrNoSnapshots) || errors.Is(err, litestream.ErrTxNotAvailable):
		return fmt.Errorf("the replica holds no database yet: %w", err)
	case strings.Contains(err.Error(), "cannot resume follow mode"):
		// The replica does not continue the copy (history pruned, the
		// box replaced, no sidecar): it is only a copy, restore it again.
		return errStartFresh{err.Error()}
	}
	return err
}

func (f *Follower) removeCopy() {
	f.apply.Lock()
	defer f.apply.Unlock()
	for _, p := range []string{f.dest, litestream.TXIDPath(f.dest), f.dest + "-journal", f.dest + "-wal", f.dest + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			f.log.Warn("follow: remove the old copy", "file", p, "err", err)
		}
	}
	f.mu.Lock()
	clear(f.stamps)
	f.l0 = l0Note{}
	f.st.ReplicatedAt = time.Time{}
	f.mu.Unlock()
}

// failed records err; changed says it differs from the error before.
func (f *Follower) failed(err error) (changed bool) {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st.LastError == "" {
		f.st.ErrorSince = time.Now()
	}
	changed = f.st.LastError != err.Error()
	f.st.LastError = err.Error()
	return changed
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
