package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal/archive"
	"posbox/fiscal/dsfinvk"
	"posbox/fiscal/procdoc"
	"posbox/fiscal/queue"
	"posbox/internal/poll"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// tseEnv is a test appliance with the in-process simulator (its state in
// its own dir, on the same clock) and, when started, the real worker.
type tseEnv struct {
	*testEnv
	q       *queue.Queue
	arc     *archive.Archive // with tseEnvOpts.archive
	sim     *tsesim.Simulator
	dbDir   string
	simDir  string
	stop    context.CancelFunc
	stopped chan struct{}
	closed  bool
	tssID   string
}

type tseEnvOpts struct {
	budget      time.Duration // default 30s: tests never wait for it to run out
	maxActive   int
	maxClients  int
	certValid   time.Duration
	noWorker    bool
	provider    func(*tsesim.Simulator) tse.Provider // wraps the simulator (e.g. gate it)
	external    tse.Provider                         // a provider elsewhere (HTTP); no simulator is opened
	dbDir       string                               // reopen an existing appliance
	simDir      string
	clock       *storetest.Clock
	restaurant  *store.Restaurant
	adminToken  string
	admin       *store.User
	synchronous string // SQLite synchronous; tests use NORMAL, the benchmark the appliance's FULL
	archive     bool   // the fiscal archive on the simulator's exports; its waits move the clock
}

