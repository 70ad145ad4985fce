package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
)

// Group commit (docs/DESIGN.md, "The write path"). Every write is an
// operation handed to one writer goroutine, which runs the operations
// waiting in its queue in one transaction, each inside its own SAVEPOINT,
// and commits them together: one fsync for the batch instead of one per
// request. An operation that fails is rolled back to its savepoint and
// changes nothing; the others go on. Nobody is answered before the
// shared COMMIT succeeded (synchronous=FULL: then it is durable); a failed
// COMMIT fails every operation of the batch. Under concurrent writers a
// batch waits briefly for more operations before it commits
// (writer_gather.go).
const (
	// maxBatchOps and maxBatchTime bound a batch: a caller never waits
	// behind more than this before its commit starts.
	maxBatchOps  = 128
	maxBatchTime = 25 * time.Millisecond
	// writeQueueLen is how many operations may wait for the writer; more
	// callers block in write until there is room (back-pressure).
	writeQueueLen = 1024
	// maxCachedWriteStmts bounds the writer's prepared statements (texts
	// built at run time, such as IN lists, would otherwise grow it).
	maxCachedWriteStmts = 256
)

// ErrClosed is the answer to a write after Close.
var ErrClosed = errors.New("store: closed")

// Operation states: queued until the writer takes it (or its caller
// gives up and takes it back), then running until answered.
const (
	opQueued int32 = iota
	opRunning
	opCancelled
)

type writeOp struct {
	ctx   context.Context
	fn    func(tx *Tx) error
	state atomic.Int32
	done  chan opResult // buffered: the writer never blocks on it
	// then, for an operation nobody waits for (writeAsync), is called by
	// the writer with the outcome, after the commit and the
	// operation's afterCommit hooks; it must not block.
	then func(err error)
	// lazy: the operation starts no batch of its own; it joins the next
	// operation's, or commits alone after lazyDelay.
	lazy bool
}

// lazyDelay is how long a lazy operation waits for company.
const lazyDelay = 50 * time.Millisecond

type opResult struct {
	err         error
	afterCommit []func()
	panicked    any // fn panicked: re-raised in the caller's goroutine
	stack       []byte
}

// writer is the state of the writer goroutine; only that goroutine
// touches it.
type writer struct {
	ops     chan *writeOp
	closing chan struct{} // closed by Close: no new operations
	stopped chan struct{} // closed when the goroutine has returned

	// sendMu makes Close and the senders exclusive: once closed is set no
	// operation enters ops, so the writer's last drain answers them all.
	sendMu sync.RWMutex
	closed bool

	stmts     map[string]*sql.Stmt // prepared on the writer connection
	toPrepare map[string]bool      // seen in a batch; prepared after it
	// batchStmts are stmts bound to the running batch's transaction:
	// binding one (Tx.StmtContext) for every statement of every operation
	// was a thirtieth of a clock-in. database/sql closes them with the
	// transaction; the next batch clears the map.
	batchStmts map[string]*sql.Stmt
	hooked     any // the driver connection the hooks are on

	// touched is set by the pre-update hook while a batch runs: it wrote
	// users or restaurants, so the auth view is dropped after the commit.
	touched bool
	// rules is the copy of the enabled notification rules
	// (writer_rules.go); nil when dropped.
	rules map[ruleKey][]string

	// lastBatch is how many operations the last batch ran: more than one
	// means callers write concurrently, so the next batch gathers.
	lastBatch int
	gatherT   *time.Timer

	commits atomic.Uint64 // successful COMMITs (= fsyncs of the WAL)
	opsDone atomic.Uint64 // operations acknowledged
}

