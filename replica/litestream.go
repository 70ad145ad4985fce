package replica

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/file"
)

// levels are Litestream's compaction levels as its command line sets
// them: uploads every second (L0), merged every 30 s, 5 min and 1 h, and
// a snapshot a day (the store's default).
var levels = litestream.CompactionLevels{
	{Level: 0},
	{Level: 1, Interval: 30 * time.Second},
	{Level: 2, Interval: 5 * time.Minute},
	{Level: 3, Interval: time.Hour},
}

// shutdownSync bounds the retries of the last upload at Close (30 s in
// Litestream): a stopping box whose replica is away must not keep an
// OS service manager waiting.
const shutdownSync = 5 * time.Second

// Litestream looks at the WAL every second and uploads at most every
// second: a commit then waits up to two seconds (p99 1.2-2 s measured).
// Looking every 200 ms (a stat and a read of the WAL's header) and
// uploading at most every 500 ms keeps the lag under a second; an S3
// target then sees at most two PUTs a second while the tills sell, none
// while they do not (docs/REPLICATION.md).
const (
	monitorInterval = 200 * time.Millisecond
	syncInterval    = 500 * time.Millisecond
)

// Replicator streams one database to its replica until Close.
type Replicator struct {
	url    string // redacted
	path   string
	opts   Options
	client *cryptClient
	fc     *file.ReplicaClient // the file client, which copies the database's modes
	log    *slog.Logger
	health *health
	now    func() time.Time

	// engineMu is held for reading while the engine is used outside mu
	// (Sync) and for writing while it is closed or opened (giveUp, Close,
	// rejoin): a Sync on a closed engine would open it again, and its read
	// transaction would keep SQLite from checkpointing for good.
	engineMu sync.RWMutex
	// mu guards the fields below; the engine is nil while a backlog that
	// outgrew its bound is given up (bound_backlog.go).
	mu      sync.Mutex
	db      *litestream.DB
	rep     *litestream.Replica
	store   *litestream.Store
	backlog backlogState
	files   *filesRun // nil without opts.DataDir

	syncGap func() // a test's, between Sync's look at the engine and its use
}

