package queue

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// env is a queue on a real SQLite file and the in-process simulator, on
// one test clock, without an HTTP server. The worker runs only when a
// test starts it; otherwise the test drives it with step.
type env struct {
	st         *store.Store
	sim        *tsesim.Simulator
	q          *Queue
	clock      *storetest.Clock
	restaurant *store.Restaurant
	stop       func()
	closed     bool
}

type envOpts struct {
	budget    time.Duration // default 30 s: tests never wait for it
	maxActive int
	dir       string // reopen the database in dir
	simDir    string
	clock     *storetest.Clock
	provider  func(*tsesim.Simulator) tse.Provider // wraps the simulator
}

func newEnv(tb testing.TB, o envOpts) *env {
	tb.Helper()
	if o.clock == nil {
		o.clock = storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	}
	if o.dir == "" {
		o.dir = tb.TempDir()
	}
	if o.simDir == "" {
		o.simDir = tb.TempDir()
	}
	if o.budget == 0 {
		o.budget = 30 * time.Second
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, o.dir, store.Options{Now: o.clock.Now, Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	e := &env{st: st, clock: o.clock}
	rs, err := st.Restaurants(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if len(rs) > 0 {
		e.restaurant = rs[0]
	} else {
		e.restaurant = &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
		if err := st.CreateRestaurant(ctx, e.restaurant); err != nil {
			tb.Fatal(err)
		}
	}
	e.sim, err = tsesim.Open(tsesim.Config{Dir: o.simDir, Now: o.clock.Now, MaxActiveTx: o.maxActive})
	if err != nil {
		tb.Fatal(err)
	}
	var p tse.Provider = e.sim
	if o.provider != nil {
		p = o.provider(e.sim)
	}
	e.q, err = New(ctx, p, st, Options{RestaurantID: e.restaurant.ID, Budget: o.budget, Jitter: func() float64 { return 1 }, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(e.close)
	return e
}

// run starts the worker until the test ends.
func (e *env) run() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.q.Run(ctx) }()
	e.stop = func() { cancel(); <-done }
}

// close stops the worker and closes the simulator and the store, as serve
// does; a second call does nothing.
func (e *env) close() {
	if e.closed {
		return
	}
	e.closed = true
	if e.stop != nil {
		e.stop()
		e.stop = nil
	}
	e.sim.Close()
	e.st.Close()
}

// sale is a valid cash receipt of cents on terminal serial.
func sale(serial string, cents int64) fiscal.Sale {
	return fiscal.Sale{ClientSerial: serial, Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: cents,
		VAT: []fiscal.VATAmount{{VATRate: "NORMAL", Cents: cents}}, Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: cents}}}
}

// sell records a sale through the queue; the context ends the wait at
// once when the test only wants the sale recorded (step-driven tests).
func (e *env) sell(tb testing.TB, s fiscal.Sale, idemKey string) *store.TSETransaction {
	tb.Helper()
	t, err := e.q.Sell(context.Background(), e.restaurant.ID, s, idemKey)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// tx reads a transaction from the mirror.
func (e *env) tx(tb testing.TB, id string) *store.TSETransaction {
	tb.Helper()
	t, err := e.st.TSETransaction(context.Background(), e.restaurant.ID, id)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// head is the queue's head revision, nil when the queue is empty.
func (e *env) head(tb testing.TB) *store.TSEJob {
	tb.Helper()
	j, err := e.st.TSEHeadJob(context.Background(), e.q.tssID)
	if store.IsNotFound(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	return j
}

// gatedProvider holds every upsert until the gate opens (or the worker
// stops): a request the provider has not answered yet.
type gatedProvider struct {
	tse.Provider
	gate chan struct{}
}

func (g *gatedProvider) Upsert(ctx context.Context, r tse.UpsertRequest) (tse.Tx, error) {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return tse.Tx{}, ctx.Err()
	}
	return g.Provider.Upsert(ctx, r)
}
