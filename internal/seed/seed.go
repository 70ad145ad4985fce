package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// Options says what to seed.
type Options struct {
	DataDir string
	Days    int       // the number of days, the last one today
	Now     time.Time // the present; zero: time.Now()
	// Bootstrap makes the restaurant and its admin as the first start of
	// `posbox serve` does (main's bootstrap), on the seeding store.
	Bootstrap func(ctx context.Context, st *store.Store) error
	Progress  io.Writer // a line a month; nil: none
	Seed      uint64    // the random source's seed
	// LeavesPerYear is how many of the staff leave in a year (each
	// replaced the same day); 0: 8 (hospitality's turnover is higher still).
	LeavesPerYear int
}

// Result counts what Run made.
type Result struct {
	Days, Receipts, Orders, Stornos, Closings     int
	Staff, Left, Shifts, TimeEntries, Corrections int
	Events, Deliveries, FailedDeliveries          int
	Archives                                      int // nightly archive runs
}

// Run seeds a new data dir: it refuses one that holds a database.
func Run(ctx context.Context, o Options) (Result, error) {
	var res Result
	if o.Days < 1 {
		return res, errors.New("seed: at least one day")
	}
	if _, err := os.Stat(filepath.Join(o.DataDir, store.FileName)); !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("seed: %s already holds a database (or cannot be read): seed a new folder", o.DataDir)
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.LeavesPerYear == 0 {
		o.LeavesPerYear = leavesPerYear
	}
	clock := &Clock{}
	clock.Set(o.Now.AddDate(0, 0, -o.Days))
	// The admin as serve makes it (bcrypt at the store's cost), then the
	// seeding store: NORMAL (in WAL mode a commit does not wait for the
	// disk; Close checkpoints), and cost 4 for the staff's PINs (a
	// hundred at cost 12 take a minute).
	if err := bootstrap(ctx, o, clock); err != nil {
		return res, err
	}
	st, err := store.Open(ctx, o.DataDir, store.Options{Now: clock.Now, Synchronous: "NORMAL", BcryptCost: 4,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return res, err
	}
	defer st.Close()
	if err := st.SeedMode(ctx); err != nil {
		return res, err
	}
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(o.DataDir, tse.SimDir), Now: clock.Now,
		CertValidity: time.Duration(o.Days+400) * 24 * time.Hour, ExportDelay: -1})
	if err != nil {
		return res, err
	}
	defer sim.Close()
	g, err := newGen(ctx, st, sim, clock, o, &res)
	if err != nil {
		return res, err
	}
	if err := g.run(ctx); err != nil {
		return res, err
	}
	clock.Set(o.Now)
	return res, nil
}