// write runs fn as one operation of the next group commit and returns
// once that commit is durable (or fn's own error, with nothing it did
// kept). A caller whose ctx ends while its operation still waits takes it
// back; once the writer runs it, the caller waits for the commit.
func (s *Store) write(ctx context.Context, fn func(tx *Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	op := &writeOp{ctx: ctx, fn: fn, done: make(chan opResult, 1)}
	if err := s.w.enqueue(op); err != nil {
		return err
	}
	var r opResult
	select {
	case r = <-op.done:
	case <-ctx.Done():
		if op.state.CompareAndSwap(opQueued, opCancelled) {
			return ctx.Err()
		}
		r = <-op.done
	}
	if r.panicked != nil {
		panic(fmt.Sprintf("%v\n\n(in the store's writer; the operation's stack:)\n%s", r.panicked, r.stack))
	}
	if r.err != nil {
		return r.err
	}
	for _, f := range r.afterCommit {
		f()
	}
	return nil
}

// writeAsync hands fn to the writer without waiting: then gets the
// outcome once the batch is committed (nil) or failed. Operations run in
// the order they were handed over, so a later write (waited for or not)
// sees this one. It blocks only while the writer's queue is full. then
// and fn's afterCommit hooks run on the writer goroutine: they must not
// block, and must not write (that would wait for the writer itself).
func (s *Store) writeAsync(fn func(tx *Tx) error, then func(err error), lazy bool) {
	op := &writeOp{ctx: context.Background(), fn: fn, done: make(chan opResult, 1), then: then, lazy: lazy}
	if err := s.w.enqueue(op); err != nil {
		then(err)
	}
}

// enqueue hands op to the writer, waiting while the queue is full.
func (w *writer) enqueue(op *writeOp) error {
	w.sendMu.RLock()
	defer w.sendMu.RUnlock()
	if w.closed {
		return ErrClosed
	}
	select {
	case w.ops <- op:
		return nil
	case <-op.ctx.Done():
		return op.ctx.Err()
	}
}

// close stops the writer: the batch it runs is finished, operations
// still queued get ErrClosed, later ones too.
func (w *writer) close() {
	w.sendMu.Lock()
	if w.closed {
		w.sendMu.Unlock()
		<-w.stopped
		return
	}
	w.closed = true
	w.sendMu.Unlock()
	close(w.closing)
	<-w.stopped
}

// runWriter is the writer goroutine: it takes the first waiting
// operation, starts a batch and adds to it whatever is queued until the
// batch is full or old enough, then commits.
func (s *Store) runWriter() {
	w := s.w
	defer close(w.stopped)
	lazy := time.NewTimer(lazyDelay)
	lazy.Stop()
	for {
		var first, second *writeOp
		select {
		case first = <-w.ops:
		case <-w.closing:
			w.drainClosed()
			return
		}
		if first.lazy {
			lazy.Reset(lazyDelay)
			select {
			case second = <-w.ops:
			case <-lazy.C:
			case <-w.closing:
			}
			lazy.Stop()
		}
		s.runBatch(first, second)
		w.prepareSeen(s.wdb)
	}
}

// drainClosed answers the operations still queued at Close.
func (w *writer) drainClosed() {
	for {
		select {
		case op := <-w.ops:
			if op.state.CompareAndSwap(opQueued, opRunning) {
				deliver(op, opResult{err: ErrClosed})
			}
		default:
			return
		}
	}
}

// batchOp is an operation that ran in the current batch.
type batchOp struct {
	op  *writeOp
	res opResult
}

// runBatch runs first (and second, when not nil) and whatever else is
// queued, up to the batch's bounds, and commits.
func (s *Store) runBatch(first, second *writeOp) {
	w := s.w
	ctx := context.Background() // the batch outlives any one caller
	conn, err := s.wdb.Conn(ctx)
	var tx *sql.Tx
	if err == nil {
		defer conn.Close()
		if err = w.hook(conn); err == nil {
			tx, err = conn.BeginTx(ctx, nil)
		}
	}
	if err != nil {
		// No transaction: these operations fail; the next batch tries again.
		for _, op := range []*writeOp{first, second} {
			if op != nil && op.state.CompareAndSwap(opQueued, opRunning) {
				deliver(op, opResult{err: err})
			}
		}
		return
	}
	w.touched = false
	clear(w.batchStmts)
	var ran []batchOp
	start := time.Now()
	next := first
	for {
		if next.state.CompareAndSwap(opQueued, opRunning) {
			res, broken := s.runOp(tx, next)
			ran = append(ran, batchOp{next, res})
			if broken != nil {
				// The savepoint could not be undone (SQLite rolled the
				// whole transaction back, as it does on some I/O
				// errors): nothing of this batch is kept.
				_ = tx.Rollback()
				_, _ = conn.ExecContext(ctx, "ROLLBACK")
				w.dropRules()
				s.answer(ran, broken)
				return
			}
		}
		if second != nil {
			next, second = second, nil
			continue
		}
		if len(ran) >= maxBatchOps || time.Since(start) >= maxBatchTime {
			break
		}
		select {
		case next = <-w.ops:
			continue
		default:
		}
		if next = w.gather(len(ran), start); next != nil {
			continue
		}
		break
	}
	w.lastBatch = len(ran)
	if err := tx.Commit(); err != nil {
		// SQLite may keep the transaction open after a failed COMMIT (a
		// deferred foreign key, SQLITE_BUSY); database/sql considers it
		// done, so end it on the connection before it serves the next batch.
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		w.dropRules()
		s.answer(ran, fmt.Errorf("commit: %w", err))
		return
	}
	w.commits.Add(1)
	w.opsDone.Add(uint64(len(ran)))
	if w.touched {
		// Before anyone is answered: a request that follows a change of a
		// user or restaurant must not see the old view.
		s.auth.invalidate()
	}
	s.answer(ran, nil)
}

// answer sends each operation its outcome; a non-nil batchErr (the
// commit failed) replaces every success.
func (s *Store) answer(ran []batchOp, batchErr error) {
	for _, b := range ran {
		r := b.res
		if batchErr != nil && r.err == nil && r.panicked == nil {
			r = opResult{err: batchErr}
		}
		deliver(b.op, r)
	}
}

// deliver answers an operation: its waiting caller, or its then.
func deliver(op *writeOp, r opResult) {
	if op.then == nil {
		op.done <- r
		return
	}
	err := r.err
	if r.panicked != nil {
		err = fmt.Errorf("store: write operation panicked: %v\n%s", r.panicked, r.stack)
	}
	if err == nil {
		for _, f := range r.afterCommit {
			f()
		}
	}
	op.then(err)
}

// runOp runs one operation inside its own savepoint. broken is set when
// the transaction itself is gone.
func (s *Store) runOp(tx *sql.Tx, op *writeOp) (res opResult, broken error) {
	bg := context.Background()
	t := &Tx{Tx: tx, Now: s.now().UTC(), st: s}
	// Through t: SAVEPOINT and RELEASE are prepared once, as the
	// operations' statements are (parsing them was a twentieth of a
	// clock-in).
	if _, err := t.ExecContext(bg, "SAVEPOINT op"); err != nil {
		return opResult{err: err}, err
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				res = opResult{panicked: p, stack: debug.Stack()}
			}
		}()
		res.err = op.fn(t)
	}()
	if res.err != nil || res.panicked != nil {
		s.w.dropRules() // it may hold what this operation read of its own changes
		if _, err := tx.ExecContext(bg, "ROLLBACK TO op"); err != nil {
			return res, err
		}
	} else {
		res.afterCommit = t.afterCommit
	}
	if _, err := t.ExecContext(bg, "RELEASE op"); err != nil {
		return res, err
	}
	return res, nil
}

