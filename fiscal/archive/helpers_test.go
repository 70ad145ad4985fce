package archive

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal"
	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// env is an appliance's archive on a real SQLite file, the simulator
// served over real HTTP with fiskaly's wire format (stoppable like a
// process, its state on disk), the real fiskaly client, and the TSE queue
// that records and signs the sales (in-process on the same simulator, so
// a year of sales stays quick). One compressed clock drives all of them:
// the archive's waits move it instead of sleeping.
type env struct {
	clock      *storetest.Clock
	dataDir    string
	st         *store.Store
	restaurant *store.Restaurant
	sim        *simProcess
	fisk       *tse.Fiskaly
	rec        *recorder
	q          *queue.Queue
	stopQueue  func()
	a          *Archive
	opts       Options
}

type envOpts struct {
	maxRecords int64
	// wrap wraps the exporter the archive uses (after the recorder).
	wrap func(tse.Exporter) tse.Exporter
}

const simKey, simSecret = simtest.Key, simtest.Secret

func newEnv(tb testing.TB, o envOpts) *env {
	tb.Helper()
	e := &env{clock: storetest.NewClock(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)), dataDir: tb.TempDir()}
	e.sim = startSimProcess(tb, e.clock)
	e.opts = Options{MaxRecords: o.maxRecords}
	e.open(tb, o)
	tb.Cleanup(e.close)
	return e
}

