package archive

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// tseErrors are the restaurant's tse_error events from the archive.
func (e *env) tseErrors(tb testing.TB) []map[string]any {
	tb.Helper()
	evs, err := e.st.Events(context.Background(), e.restaurant.ID, store.EventTSEError, 100)
	if err != nil {
		tb.Fatal(err)
	}
	var out []map[string]any
	for _, ev := range evs {
		var d map[string]any
		_ = json.Unmarshal(ev.Data, &d)
		if d["reason"] == "archive_verification_failed" {
			out = append(out, d)
		}
	}
	return out
}

// tars lists the .tar files in the archive folder.
func (e *env) tars(tb testing.TB) []string {
	tb.Helper()
	m, err := filepath.Glob(filepath.Join(e.a.Dir(), "*.tar"))
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// A TAR with a gap or a tampered signature is refused: its range stays
// pending with the reason, tse_error is raised once, no file is kept,
// the ranges around it are archived, and the chain ends before it. The
// next night's run exports it again under a new export id and, with a
// good TAR, closes the chain.
func TestArchiveRefusesGapAndTamperedSignature(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func(c uint64) tsesim.ExportFault
		code  string
	}{
		{"gap", func(c uint64) tsesim.ExportFault { return tsesim.ExportFault{Drop: c} }, FindingGap},
		{"tampered", func(c uint64) tsesim.ExportFault { return tsesim.ExportFault{Tamper: c} }, FindingBadSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{maxRecords: 10})
			e.notifyOn(t, store.EventTSEError) // so the events are stored
			ctx := context.Background()
			e.sell(t, 12) // 24 signatures and the setup's
			last := e.counter(t)
			bad := uint64(15) // in the second range, 11-20
			e.sim.Sim.SetExportFault(tc.fault(bad))
			if err := e.a.Run(ctx); err != nil {
				t.Fatal(err)
			}
			var rejected *store.TSEArchive
			for _, a := range e.archives(t) {
				if *a.FirstCounter <= int64(bad) && int64(bad) <= *a.LastCounter {
					rejected = a
				} else if a.State != store.TSEArchiveArchived {
					t.Fatalf("range %d-%d: %s %s", *a.FirstCounter, *a.LastCounter, a.State, a.Reason)
				}
			}
			if rejected == nil || rejected.State != store.TSEArchivePending || rejected.Verification != store.TSEVerificationFailed ||
				rejected.ReasonCode != tc.code || !strings.Contains(rejected.Reason, "15") || rejected.FileName != "" {
				t.Fatalf("the damaged range: %+v", rejected)
			}
			evs := e.tseErrors(t)
			if len(evs) != 1 || evs[0]["error_code"] != tc.code || evs[0]["archive_id"] != rejected.ID || evs[0]["first_counter"] != float64(11) {
				t.Fatalf("events %v", evs)
			}
			for _, f := range e.tars(t) {
				if strings.Contains(f, "_11-20.tar") {
					t.Fatalf("the refused TAR was kept: %s", f)
				}
			}
			left, _ := filepath.Glob(filepath.Join(e.a.Dir(), ".*.tmp"))
			if len(left) != 0 {
				t.Fatalf("temporary files left: %v", left)
			}
			st, _ := e.a.Status(ctx, e.restaurant.ID)
			if st.LastArchivedCounter != 10 || st.Rejected != 1 || !strings.Contains(st.Warning, "failed verification") || st.OldestUnarchived == nil {
				t.Fatalf("status %+v", st)
			}
			// The same night: nothing is tried again.
			before := len(e.rec.all())
			if err := e.a.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if len(e.rec.all()) != before {
				t.Fatal("the refused range was exported again the same night")
			}
			// The provider is fixed; the next night exports it anew.
			e.sim.Sim.SetExportFault(tsesim.ExportFault{})
			e.clock.Add(24 * time.Hour)
			if err := e.a.Run(ctx); err != nil {
				t.Fatal(err)
			}
			e.checkChain(t, last)
			again, _ := e.st.TSEArchive(ctx, e.restaurant.ID, rejected.ID)
			if again.ExportID == evs[0]["export_id"] || again.Attempts != 2 {
				t.Fatalf("re-export: %+v", again)
			}
			if len(e.tseErrors(t)) != 1 {
				t.Fatal("a good TAR raised an event")
			}
			e.rec.checkLimits(t)
		})
	}
}