// hook registers, once per driver connection, the pre-update hook that
// notes writes to the tables the auth view mirrors. A hook on the
// connection sees every row any statement changes (triggers and foreign
// key actions included), so no write function can forget to invalidate.
func (w *writer) hook(conn *sql.Conn) error {
	return conn.Raw(func(dc any) error {
		if dc == w.hooked {
			return nil
		}
		hr, ok := dc.(sqlite.HookRegisterer)
		if !ok {
			return errors.New("store: the sqlite driver has no hooks")
		}
		hr.RegisterPreUpdateHook(func(d sqlite.SQLitePreUpdateData) {
			switch d.TableName {
			case "users", "restaurants":
				w.touched = true
			case "notification_settings":
				w.dropRules()
			}
		})
		w.hooked = dc
		w.dropRules() // a new connection: changes made past the old hook are unseen
		return nil
	})
}

// prepareSeen prepares, between batches (when the one writer connection
// is free), the statements the last batch ran unprepared.
func (w *writer) prepareSeen(db *sql.DB) {
	for q := range w.toPrepare {
		delete(w.toPrepare, q)
		if len(w.stmts) >= maxCachedWriteStmts {
			continue
		}
		st, err := db.PrepareContext(context.Background(), q)
		if err != nil {
			continue // run unprepared, as before
		}
		w.stmts[q] = st
	}
}

// Commits is the number of write transactions committed since Open: with
// synchronous=FULL each is one fsync of the WAL. Benchmarks divide it by
// the work done ("fsyncs per sale").
func (s *Store) Commits() uint64 { return s.w.commits.Load() }

// stmt is the writer connection's prepared statement for query, bound to
// tx, or nil (first use: it runs unprepared and is prepared after the
// batch). Only the writer goroutine calls it.
func (tx *Tx) stmt(query string) *sql.Stmt {
	w := tx.st.w
	if st := w.batchStmts[query]; st != nil {
		return st
	}
	if st := w.stmts[query]; st != nil {
		bound := tx.Tx.StmtContext(context.Background(), st)
		w.batchStmts[query] = bound
		return bound
	}
	if len(w.stmts) < maxCachedWriteStmts {
		w.toPrepare[query] = true
	}
	return nil
}

// ExecContext runs a statement of the operation (prepared after its
// first use). The caller's ctx is not watched: once the writer runs an
// operation, it completes (or fails) as a whole.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if st := tx.stmt(query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.Tx.ExecContext(ctx, query, args...)
}

// QueryContext is ExecContext's sibling for rows.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = context.WithoutCancel(ctx)
	if st := tx.stmt(query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext is ExecContext's sibling for one row.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	if st := tx.stmt(query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return tx.Tx.QueryRowContext(ctx, query, args...)
}
