package server

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Queue timings (tse-provider.md 5.5).
const (
	tseBackoffBase     = 2 * time.Second
	tseBackoffCap      = 5 * time.Minute
	tseProbeEvery      = 30 * time.Second
	tseCircuitFailures = 3
	tseStaleActive     = 30 * time.Minute
)

// TSEOptions attach a provider to the server.
type TSEOptions struct {
	// RestaurantID is the restaurant the TSS serves: its outages, events
	// and reconciled transactions are recorded there.
	RestaurantID string
	// Budget overrides Config.TSEBudget when not zero.
	Budget time.Duration
	// Jitter returns a factor in [0.5, 1]; nil means random. Tests fix it.
	Jitter func() float64
}

// tseQueue is the forwarding worker of one TSS and the state the sale
// path and the admin endpoints read: the circuit breaker and the head's
// backoff. Everything durable lives in the store; this state is rebuilt
// after a restart from the first attempts.
type tseQueue struct {
	p            tse.Provider
	st           *store.Store
	log          *slog.Logger
	now          func() time.Time
	restaurantID string
	tssID        string
	budget       time.Duration
	jitter       func() float64

	wake chan struct{} // cap 1: "look at the queue again"

	mu          sync.Mutex
	changed     chan struct{} // closed and replaced on every state change
	failures    int           // consecutive transient failures
	open        bool          // circuit open: no sale waits
	paused      bool          // open because the TSS cannot sign (TSSPermanent)
	openedAt    time.Time
	lastProbe   time.Time
	lastErr     *tse.Error // last provider error, for reasons and status
	headBackoff bool       // the head of the queue failed and waits for a retry
	running     bool
	held        map[string]*heldClient // terminals the TSS refuses, by client id

	idemMu sync.Mutex
	idem   map[string]*idemFlight

	bgCtx    context.Context // self-tests started by requests
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
}