// bootstrap runs o.Bootstrap on a store of its own.
func bootstrap(ctx context.Context, o Options, clock *Clock) error {
	st, err := store.Open(ctx, o.DataDir, store.Options{Now: clock.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	err = o.Bootstrap(ctx, st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// gen is one seeding run's state.
type gen struct {
	st    *store.Store
	sim   *tsesim.Simulator
	clock *Clock
	o     Options
	res   *Result
	rnd   *rand.Rand // the writing goroutine's
	prod  *rand.Rand // prepareDay's (sales, signing)
	r     *store.Restaurant
	admin *store.User
	loc   *time.Location
	today time.Time // local midnight of the last day

	tills     []till
	staff     []*store.User // active staff
	hired     int           // staff numbers given
	counter   uint64        // the TSS's last signature counter (prepareDay's)
	number    uint64        // its last transaction number (prepareDay's)
	reporting bool          // the daily report's rule is made
	pending   pendingFiscal // sales and closings not yet stored (writeDay)
	archiver  *archiver
	began     time.Time
}

func newGen(ctx context.Context, st *store.Store, sim *tsesim.Simulator, clock *Clock, o Options, res *Result) (*gen, error) {
	rs, err := st.Restaurants(ctx)
	if err != nil || len(rs) == 0 {
		return nil, fmt.Errorf("seed: no restaurant after bootstrap: %v", err)
	}
	g := &gen{st: st, sim: sim, clock: clock, o: o, res: res, rnd: rand.New(rand.NewPCG(o.Seed, 22)),
		prod: rand.New(rand.NewPCG(o.Seed, 23)), r: rs[0], loc: rs[0].Location()}
	users, err := st.Users(ctx, g.r.ID)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if u.Role == store.RoleAdmin {
			g.admin = u
		}
	}
	if g.admin == nil {
		return nil, errors.New("seed: no admin after bootstrap")
	}
	y, m, d := o.Now.In(g.loc).Date()
	g.today = time.Date(y, m, d, 0, 0, 0, 0, g.loc)
	return g, nil
}

// run seeds every day: the days before today signed as history and
// archived night by night, then the simulator told where the history
// ends, then today.
func (g *gen) run(ctx context.Context) error {
	first := g.today.AddDate(0, 0, -(g.o.Days - 1))
	g.clock.Set(first.Add(7 * time.Hour))
	g.res.Days, g.began = g.o.Days, time.Now()
	if err := g.setup(ctx, first); err != nil {
		return err
	}
	var err error
	if g.archiver, err = newArchiver(ctx, g.o, g.sim, g.st, g.clock, g.r.ID); err != nil {
		return err
	}
	err = g.history(ctx, first)
	g.res.Archives = g.archiver.runs
	if err != nil {
		return err
	}
	if err := g.sim.ForgetHistory(g.counter, g.number); err != nil {
		return err
	}
	fd, err := g.prepareDay(ctx, g.today, true)
	if err != nil {
		return err
	}
	return g.day(ctx, fd)
}

// history seeds the days before today, each made and signed (produce)
// while the one before is written.
func (g *gen) history(ctx context.Context, first time.Time) error {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	days, perr := make(chan *fiscalDay, 2), make(chan error, 1)
	go func() {
		defer close(days)
		perr <- g.produce(pctx, first, days)
	}()
	for fd := range days {
		if err := g.day(ctx, fd); err != nil {
			cancel()
			for range days {
			}
			return fmt.Errorf("seed %s: %w", fd.day.Format(store.DateFormat), err)
		}
		if g.o.Progress != nil && fd.day.AddDate(0, 0, 1).Day() == 1 {
			g.progress(fd.day)
		}
	}
	if err := <-perr; err != nil {
		return err
	}
	return g.flushFiscal(ctx)
}

// produce prepares the days before today in order.
func (g *gen) produce(ctx context.Context, first time.Time, out chan<- *fiscalDay) error {
	for day := first; day.Before(g.today); day = day.AddDate(0, 0, 1) {
		fd, err := g.prepareDay(ctx, day, false)
		if err != nil {
			return err
		}
		select {
		case out <- fd:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// setup registers the tills at the TSS, hires the staff and sets up the
// notification rules.
func (g *gen) setup(ctx context.Context, first time.Time) error {
	for i := range 3 {
		t := till{serial: fmt.Sprintf("KASSE-%02d", i+1), clientID: tse.NewUUID4()}
		if _, err := g.sim.EnsureClient(ctx, t.clientID, t.serial); err != nil {
			return err
		}
		g.tills = append(g.tills, t)
	}
	g.counter = g.sim.Counter()
	for range staffSize {
		if err := g.hire(ctx); err != nil {
			return err
		}
	}
	if err := g.notificationRules(ctx); err != nil {
		return err
	}
	if err := g.planWeek(ctx, first); err != nil {
		return err
	}
	if wd := first.Weekday(); wd == time.Friday || wd == time.Saturday || wd == time.Sunday {
		// Thursday's plan of the next week came before the first day.
		return g.planWeek(ctx, first.AddDate(0, 0, 7))
	}
	return nil
}

// day seeds one local day; today only up to the present.
func (g *gen) day(ctx context.Context, fd *fiscalDay) error {
	day, today := fd.day, fd.today
	if day.Weekday() == time.Thursday {
		// The next week's plan is published on Thursday.
		if err := g.planWeek(ctx, day.AddDate(0, 0, 4)); err != nil {
			return err
		}
	}
	if err := g.turnover(ctx, day); err != nil {
		return err
	}
	if err := g.writeDay(ctx, fd); err != nil {
		return err
	}
	if err := g.timeEntries(ctx, day, today); err != nil {
		return err
	}
	if today {
		// What was queued since the morning went out as it came (the
		// live box's dispatcher finds nothing of the past to send).
		return g.deliverAt(ctx, g.o.Now)
	}
	if fd.tar != nil {
		if err := g.night(ctx, fd); err != nil {
			return err
		}
	}
	return g.dailyReport(ctx, day)
}

// at is the instant of a local wall-clock time on day.
func (g *gen) at(day time.Time, hour, minute int) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), hour, minute, 0, 0, g.loc)
}

// progress prints a month's line: receipts, the database's size, seconds.
func (g *gen) progress(day time.Time) {
	var size int64
	for _, f := range []string{g.st.Path(), g.st.Path() + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	fmt.Fprintf(g.o.Progress, "seed: %s done, %d receipts, database %.0f MiB, %.0f s\n", day.Format("2006-01"), g.res.Receipts,
		float64(size)/(1<<20), time.Since(g.began).Seconds())
}
