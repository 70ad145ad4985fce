package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"posbox/migrations"
)

// FileName is the database file inside the data directory.
const FileName = "posbox.db"

// Options tune Open; the zero value is fine.
type Options struct {
	Now    func() time.Time // clock; time.Now when nil
	Logger *slog.Logger
	// Synchronous is SQLite's synchronous pragma: FULL (default) makes every
	// acknowledged commit survive a power cut.
	Synchronous string
	// PasswordChanged, when set, is called after a commit that changed a
	// user's password (serve removes the first admin's password file).
	PasswordChanged func(u *User)
	// BcryptCost hashes passwords; bcrypt.DefaultCost+2 (12) when zero.
	// Tests lower it.
	BcryptCost int
	// ExternalCheckpoints is set while replication (package replica,
	// Litestream) runs on this database: Litestream owns checkpointing,
	// since a checkpoint it did not make moves WAL frames it may not have
	// copied yet into the database file, where it can only find them again
	// by starting over with a snapshot. Close then skips its
	// wal_checkpoint(TRUNCATE); SQLite's own PASSIVE auto-checkpoint stays,
	// as Litestream's read lock keeps it behind what was copied.
	ExternalCheckpoints bool
}

// Store is the database of one appliance.
type Store struct {
	wdb  *sql.DB // one connection, BEGIN IMMEDIATE: all writes
	rdb  *sql.DB // query_only pool: reads
	path string
	now  func() time.Time
	log  *slog.Logger

	bcryptCost      int
	passwordChanged func(u *User)
	extCheckpoints  bool      // Options.ExternalCheckpoints
	dummyOnce       sync.Once // dummyHash
	dummy           []byte
	queued          chan struct{} // nudged after a commit that queued deliveries

	w    *writer    // the group-commit writer goroutine's state
	rs   *stmtCache // prepared statements of the reader pool
	auth *authView  // users and restaurants as auth sees them

	// The schema version Open found and the one it migrated to.
	schemaBefore, schemaVersion int64
}

// Open opens (creating if needed) the database in dataDir and applies the
// embedded migrations. It refuses a database newer than this binary.
func Open(ctx context.Context, dataDir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	abs, err := filepath.Abs(filepath.Join(dataDir, FileName))
	if err != nil {
		return nil, err
	}
	// A new database starts as an empty file of mode 0600, which SQLite
	// keeps (and gives its -wal and -shm files).
	if f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create database: %w", err)
	}
	if err := chmodPrivate(abs); err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	sync := opts.Synchronous
	switch sync {
	case "":
		sync = "FULL"
	case "FULL", "NORMAL", "EXTRA":
	default:
		return nil, fmt.Errorf("synchronous: %q is not FULL, NORMAL or EXTRA", sync)
	}
	if opts.BcryptCost == 0 {
		opts.BcryptCost = 12
	}
	s := &Store{path: abs, now: opts.Now, log: opts.Logger, bcryptCost: opts.BcryptCost, passwordChanged: opts.PasswordChanged,
		extCheckpoints: opts.ExternalCheckpoints, queued: make(chan struct{}, 1), auth: newAuthView()}
	go s.dummyHash() // ready before the first login with an unknown email

	// busy_timeout runs first; the other pragmas run on every new connection.
	base := "file:" + filepath.ToSlash(abs) +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(" + sync + ")"
	// The writer's savepoint journal in memory: each operation of a batch
	// runs in a SAVEPOINT, which copies the pages it first changes; past
	// 64 KiB SQLite spills that journal to a temporary file, and a batch
	// of clock-ins then spent a sixth of its time in pwrite. Every
	// operation is bounded (retention deletes in chunks), so the journal
	// is too. Its page cache is 32 MiB (SQLite's default is 2 MiB): a
	// commit by another connection drops a connection's cache, and the
	// writer is the only one that commits, so what it reads stays. At year
	// ten a closing looks up its 300 sales' rows in ten years of indexes
	// keyed by random transaction ids, and in 2 MiB those pages were read
	// from the file again (docs/PERFORMANCE.md, "Year ten, fourth pass").
	if s.wdb, err = sql.Open("sqlite", base+"&_txlock=immediate&_pragma=temp_store(MEMORY)&_pragma=cache_size(-32768)"); err != nil {
		return nil, err
	}
	s.wdb.SetMaxOpenConns(1)
	s.wdb.SetMaxIdleConns(1)
	s.wdb.SetConnMaxIdleTime(0)
	s.wdb.SetConnMaxLifetime(0)
	// 16 MiB of page cache per reader (SQLite's default is 2 MiB): a day's
	// sales at year ten touch about 2,800 pages of the random-id indexes,
	// which the default cache dropped between requests, so each read them
	// again (docs/PERFORMANCE.md, "Year ten"). Pages are taken as read:
	// idle RSS does not change.
	if s.rdb, err = sql.Open("sqlite", base+"&_pragma=query_only(1)&_pragma=cache_size(-16384)"); err != nil {
		s.wdb.Close()
		return nil, err
	}
	// Idle = open and no idle timeout: a reader connection, once opened,
	// stays with its page cache and prepared statements (the default of
	// 2 idle closed and reopened the others under load).
	readers := max(4, runtime.NumCPU())
	s.rdb.SetMaxOpenConns(readers)
	s.rdb.SetMaxIdleConns(readers)
	s.rdb.SetConnMaxIdleTime(0)
	s.rdb.SetConnMaxLifetime(0)
	s.rs = newStmtCache(s.rdb)
	if err := s.migrate(ctx); err != nil {
		s.wdb.Close()
		s.rdb.Close()
		return nil, err
	}
	s.w = &writer{ops: make(chan *writeOp, writeQueueLen), closing: make(chan struct{}), stopped: make(chan struct{}),
		stmts: map[string]*sql.Stmt{}, toPrepare: map[string]bool{}, batchStmts: map[string]*sql.Stmt{}}
	go s.runWriter()
	// SQLite creates the files 0644 less the umask, and an older posbox
	// left them so: they hold personal data and fiscal records, whatever
	// the umask and the data dir's mode. The -wal and -shm files SQLite
	// makes later take the database file's mode.
	if err := chmodPrivate(abs, abs+"-wal", abs+"-shm"); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// migrate applies pending migrations through a short-lived unbounded pool