func newTSEQueue(p tse.Provider, st *store.Store, log *slog.Logger, restaurantID string, budget time.Duration, jitter func() float64) *tseQueue {
	if jitter == nil {
		jitter = func() float64 { return 0.5 + rand.Float64()/2 }
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &tseQueue{
		p: p, st: st, log: log.With("component", "tse"), now: st.Now, restaurantID: restaurantID, tssID: p.TSSID(),
		budget: budget, jitter: jitter, wake: make(chan struct{}, 1), changed: make(chan struct{}),
		idem: map[string]*idemFlight{}, bgCtx: ctx, bgCancel: cancel, held: map[string]*heldClient{},
	}
}

// Wake makes the worker look at the queue now (a new sale, an admin
// action, a test that moved the clock).
func (q *tseQueue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// broadcast tells waiting sales that something changed. Call with q.mu held.
func (q *tseQueue) broadcast() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// unavailable reports whether a sale of this terminal must not wait: the
// TSS refuses the terminal, the circuit is open, or the head of the queue
// is backing off (nothing behind it can be signed before that retry),
// with the code and sentence to record.
func (q *tseQueue) unavailable(clientID string) (bool, string, string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if h := q.held[clientID]; h != nil {
		return true, h.err.Code, h.err.Reason()
	}
	if !q.open && !q.headBackoff {
		return false, "", ""
	}
	code, msg := tse.CodeUnavailable, tse.Reason(tse.CodeUnavailable, 0)
	if q.lastErr != nil {
		code, msg = q.lastErr.Code, q.lastErr.Reason()
	}
	return true, code, msg
}

// circuitState is a snapshot for the status endpoint.
type circuitState struct {
	Open, Paused bool
	OpenedAt     time.Time
	LastErr      *tse.Error
	Failures     int
	Running      bool
	Held         []heldClient
}

func (q *tseQueue) state() circuitState {
	q.mu.Lock()
	defer q.mu.Unlock()
	cs := circuitState{Open: q.open, Paused: q.paused, OpenedAt: q.openedAt, LastErr: q.lastErr, Failures: q.failures, Running: q.running}
	for _, h := range q.held {
		cs.Held = append(cs.Held, *h)
	}
	slices.SortFunc(cs.Held, func(a, b heldClient) int { return strings.Compare(a.serial, b.serial) })
	return cs
}

// Run forwards the queue until ctx ends. A job in flight when ctx ends is
// handed back (pending) and resent with the same bytes on the next start.
func (q *tseQueue) Run(ctx context.Context) {
	q.mu.Lock()
	q.running = true
	q.mu.Unlock()
	defer func() {
		q.bgCancel()
		q.bg.Wait()
		q.mu.Lock()
		q.running = false
		q.mu.Unlock()
	}()
	if n, err := q.st.ResetTSEInFlight(ctx, q.tssID); err != nil {
		q.log.Error("reset in-flight jobs", "err", err)
	} else if n > 0 {
		q.log.Warn("resending jobs interrupted by a stop", "jobs", n)
	}
	if err := q.st.FailRunningTSESelfTests(ctx); err != nil {
		q.log.Error("end interrupted self-tests", "err", err)
	}
	// Learn the TSS at start so /api/tse/info can answer from the cache
	// if the provider goes away later; beside the queue, not before it.
	q.bg.Add(1)
	go func() {
		defer q.bg.Done()
		cctx, cancel := context.WithTimeout(q.bgCtx, 5*time.Second)
		defer cancel()
		if info, err := q.p.TSS(cctx); err == nil {
			q.cacheInfo(cctx, info)
		}
	}()
	for ctx.Err() == nil {
		q.step(ctx)
	}
}

// step does one unit of work or waits for the next one.
func (q *tseQueue) step(ctx context.Context) {
	skip, heldUntil := q.heldSkips(q.now())
	head, err := q.st.TSEHeadJobExcept(ctx, q.tssID, skip)
	if err != nil {
		if ctx.Err() == nil {
			q.log.Error("read queue", "err", err)
		}
		q.sleep(ctx, time.Second)
		return
	}
	now := q.now()
	if head == nil {
		// Nothing to send; a held terminal is tried again at its time.
		var d time.Duration
		if !heldUntil.IsZero() {
			d = max(heldUntil.Sub(now), time.Millisecond)
		}
		q.sleep(ctx, d)
		return
	}
	q.mu.Lock()
	open, lastProbe := q.open, q.lastProbe
	q.mu.Unlock()
	if open {
		if due := lastProbe.Add(tseProbeEvery); now.Before(due) {
			q.sleep(ctx, due.Sub(now))
			return
		}
		if !q.probe(ctx) {
			return
		}
		// The provider is back: send the head now, whatever its backoff said.
	} else if head.NextAttemptAt.After(now) {
		q.sleep(ctx, head.NextAttemptAt.Sub(now))
		return
	}
	q.send(ctx, head)
}

// sleep waits for d (0: until woken), a wake-up or the end of ctx.
func (q *tseQueue) sleep(ctx context.Context, d time.Duration) {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
	case <-q.wake:
	case <-timer:
	}
}

// probe is the half-open check: the TSS answers, is INITIALIZED and its
// certificate is valid. Success closes the circuit.
func (q *tseQueue) probe(ctx context.Context) bool {
	info, err := q.p.TSS(ctx)
	now := q.now()
	if err == nil {
		q.cacheInfo(ctx, info)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lastProbe = now
	if err == nil {
		if info.State == tse.TSSInitialized && (info.CertNotAfter.IsZero() || info.CertNotAfter.After(now)) {
			q.log.Info("TSE provider answers again; circuit closed")
			q.open, q.paused, q.failures, q.headBackoff = false, false, 0, false
			q.broadcast()
			return true
		}
		return false
	}
	q.log.Debug("probe failed", "err", err)
	return false
}

// send forwards one revision and files the outcome.
func (q *tseQueue) send(ctx context.Context, job *store.TSEJob) {
	if err := q.st.StartTSEJob(ctx, job.Seq); err != nil {
		if ctx.Err() == nil {
			q.log.Error("start job", "err", err)
		}
		return
	}
	// A terminal's first revision registers it (idempotent at the provider).
	if !job.ClientRegistered {
		if _, err := q.p.EnsureClient(ctx, job.ClientID, job.ClientSerial); err != nil {
			q.failed(ctx, job, err)
			return
		}
		if err := q.st.MarkTSEClientRegistered(ctx, job.ClientID); err != nil {
			q.log.Error("mark client registered", "err", err)
			return
		}
		q.release(job)
	}
	tx, err := q.p.Upsert(ctx, tse.UpsertRequest{TxID: job.TxID, Revision: job.Revision, Body: job.Body})
	if err != nil {
		q.failed(ctx, job, err)
		return
	}
	q.completed(ctx, job, tx)
}

// completed files a signed revision.
func (q *tseQueue) completed(ctx context.Context, job *store.TSEJob, tx tse.Tx) {
	closed, err := q.st.CompleteTSEJob(context.WithoutCancel(ctx), job, signedOf(tx))
	if err != nil {
		q.log.Error("complete job", "tx_id", job.TxID, "revision", job.Revision, "err", err)
		return
	}
	if closed != nil {
		q.log.Info("TSE outage closed", "outage_id", closed.ID, "affected_transactions", closed.AffectedTransactions)
	}
	q.mu.Lock()
	q.failures, q.headBackoff = 0, false
	if q.open && !q.paused {
		q.open = false
	}
	q.broadcast()
	q.mu.Unlock()
}

// failed files an error by its class (tse-provider.md 5.3, 5.5).
func (q *tseQueue) failed(ctx context.Context, job *store.TSEJob, err error) {
	if ctx.Err() != nil {
		// Stopping: hand the job back untouched; it is resent on start.
		if _, err := q.st.ResetTSEInFlight(context.WithoutCancel(ctx), q.tssID); err != nil {
			q.log.Error("hand back job", "err", err)
		}
		return
	}
	var te *tse.Error
	if !errors.As(err, &te) {
		te = &tse.Error{Class: tse.Transient, Code: tse.CodeNetwork, Message: err.Error()}
	}
	bg := context.WithoutCancel(ctx)
	now := q.now()
	// The raw error (URL, provider message, request id) goes to the log;
	// the queue, the outage record and the events get the code and a
	// short sentence (tse.Reason).
	reason := te.Reason()
	q.log.Warn("TSE request failed", "tx_id", job.TxID, "revision", job.Revision, "class", te.Class.String(),
		"status", te.HTTPStatus, "code", te.Code, "request_id", te.RequestID, "err", te.Message)
	switch te.Class {
	case tse.Reconcile:
		q.reconcile(ctx, job, te)
		return
	case tse.TxPermanent:
		if err := q.st.ParkTSETx(bg, job, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("park transaction", "err", err)
		}
		q.mu.Lock()
		q.failures, q.headBackoff, q.lastErr = 0, false, te
		q.broadcast()
		q.mu.Unlock()
		return
	case tse.ClientPermanent:
		// The TSS refuses this terminal, not the sale: its revisions wait
		// (in order) and are tried again every probe interval; the other
		// terminals go on.
		next := now.Add(tseProbeEvery)
		if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.hold(bg, job, te, next)
		return
	case tse.TSSPermanent, tse.Auth:
		// Head-of-line: the TSS cannot sign anything; the job stays first.
		if err := q.st.RetryTSEJob(bg, job.Seq, now, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.openCircuit(bg, te, true)
		return
	case tse.RateLimited:
		next := now.Add(max(q.backoff(job.Attempts+1), te.RetryAfter))
		if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.mu.Lock()
		q.headBackoff, q.lastErr = true, te
		q.broadcast()
		q.mu.Unlock()
		return
	}
	// Transient: the request may or may not have been applied; the resend
	// carries the same bytes, which the provider treats idempotently.
	next := now.Add(max(q.backoff(job.Attempts+1), te.RetryAfter))
	if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
		q.log.Error("requeue job", "err", err)
	}
	q.mu.Lock()
	q.failures++
	q.headBackoff, q.lastErr = true, te
	trip := q.failures >= tseCircuitFailures && !q.open
	q.broadcast()
	q.mu.Unlock()
	if trip {
		q.openCircuit(bg, te, false)
	}
}

// openCircuit stops sales from waiting and opens the outage record.
func (q *tseQueue) openCircuit(ctx context.Context, te *tse.Error, paused bool) {
	q.mu.Lock()
	if !q.open {
		q.log.Warn("TSE circuit open", "code", te.Code, "paused", paused)
		q.open, q.openedAt = true, q.now()
	}
	q.lastProbe = q.now()
	q.paused = q.paused || paused
	q.lastErr = te
	q.broadcast()
	q.mu.Unlock()
	if _, err := q.st.OpenTSEOutage(ctx, q.restaurantID, q.tssID, te.Code, te.Reason()); err != nil {
		q.log.Error("open outage", "err", err)
	}
}

// backoff is min(cap, base·2^(attempt-1)) scaled by a jitter in [0.5, 1].
func (q *tseQueue) backoff(attempt int) time.Duration {
	d := float64(tseBackoffBase) * math.Pow(2, float64(max(attempt-1, 0)))
	d = min(d, float64(tseBackoffCap))
	return time.Duration(d * q.jitter())
}

// reconcile settles a revision whose outcome the provider disputes: read
// the transaction and compare, never start a second one.
func (q *tseQueue) reconcile(ctx context.Context, job *store.TSEJob, cause *tse.Error) {
	bg := context.WithoutCancel(ctx)
	latest, err := q.p.Tx(ctx, job.TxID, 0)
	if err != nil {
		var te *tse.Error
		if errors.As(err, &te) && te.HTTPStatus == 404 && job.Revision == 1 {
			// Never started: resending revision 1 is safe.
			if err := q.st.RetryTSEJob(bg, job.Seq, q.now(), cause.HTTPStatus, cause.Code, cause.Reason()); err != nil {
				q.log.Error("requeue job", "err", err)
			}
			return
		}
		if errors.As(err, &te) && te.Class == tse.Reconcile {
			err = &tse.Error{Class: tse.TxPermanent, HTTPStatus: te.HTTPStatus, Code: te.Code, Message: te.Message}
		}
		q.failed(ctx, job, err)
		return
	}
	if latest.LatestRevision < job.Revision && latest.Revision < job.Revision {
		// The provider is behind us in a way a resend cannot fix.
		q.failed(ctx, job, &tse.Error{Class: tse.TxPermanent, HTTPStatus: cause.HTTPStatus, Code: cause.Code,
			Message: "provider is at revision " + itoa(max(latest.LatestRevision, latest.Revision)) + ": " + cause.Message})
		return
	}
	rev := latest
	if latest.Revision != job.Revision {
		if rev, err = q.p.Tx(ctx, job.TxID, job.Revision); err != nil {
			q.failed(ctx, job, err)
			return
		}
	}
	if rev.State != job.TargetState {
		q.failed(ctx, job, &tse.Error{Class: tse.TxPermanent, HTTPStatus: cause.HTTPStatus, Code: cause.Code,
			Message: "provider has revision " + itoa(job.Revision) + " in state " + rev.State + ", not " + job.TargetState})
		return
	}
	q.log.Info("revision reconciled from the provider", "tx_id", job.TxID, "revision", job.Revision)
	q.completed(ctx, job, rev)
}

// signedOf copies a provider answer into the mirror's terms.
func signedOf(tx tse.Tx) store.TSESigned {
	return store.TSESigned{
		Number: int64(tx.Number), State: tx.State, Revision: tx.Revision, TimeStart: tx.TimeStart, TimeEnd: tx.TimeEnd,
		SignatureCounter: int64(tx.Signature.Counter), SignatureValue: tx.Signature.Value, LogTime: tx.LogTime,
		QRCodeData: tx.QRCodeData, TSSSerialNumber: tx.TSSSerialNumber,
	}
}