// A transaction posbox signed must be in its range's TAR under its
// number: a TAR whose log message at that counter names another
// transaction is refused even though it verifies on its own.
func TestArchiveRefusesTARWithoutASignedTransaction(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.notifyOn(t, store.EventTSEError) // so the event is stored
	ctx := context.Background()
	e.sell(t, 5)
	// The mirror says sale 3 was signed under number 3; the TAR will say
	// otherwise once the mirror's number moves (a TAR of another TSS's
	// history, or a mirror that diverged).
	if err := e.st.Write(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_transactions SET number = 103 WHERE number = 3`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := e.a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	as := e.archives(t)
	if len(as) != 1 || as[0].State != store.TSEArchivePending || as[0].ReasonCode != FindingMissingTransaction ||
		!strings.Contains(as[0].Reason, "103") {
		t.Fatalf("archive %+v", as[0])
	}
	if evs := e.tseErrors(t); len(evs) != 1 || evs[0]["error_code"] != FindingMissingTransaction {
		t.Fatalf("events %v", evs)
	}
}

// The appliance stops while an export is running at the provider: the
// row keeps its export id, and after a restart of the appliance and of
// the provider the same export is followed to the end; no second export
// of that range is ever triggered.
func TestArchiveResumesExportAfterRestart(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.sell(t, 8)
	last := e.counter(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.a.o.Sleep = func(ctx context.Context, d time.Duration) error {
		cancel() // the service stops while it waits for the provider
		return ctx.Err()
	}
	if err := e.a.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v", err)
	}
	as := e.archives(t)
	if len(as) != 1 || as[0].State != store.TSEArchiveExporting {
		t.Fatalf("after the stop: %+v", as)
	}
	exportID := as[0].ExportID

	e.close()
	e.sim.Stop()
	e.clock.Add(3 * time.Minute)
	e.sim.Start(t)
	e.open(t, envOpts{})
	// At start, serve resumes what was triggered.
	if err := e.a.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	chain := e.checkChain(t, last)
	if chain[0].ExportID != exportID {
		t.Fatalf("archived under export %s, want the one triggered before the restart, %s", chain[0].ExportID, exportID)
	}
	for _, c := range e.rec.all() {
		if c.id != exportID {
			t.Fatalf("a second export %s was asked for (%s)", c.id, c.op)
		}
	}
	e.rec.checkLimits(t)
}

// A provider that says COMPLETED before the file is there: the download
// gets fiskaly's 404 E_EXPORT_NOT_COMPLETED with Retry-After: 60, and the
// archive asks again only after the minute.
func TestArchiveHonoursExportNotCompleted(t *testing.T) {
	e := newEnv(t, envOpts{wrap: func(ex tse.Exporter) tse.Exporter { return &earlyCompleted{Exporter: ex} }})
	e.sell(t, 3)
	if err := e.a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.checkChain(t, e.counter(t))
	notCompleted := 0
	for _, c := range e.rec.all() {
		if tse.CodeOf(c.err) == tse.CodeExportNotCompleted {
			notCompleted++
		}
	}
	if notCompleted == 0 {
		t.Fatal("the early download was never refused: the test proves nothing")
	}
	e.rec.checkLimits(t) // includes: nothing within the 60 s asked for
}

// earlyCompleted reports a running export as COMPLETED.
type earlyCompleted struct{ tse.Exporter }

func (x *earlyCompleted) Export(ctx context.Context, id string) (tse.Export, error) {
	return x.early(x.Exporter.Export(ctx, id))
}

func (x *earlyCompleted) StartExport(ctx context.Context, id string, f tse.ExportFilter) (tse.Export, error) {
	return x.early(x.Exporter.StartExport(ctx, id, f))
}

func (x *earlyCompleted) early(ex tse.Export, err error) (tse.Export, error) {
	if err == nil && (ex.State == tse.ExportWorking || ex.State == tse.ExportPending) {
		ex.State = tse.ExportCompleted
	}
	return ex, err
}

// Ten exports of other software are running: the archive's first trigger
// gets E_TOO_MANY_EXPORTS and it waits before triggering again, then
// archives everything.
func TestArchiveBacksOffOnTooManyExports(t *testing.T) {
	e := newEnv(t, envOpts{maxRecords: 5})
	ctx := context.Background()
	e.sell(t, 6)
	last := e.counter(t)
	for i := range 10 {
		if _, err := e.fisk.StartExport(ctx, tse.NewUUID4(), tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	e.checkChain(t, last)
	calls := e.rec.all()
	refused := -1
	for i, c := range calls {
		if c.op == "start" && tse.CodeOf(c.err) == tse.CodeTooManyExports {
			refused = i
			break
		}
	}
	if refused < 0 {
		t.Fatal("the provider never refused: the test proves nothing")
	}
	for _, c := range calls[refused+1:] {
		if c.op == "start" {
			if w := c.at.Sub(calls[refused].at); w < startBackoff {
				t.Fatalf("triggered again %s after E_TOO_MANY_EXPORTS, want at least %s", w, startBackoff)
			}
			break
		}
	}
	e.rec.checkLimits(t)
}

// The provider answers 429 with Retry-After for a while: the archive
// waits as long as it is told, every time, and finishes when it lifts.
func TestArchiveHonoursRateLimit(t *testing.T) {
	e := newEnv(t, envOpts{maxRecords: 10})
	ctx := context.Background()
	e.sell(t, 10)
	last := e.counter(t)
	sleeps := 0
	e.a.o.Sleep = func(ctx context.Context, d time.Duration) error {
		sleeps++
		switch sleeps {
		case 1:
			e.sim.Sim.SetFault(tsesim.Fault{RateLimited: 20 * time.Second})
		case 6:
			e.sim.Sim.SetFault(tsesim.Fault{})
		}
		e.clock.Add(d)
		return ctx.Err()
	}
	if err := e.a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	e.checkChain(t, last)
	limited := 0
	for _, c := range e.rec.all() {
		if w, ok := tse.RetryAfterOf(c.err); ok && w == 20*time.Second {
			limited++
		}
	}
	if limited == 0 {
		t.Fatal("no 429 reached the archive: the test proves nothing")
	}
	e.rec.checkLimits(t)
}

// An admin's export of dates runs at once in the background, is verified
// like the ranges and filed under its own name; it neither opens nor
// closes anything in the incremental chain.
func TestArchiveExportOfDates(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	start := e.clock.Now()
	e.sell(t, 4)
	a, err := e.a.ExportDates(ctx, e.restaurant.ID, start, e.clock.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var got *store.TSEArchive
	if !poll.Wait(15*time.Second, func() bool {
		got, err = e.st.TSEArchive(ctx, e.restaurant.ID, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		return !got.Open()
	}) {
		t.Fatalf("the export of dates did not finish: %+v", got)
	}
	a = got
	if a.State != store.TSEArchiveArchived || a.Kind != store.TSEArchiveDates || !strings.Contains(a.FileName, "_dates_") ||
		*a.LogMessages < 8 || *a.LastCounter-*a.FirstCounter+1 != *a.LogMessages || *a.LastCounter != e.counter(t) {
		t.Fatalf("export of dates: %+v", a)
	}
	if fi, err := os.Stat(filepath.Join(e.a.Dir(), a.FileName)); err != nil || fi.Mode().Perm() != 0o400 {
		t.Fatalf("file: %v %v", fi, err)
	}
	st, _ := e.a.Status(ctx, e.restaurant.ID)
	if st.LastArchivedCounter != 0 || st.OldestUnarchived == nil {
		t.Fatalf("an export of dates counted for the chain: %+v", st)
	}
	// Another restaurant has no TSE here.
	if _, err := e.a.ExportDates(ctx, store.NewID(), start, e.clock.Now()); store.ErrorCode(err) != store.ETSENotConfigured {
		t.Fatalf("foreign restaurant: %v", err)
	}
}

// The nightly job starts once per local date, from tse_archive_time to
// three hours later (restaurant-local, across the clock change), and not
// again that day.
func TestArchiveNightlySchedule(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	e.sell(t, 2)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	var now time.Time
	n := &Nightly{A: e.a, At: "04:30", Now: func() time.Time { return now }}
	planned := func() int { return len(e.archives(t)) }
	check := func(local string, want int) {
		t.Helper()
		l, err := time.ParseInLocation("2006-01-02 15:04", local, berlin)
		if err != nil {
			t.Fatal(err)
		}
		now = l.UTC()
		if err := n.Check(ctx); err != nil {
			t.Fatal(err)
		}
		if got := planned(); got != want {
			t.Fatalf("%s local: %d archive rows, want %d", local, got, want)
		}
	}
	check("2026-03-28 04:29", 0)
	check("2026-03-28 04:30", 1)
	e.sell(t, 1)
	check("2026-03-28 05:00", 1) // once a day
	check("2026-03-29 07:31", 1) // outside the window (the clocks went forward that night)
	check("2026-03-30 07:29", 2)
	// The provider is unreachable at the start: tried again 15 minutes
	// later, within the window.
	e.sell(t, 1)
	e.sim.Sim.SetFault(tsesim.Fault{Offline: true})
	now, _ = time.ParseInLocation("2006-01-02 15:04", "2026-03-31 04:30", berlin)
	if err := n.Check(ctx); err == nil {
		t.Fatal("a run without the provider succeeded")
	}
	e.sim.Sim.SetFault(tsesim.Fault{})
	check("2026-03-31 04:40", 2)
	check("2026-03-31 04:45", 3)
	check("2026-03-31 05:30", 3)
	if err := (&Nightly{A: e.a, At: "4:30"}).Check(ctx); err == nil {
		t.Fatal("a bad time was accepted")
	}
}