// newTSEEnv opens an appliance and a simulator and starts the worker.
func newTSEEnv(tb testing.TB, o tseEnvOpts) *tseEnv {
	tb.Helper()
	if o.clock == nil {
		o.clock = storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	}
	if o.dbDir == "" {
		o.dbDir = tb.TempDir()
	}
	if o.simDir == "" {
		o.simDir = tb.TempDir()
	}
	if o.synchronous == "" {
		o.synchronous = "NORMAL"
	}
	if o.budget == 0 {
		o.budget = 30 * time.Second
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(context.Background(), o.dbDir, store.Options{Now: o.clock.Now, Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: o.synchronous})
	if err != nil {
		tb.Fatal(err)
	}
	e := &tseEnv{testEnv: &testEnv{st: st, clock: o.clock}, dbDir: o.dbDir, simDir: o.simDir}
	if o.restaurant == nil {
		e.seedRestaurant(tb)
	} else {
		e.restaurant, e.admin, e.adminToken = o.restaurant, o.admin, o.adminToken
	}
	p := o.external
	if p == nil {
		e.sim, err = tsesim.Open(tsesim.Config{Dir: o.simDir, Now: o.clock.Now, MaxActiveTx: o.maxActive, MaxClients: o.maxClients, CertValidity: o.certValid})
		if err != nil {
			tb.Fatal(err)
		}
		p = e.sim
		if o.provider != nil {
			p = o.provider(e.sim)
		}
	}
	e.tssID = p.TSSID()
	e.q, err = queue.New(context.Background(), p, st, queue.Options{RestaurantID: e.restaurant.ID, Budget: o.budget,
		Jitter: func() float64 { return 1 }, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{TSE: e.q, DSFinVK: &dsfinvk.Exporter{St: st, SoftwareVersion: "test"},
		ProcDoc: &procdoc.Builder{St: st, TSE: e.q, Setup: procdoc.Setup{Version: "test"}}}
	if o.archive {
		e.arc, err = archive.New(p, e.sim, st, archive.Options{RestaurantID: e.restaurant.ID, Dir: filepath.Join(o.dbDir, "archive", "tse"),
			Logger: log, Sleep: func(ctx context.Context, d time.Duration) error { o.clock.Add(d); return ctx.Err() }})
		if err != nil {
			tb.Fatal(err)
		}
		cfg.Archive = e.arc
	}
	e.serve(tb, cfg)
	if !o.noWorker {
		e.startWorker()
	}
	tb.Cleanup(e.close)
	return e
}

func (e *tseEnv) startWorker() {
	ctx, cancel := context.WithCancel(context.Background())
	e.stop, e.stopped = cancel, make(chan struct{})
	go func() {
		defer close(e.stopped)
		e.q.Run(ctx)
	}()
}

// close stops the worker, then closes the simulator and the store, like
// serve does; closing twice is harmless.
func (e *tseEnv) close() {
	if e.closed {
		return
	}
	e.closed = true
	if e.stop != nil {
		e.stop()
		<-e.stopped
		e.stop = nil
	}
	if e.arc != nil {
		e.arc.Close()
	}
	e.srv.Close()
	if e.sim != nil {
		e.sim.Close()
	}
	e.st.Close()
}

// advance moves the clock and wakes the worker.
func (e *tseEnv) advance(d time.Duration) {
	e.clock.Add(d)
	e.q.Wake()
}

// sale is a valid POST /api/tse/transactions body of amount cents.
func sale(serial string, cents int) map[string]any {
	amt := json.Number(fmt.Sprintf("%d.%02d", cents/100, cents%100))
	return map[string]any{
		"client_serial":            serial,
		"receipt_type":             "RECEIPT",
		"amounts_per_vat_rate":     []any{map[string]any{"vat_rate": "NORMAL", "amount": amt}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": amt}},
	}
}

// sell posts a sale and returns the status and the transaction object.
func (e *tseEnv) sell(tb testing.TB, body any, token string, headers ...string) (int, map[string]any) {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/tse/transactions", body, token, headers...)
	if rec.Code != http.StatusCreated && rec.Code != http.StatusAccepted {
		tb.Fatalf("sale: status %d: %s", rec.Code, rec.Body.String())
	}
	return rec.Code, decodeJSON(tb, rec)["transaction"].(map[string]any)
}

// sellAtOnce posts a sale in a goroutine; the answer must come without the
// budget (an hour in these tests) running out, so a sale that waited
// fails the test instead of passing slowly.
func (e *tseEnv) sellAtOnce(tb testing.TB, serial string, cents int) (int, map[string]any) {
	tb.Helper()
	type answer struct {
		code int
		body []byte
	}
	done := make(chan answer, 1)
	go func() {
		rec := e.do(tb, "POST", "/api/tse/transactions", sale(serial, cents), e.adminToken)
		done <- answer{rec.Code, rec.Body.Bytes()}
	}()
	var a answer
	poll.Until(tb, 15*time.Second, "the sale's answer", func() bool {
		select {
		case a = <-done:
			return true
		default:
			return false
		}
	})
	return a.code, field(a.body, "transaction")
}

// tx reads a transaction through the API.
func (e *tseEnv) tx(tb testing.TB, id string) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/tse/transactions/"+id, nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["transaction"].(map[string]any)
}

// queue reads GET /api/tse/queue.
func (e *tseEnv) queue(tb testing.TB) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/tse/queue", nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["queue"].(map[string]any)
}

// status reads GET /api/tse/status.
func (e *tseEnv) status(tb testing.TB) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/tse/status", nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["status"].(map[string]any)
}

// headAttempts is the attempts of the queue's head job (-1 when empty).
func (e *tseEnv) headAttempts(tb testing.TB) int {
	tb.Helper()
	j, err := e.st.TSEHeadJob(context.Background(), e.tssID)
	if store.IsNotFound(err) {
		return -1
	}
	if err != nil {
		tb.Fatal(err)
	}
	return j.Attempts
}

// filed reports that the head job's n-th attempt failed and was filed
// for a retry (not merely started: attempts count when a request leaves).
func (e *tseEnv) filed(tb testing.TB, n int) bool {
	tb.Helper()
	j, err := e.st.TSEHeadJob(context.Background(), e.tssID)
	if store.IsNotFound(err) {
		return false
	}
	if err != nil {
		tb.Fatal(err)
	}
	return j.Attempts == n && j.Status == store.TSEJobPending && j.LastErrorCode != ""
}

// failUntilCircuitOpens walks the head job through the failures that
// open the circuit (the provider must be unreachable): the first attempt,
// the retry after the 2 s backoff, the third after 4 s.
func (e *tseEnv) failUntilCircuitOpens(tb testing.TB) {
	tb.Helper()
	poll.Until(tb, 15*time.Second, "first failure", func() bool { return e.filed(tb, 1) })
	e.advance(2 * time.Second)
	poll.Until(tb, 15*time.Second, "second failure", func() bool { return e.filed(tb, 2) })
	e.advance(4 * time.Second)
	poll.Until(tb, 15*time.Second, "circuit open", func() bool { return e.status(tb)["circuit"] == "open" })
}

// queueEmpty reports that nothing is pending or in flight.
func (e *tseEnv) queueEmpty(tb testing.TB) bool {
	return e.headAttempts(tb) == -1
}

// providerTx reads a transaction at the simulator.
func (e *tseEnv) providerTx(tb testing.TB, id string) tse.Tx {
	tb.Helper()
	tx, err := e.sim.Tx(context.Background(), id, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return tx
}

func num(v any) int { f, _ := v.(float64); return int(f) }

// field reads one wrapped object from a body without failing the test,
// for goroutines (which must not call t.Fatal).
func field(body []byte, key string) map[string]any {
	var m map[string]map[string]any
	_ = json.Unmarshal(body, &m)
	return m[key]
}