// (goose holds one connection and needs a second for its version table).
func (s *Store) migrate(ctx context.Context) error {
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(s.path)+
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return err
	}
	defer db.Close()
	if err := newFileAutoVacuum(ctx, db); err != nil {
		return fmt.Errorf("auto_vacuum: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	have, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	sources := p.ListSources()
	if want := sources[len(sources)-1].Version; have > want {
		return fmt.Errorf("database schema version %d is newer than this binary's %d: upgrade posbox", have, want)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// The program-change log (RecordProgramVersion) says which schema
	// the start found and which it left.
	s.schemaBefore, s.schemaVersion = have, sources[len(sources)-1].Version
	for _, r := range results {
		s.log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// Path is the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Now is the store's clock.
func (s *Store) Now() time.Time { return s.now() }

// Close stops the writer (the batch it runs is finished; writes still
// queued get ErrClosed), checkpoints the WAL (unless replication owns
// checkpoints, Options.ExternalCheckpoints) and closes both pools.
func (s *Store) Close() error {
	var errs []error
	s.w.close()
	s.rs.close()
	if s.wdb != nil {
		if !s.extCheckpoints {
			_, _ = s.wdb.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		}
		errs = append(errs, s.wdb.Close())
	}
	if s.rdb != nil {
		errs = append(errs, s.rdb.Close())
	}
	return errors.Join(errs...)
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.rdb.PingContext(ctx) }

// Tx is one write operation's view of the shared transaction of its
// batch, with the instant the operation began, so every row it writes
// carries the same time. Its ExecContext, QueryContext and QueryRowContext
// (writer.go) reuse prepared statements.
type Tx struct {
	*sql.Tx
	Now time.Time

	st          *Store
	afterCommit []func() // run once the commit succeeded
	nowText     string   // FormatTime(Now), once
}

// NowText is FormatTime(tx.Now), formatted once per operation.
func (tx *Tx) NowText() string {
	if tx.nowText == "" {
		tx.nowText = FormatTime(tx.Now)
	}
	return tx.nowText
}

// Write runs fn as one write operation (see write).
// Nothing in the appliance calls it: every write it makes has a typed
// function in this package. It is exported for the tests and benchmarks of
// other packages, which need rows the API cannot make (back-dated events
// and keys, bulk fixtures).
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) error { return s.write(ctx, fn) }

// ReadDB is the query_only pool. Like Write it is for other packages'
// tests (counting rows an assertion needs); it can change nothing.
func (s *Store) ReadDB() *sql.DB { return s.rdb }

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// rowsQueryer is the reader pool or a write transaction.
type rowsQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// eachRow runs fn on every row of query.
func eachRow(ctx context.Context, q rowsQueryer, fn func(scanner) error, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// queryAll runs query and scans every row with scan; no rows is an empty
// slice, not nil.
func queryAll[T any](ctx context.Context, q rowsQueryer, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	out := []T{}
	if err := eachRow(ctx, q, func(sc scanner) error {
		v, err := scan(sc)
		out = append(out, v)
		return err
	}, query, args...); err != nil {
		return nil, err
	}
	return out, nil
}