// Start replicates the SQLite database at dbPath (in WAL mode, opened by
// the modernc driver in this process) to opts.URL. From now on
// Litestream owns checkpointing: the caller runs none of its own. ctx
// bounds the start only.
func Start(ctx context.Context, dbPath string, opts Options) (*Replicator, error) {
	if opts.Identity == nil {
		return nil, errors.New("replica: no recovery key")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.SyncInterval <= 0 {
		opts.SyncInterval = syncInterval
	}
	inner, err := newClient(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("replica: %w", err)
	}
	h := &health{now: time.Now}
	recips := append([]age.Recipient{opts.Identity.Recipient()}, opts.Recipients...)
	client := newCryptClient(newBoundedClient(inner, opts.CallTimeout), recips, []age.Identity{opts.Identity}, h)
	log := opts.Logger.With("replica", Redact(opts.URL))
	dropCABundle(inner, log)
	inner.SetLogger(log)

	r := &Replicator{url: Redact(opts.URL), path: dbPath, opts: opts, client: client, log: log, health: h, now: time.Now}
	if fc, ok := inner.(*file.ReplicaClient); ok {
		r.fc = fc
		client.inner = newBoundedClient(folderGuard{fc, fc.Path()}, opts.CallTimeout)
	}
	if e := r.newEngine(); r.startsGivenUp(ctx, e) {
		r.beginGivenUp() // start_given_up.go
	} else if err := r.open(ctx, e); err != nil {
		return nil, fmt.Errorf("replica: start: %w", err)
	}
	files, err := startFiles(opts, recips, h.replicatedThrough, log)
	if err != nil {
		r.Close(ctx)
		return nil, fmt.Errorf("replica: files: %w", err)
	}
	r.files = files
	r.watchBacklog()
	return r, nil
}

// engine is Litestream's database, replica and compaction store for one
// run; a backlog given up ends a run and a new one starts later.
type engine struct {
	db    *litestream.DB
	rep   *litestream.Replica
	store *litestream.Store
}

func (r *Replicator) newEngine() engine {
	db := litestream.NewDB(r.path)
	db.MonitorInterval = monitorInterval
	rep := litestream.NewReplicaWithClient(db, r.client)
	rep.SyncInterval = r.opts.SyncInterval
	db.Replica = rep
	if r.fc != nil {
		r.fc.Replica = rep // the file client copies the database's modes to the replica
	}
	st := litestream.NewStore([]*litestream.DB{db}, levels)
	st.Logger = r.log                       // NewStore gave itself and db slog.Default
	st.SetShutdownSyncTimeout(shutdownSync) // NewStore set its 30 s on db
	db.SetLogger(r.log)
	return engine{db, rep, st}
}

// open starts e and makes it the replicator's engine.
func (r *Replicator) open(ctx context.Context, e engine) error {
	if err := e.store.Open(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	r.db, r.rep, r.store = e.db, e.rep, e.store
	r.mu.Unlock()
	return nil
}

// Sync uploads everything committed so far and returns once it is on the
// replica (or the upload failed).
func (r *Replicator) Sync(ctx context.Context) error {
	r.engineMu.RLock()
	defer r.engineMu.RUnlock()
	r.mu.Lock()
	db := r.db
	r.mu.Unlock()
	if db == nil {
		return errBacklogGivenUp
	}
	if r.syncGap != nil {
		r.syncGap()
	}
	return db.SyncAndWait(ctx)
}

// Close makes a last upload and stops. Call it at shutdown, after the
// database's writers stopped and before its connections close.
func (r *Replicator) Close(ctx context.Context) error {
	r.stopBacklogWatch()
	r.engineMu.Lock()
	defer r.engineMu.Unlock()
	r.mu.Lock()
	st := r.store
	r.db, r.rep, r.store = nil, nil, nil
	r.mu.Unlock()
	var err error
	if st != nil {
		err = st.Close(ctx) // the database first: its last upload matters most
	}
	if r.files != nil {
		err = errors.Join(err, r.files.close(ctx))
	}
	return err
}

// Status is the replication's state now.
func (r *Replicator) Status() Status {
	s := Status{URL: r.url}
	r.health.status(&s)
	if r.files != nil {
		r.files.u.status(&s)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.backlogStatus(&s)
	if r.db != nil {
		b := localBacklog(r.db.LTXLevelDir(0), r.rep.Pos().TXID)
		s.BacklogFiles, s.BacklogBytes = b.files, b.bytes
		if b.files > 0 {
			s.LagSeconds = max(0, r.now().Sub(b.oldest).Seconds())
		}
	}
	if !s.BacklogGivenUpAt.IsZero() {
		// Nothing waits locally, yet the replica is behind: since the
		// last change it holds, or (not known since a restart) since the
		// backlog was given up.
		behind := s.ReplicatedThrough
		if behind.IsZero() || behind.After(s.BacklogGivenUpAt) {
			behind = s.BacklogGivenUpAt
		}
		s.LagSeconds = max(s.LagSeconds, r.now().Sub(behind).Seconds())
	}
	return s
}

// Restore writes the database of the replica at url, as of its latest
// upload, to destPath, which must not exist. identity is the recovery
// key (or any key the replica was encrypted to).
func Restore(ctx context.Context, url string, identity age.Identity, destPath string) error {
	return restoreAt(ctx, url, identity, destPath, time.Time{})
}

// restoreAt is Restore as of the point in time at (the latest when zero).
func restoreAt(ctx context.Context, url string, identity age.Identity, destPath string, at time.Time) error {
	if _, err := os.Lstat(destPath); err == nil {
		return fmt.Errorf("replica: restore: %s exists", destPath)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	inner, err := newClient(url)
	if err != nil {
		return fmt.Errorf("replica: %w", err)
	}
	dropCABundle(inner, slog.Default())
	bc := newBoundedClient(inner, 0)
	if err := bc.Init(ctx); err != nil {
		return fmt.Errorf("replica: %s: %w", Redact(url), err)
	}
	rep := litestream.NewReplicaWithClient(nil, newCryptClient(bc, nil, []age.Identity{identity}, nil))
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = destPath
	opt.IntegrityCheck = litestream.IntegrityCheckQuick
	opt.Timestamp = at
	err = rep.Restore(ctx, opt)
	if errors.Is(err, litestream.ErrNoSnapshots) || errors.Is(err, litestream.ErrTxNotAvailable) {
		return fmt.Errorf("replica: %s holds no database: %w", Redact(url), err)
	}
	return err
}