// open opens (or reopens, after close) the store, the client, the queue
// and the archive: an appliance start.
func (e *env) open(tb testing.TB, o envOpts) {
	tb.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	st, err := store.Open(ctx, e.dataDir, store.Options{Now: e.clock.Now, Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	e.st = st
	rs, err := st.Restaurants(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if len(rs) == 0 {
		e.restaurant = &store.Restaurant{Name: "Zum Archiv", Timezone: "Europe/Berlin"}
		if err := st.CreateRestaurant(ctx, e.restaurant); err != nil {
			tb.Fatal(err)
		}
	} else {
		e.restaurant = rs[0]
	}
	e.fisk, err = tse.NewFiskaly(tse.FiskalyConfig{BaseURL: "http://" + e.sim.Addr, APIKey: simKey, APISecret: simSecret,
		TSSID: e.sim.Sim.TSSID(), AdminPIN: tsesim.DefaultAdminPIN, Now: e.clock.Now, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	e.q, err = queue.New(ctx, e.sim.Sim, st, queue.Options{RestaurantID: e.restaurant.ID, Budget: 30 * time.Second,
		Jitter: func() float64 { return 1 }, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	qctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); e.q.Run(qctx) }()
	e.stopQueue = func() { cancel(); <-done }

	if e.rec == nil {
		e.rec = &recorder{clock: e.clock}
	}
	e.rec.Exporter = e.fisk
	var ex tse.Exporter = e.rec
	if o.wrap != nil {
		ex = o.wrap(ex)
	}
	opts := e.opts
	opts.RestaurantID, opts.Dir, opts.Logger = e.restaurant.ID, filepath.Join(e.dataDir, "archive", "tse"), log
	opts.Sleep = func(ctx context.Context, d time.Duration) error {
		e.clock.Add(d)
		return ctx.Err()
	}
	e.a, err = New(e.fisk, ex, st, opts)
	if err != nil {
		tb.Fatal(err)
	}
}

// notifyOn subscribes the restaurant to each event type with an enabled
// webhook rule, so the events of those types are stored: one no enabled
// rule wants is not written (store.InsertEvent). No dispatcher runs here.
// Call it before the action that raises them.
func (e *env) notifyOn(tb testing.TB, types ...string) {
	tb.Helper()
	for _, typ := range types {
		n := &store.NotificationSetting{RestaurantID: e.restaurant.ID, Channel: store.ChannelWebhook, EventType: typ,
			Destination: "https://hooks.example.test/" + typ, IsEnabled: true}
		if err := e.st.CreateNotificationSetting(context.Background(), n); err != nil {
			tb.Fatal(err)
		}
	}
}

// close stops the appliance as serve does; a second call does nothing.
func (e *env) close() {
	if e.st == nil {
		return
	}
	e.a.Close()
	e.stopQueue()
	e.fisk.Close()
	e.st.Close()
	e.st = nil
}

// sell records and signs n sales through the queue, a minute apart.
func (e *env) sell(tb testing.TB, n int) {
	tb.Helper()
	for i := range n {
		e.clock.Add(time.Minute)
		cents := int64(1000 + i)
		s := fiscal.Sale{ClientSerial: "KASSE-01", Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: cents,
			VAT: []fiscal.VATAmount{{VATRate: "NORMAL", Cents: cents}}, Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: cents}}}
		tx, err := e.q.Sell(context.Background(), e.restaurant.ID, s, "")
		if err != nil {
			tb.Fatal(err)
		}
		if !tx.Signed() {
			tb.Fatalf("sale %d not signed: %+v", i, tx)
		}
	}
}

// archives lists the archive rows, incremental ones by counter.
func (e *env) archives(tb testing.TB) []*store.TSEArchive {
	tb.Helper()
	as, err := e.st.TSEArchives(context.Background(), e.restaurant.ID)
	if err != nil {
		tb.Fatal(err)
	}
	slices.Reverse(as) // the API lists the highest counters first
	return as
}

// simProcess is a served simulator (simtest).
type simProcess = simtest.Process

func startSimProcess(tb testing.TB, clock *storetest.Clock) *simProcess {
	return simtest.Start(tb, clock.Now)
}

// call is one request the archive made to the export API.
type call struct {
	op, id string // start, state, file
	at     time.Time
	err    error
}

// recorder sits between the archive and the fiskaly client and writes
// down every export request with the clock's time: the limits are
// checked on what the archive asked for, before the client's own guard.
type recorder struct {
	tse.Exporter
	clock *storetest.Clock
	mu    sync.Mutex
	calls []call
}

func (r *recorder) add(op, id string, err error) {
	r.mu.Lock()
	r.calls = append(r.calls, call{op: op, id: id, at: r.clock.Now(), err: err})
	r.mu.Unlock()
}

func (r *recorder) StartExport(ctx context.Context, id string, f tse.ExportFilter) (tse.Export, error) {
	x, err := r.Exporter.StartExport(ctx, id, f)
	r.add("start", id, err)
	return x, err
}

func (r *recorder) Export(ctx context.Context, id string) (tse.Export, error) {
	x, err := r.Exporter.Export(ctx, id)
	r.add("state", id, err)
	return x, err
}

func (r *recorder) DownloadExport(ctx context.Context, id string, w io.Writer) (int64, error) {
	n, err := r.Exporter.DownloadExport(ctx, id, w)
	r.add("file", id, err)
	return n, err
}

func (r *recorder) all() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// checkLimits fails the test when the archive broke fiskaly's limits:
// more than 12 state or file requests for one export within a minute, a
// request before a Retry-After it was given ran out, or more than 10
// exports running at once. It returns the most that ran at once.
func (r *recorder) checkLimits(tb testing.TB) int {
	tb.Helper()
	byID := map[string][]call{}
	for _, c := range r.all() {
		if c.op != "start" {
			byID[c.id] = append(byID[c.id], c)
		}
		if w, ok := tse.RetryAfterOf(c.err); ok && tse.CodeOf(c.err) == tse.CodeExportPollLimit {
			tb.Errorf("export %s: the client's own poll guard had to refuse a request (wait %s)", c.id, w)
		}
	}
	for id, cs := range byID {
		for i := range cs {
			n := 0
			for j := i; j < len(cs) && cs[j].at.Sub(cs[i].at) < time.Minute; j++ {
				n++
			}
			if n > 12 {
				tb.Errorf("export %s: %d requests within a minute from %s", id, n, cs[i].at)
			}
			if i > 0 {
				if w, ok := tse.RetryAfterOf(cs[i-1].err); ok && cs[i].at.Sub(cs[i-1].at) < w {
					tb.Errorf("export %s: asked again %s after being told to wait %s (%v)", id, cs[i].at.Sub(cs[i-1].at), w, cs[i-1].err)
				}
			}
		}
	}
	// Running: from a start that succeeded to the file downloaded (or
	// the export given up).
	running, most := map[string]bool{}, 0
	for _, c := range r.all() {
		switch {
		case c.op == "start" && c.err == nil:
			running[c.id] = true
		case c.op == "file" && c.err == nil:
			delete(running, c.id)
		}
		most = max(most, len(running))
	}
	if most > DefaultMaxRunning {
		tb.Errorf("%d exports running at once, fiskaly allows %d", most, DefaultMaxRunning)
	}
	return most
}
