// Package queue forwards a restaurant's sales to its TSE: the outbox
// worker of one TSS (strict FIFO, backoff, circuit breaker, per-terminal
// hold), the sale path that records a sale and waits for its signature
// within the budget, the self-test, the status and the scheduled jobs.
// It knows nothing of HTTP: it takes a validated fiscal.Sale (cents,
// typed lines; package fiscal validates it) and returns store records,
// and the server renders them. Everything durable lives in the store.
//
// Shaped like notify.Dispatcher: built by main (New, which restores the
// circuit after a restart), run by main (Run), its jobs scheduled by
// main (SelfTestJob, CertificateJob, ReconcileJob), called by the server
// through server.TSE.
//
// Files: sale.go records a sale and waits for its outcome (Sell);
// wire.go is where a sale meets the provider's terms: the detail the
// store keeps (from the cents, for the DSFinV-K), fiskaly's wire form
// (tse.Sale, amounts as decimal strings) that the finishing revision
// carries, and the Idempotency-Key hash, kept as earlier releases
// computed it; queue.go is the worker's loop and circuit state, send.go
// sends the head revision and files the provider's answer, signing.go
// commits signed revisions in batches (the reaper), hold.go the
// per-terminal hold, info.go the TSS info cache, status.go the health,
// selftest.go, actions.go (an admin's retry and cancel), jobs.go (stale
// sweep, certificate check, reconciler).
package queue

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Queue timings: docs/DESIGN.md, TSE, "Error classes" and "Circuit breaker".
const (
	backoffBase     = 2 * time.Second
	backoffCap      = 5 * time.Minute
	probeEvery      = 30 * time.Second
	circuitFailures = 3
	staleActive     = 30 * time.Minute
)

// Options configure a queue.
type Options struct {
	// RestaurantID is the restaurant the TSS serves: its outages, events
	// and reconciled transactions are recorded there, and only its sales
	// are signed.
	RestaurantID string
	// Budget is how long a sale waits for its signature before it
	// answers "TSE unavailable" (default 3 s).
	Budget time.Duration
	// Jitter returns a factor in [0.5, 1]; nil means random. Tests fix it.
	Jitter func() float64
	Logger *slog.Logger
}

// Queue is the forwarding worker of one TSS and the state the sale
// path and the admin endpoints read: the circuit breaker and the head's
// backoff. Everything durable lives in the store; this state is rebuilt
// at start (restore) and from the first attempts.
type Queue struct {
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
	changed     chan struct{}         // closed and replaced on every change of the state below
	waiters     map[string]*txWaiters // sales waiting, by transaction (signing.go)
	signing     map[int64]bool        // signed jobs whose completion is not yet committed
	reaping     chan reapItem         // those completions, in order, for the reaper
	failures    int                   // consecutive transient failures
	open        bool                  // circuit open: no sale waits
	paused      bool                  // open because the TSS cannot sign (TSSPermanent)
	openedAt    time.Time
	lastProbe   time.Time
	lastErr     *tse.Error // last provider error, for reasons and status
	headBackoff bool       // the head of the queue failed and waits for a retry
	running     bool
	held        map[string]*heldClient // terminals the TSS refuses, by client id

	info tssInfo // what the provider last said about the TSS (info.go)

	bgCtx    context.Context // self-tests started by requests
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
}

// New builds the queue of provider p's TSS and restores what the last
// run knew (an outage still open, terminals the TSS refused), so the
// first sales after a restart during an outage answer at once. Run starts
// the worker.
func New(ctx context.Context, p tse.Provider, st *store.Store, o Options) (*Queue, error) {
	if o.Jitter == nil {
		o.Jitter = func() float64 { return 0.5 + rand.Float64()/2 }
	}
	if o.Budget == 0 {
		o.Budget = 3 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	bgCtx, cancel := context.WithCancel(context.Background())
	q := &Queue{
		p: p, st: st, log: o.Logger.With("component", "tse"), now: st.Now, restaurantID: o.RestaurantID, tssID: p.TSSID(),
		budget: o.Budget, jitter: o.Jitter, wake: make(chan struct{}, 1), changed: make(chan struct{}),
		bgCtx: bgCtx, bgCancel: cancel, held: map[string]*heldClient{},
		waiters: map[string]*txWaiters{}, signing: map[int64]bool{},
	}
	if err := q.restore(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("tse: restore the queue's state: %w", err)
	}
	return q, nil
}

// RestaurantID is the restaurant whose sales this TSS signs.
func (q *Queue) RestaurantID() string { return q.restaurantID }

// Kind is the provider's kind: fiskaly or simulator.
func (q *Queue) Kind() string { return q.p.Kind() }

// serves refuses every operation that would reach the TSS for another
// restaurant: the appliance has one TSS, bound to one restaurant (serve
// binds the oldest), and another restaurant's sales must never be signed
// under it.
func (q *Queue) serves(restaurantID string) error {
	if restaurantID != q.restaurantID {
		return store.Errorf(store.ETSENotConfigured,
			"no TSE is set up for this restaurant: the appliance's TSS signs for another restaurant only (see docs/TSE.md, \"Several restaurants\")")
	}
	return nil
}

// Wake makes the worker look at the queue now (a new sale, an admin
// action, a test that moved the clock).
func (q *Queue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// broadcast tells waiting sales that something changed. Call with q.mu held.
func (q *Queue) broadcast() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// unavailable reports whether a sale of this terminal must not wait: the
// TSS refuses the terminal, the circuit is open, or the head of the queue
// is backing off (nothing behind it can be signed before that retry),
// with the code and sentence to record.
func (q *Queue) unavailable(clientID string) (bool, string, string) {
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

// circuitState is a snapshot for Status.
type circuitState struct {
	Open, Paused bool
	OpenedAt     time.Time
	LastErr      *tse.Error
	Failures     int
	Running      bool
	Held         []heldClient
}

func (q *Queue) state() circuitState {
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
func (q *Queue) Run(ctx context.Context) {
	q.mu.Lock()
	q.running = true
	q.reaping = make(chan reapItem, maxSigning)
	reaping := q.reaping
	q.mu.Unlock()
	reaped := make(chan struct{})
	go func() {
		defer close(reaped)
		q.reap(context.WithoutCancel(ctx), reaping)
	}()
	defer func() {
		// Every completion handed over is committed before Run returns.
		q.mu.Lock()
		q.reaping = nil
		q.mu.Unlock()
		close(reaping)
		<-reaped
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
func (q *Queue) step(ctx context.Context) {
	skip, heldUntil := q.heldSkips(q.now())
	head, err := q.st.TSEHeadJobSkipping(ctx, q.tssID, skip, q.signingSeqs())
	if store.IsNotFound(err) {
		head, err = nil, nil
	}
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
		if due := lastProbe.Add(probeEvery); now.Before(due) {
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
func (q *Queue) sleep(ctx context.Context, d time.Duration) {
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
func (q *Queue) probe(ctx context.Context) bool {
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
