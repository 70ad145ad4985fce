package archive

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsetar"
)

// checkChain checks what an auditor relies on: the archived incremental
// ranges run from counter 1 to upTo without gap or overlap; each file is
// where its row says, read-only, its SHA-256 the row's and the .sha256
// file's, and it verifies again on its own against the TSS key; every
// sale posbox signed is in one of them.
func (e *env) checkChain(tb testing.TB, upTo int64) []*store.TSEArchive {
	tb.Helper()
	ctx := context.Background()
	info, err := e.fisk.TSS(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	pub, err := tse.ParsePublicKey(info.PublicKey)
	if err != nil {
		tb.Fatal(err)
	}
	var chain []*store.TSEArchive
	next := int64(1)
	for _, a := range e.archives(tb) {
		if a.Kind != store.TSEArchiveIncremental {
			continue
		}
		chain = append(chain, a)
		if a.State != store.TSEArchiveArchived || a.Verification != store.TSEVerificationPassed {
			tb.Fatalf("range %d-%d is %s (%s: %s)", *a.FirstCounter, *a.LastCounter, a.State, a.ReasonCode, a.Reason)
		}
		if *a.FirstCounter != next {
			tb.Fatalf("range %d-%d follows %d", *a.FirstCounter, *a.LastCounter, next-1)
		}
		next = *a.LastCounter + 1
		if want := strings.ToLower(info.SerialNumber) + "_" + itoa(*a.FirstCounter) + "-" + itoa(*a.LastCounter) + ".tar"; a.FileName != want {
			tb.Fatalf("file %s, want %s", a.FileName, want)
		}
		path := filepath.Join(e.a.Dir(), a.FileName)
		fi, err := os.Stat(path)
		if err != nil {
			tb.Fatal(err)
		}
		if fi.Mode().Perm() != 0o400 || fi.Size() != *a.SizeBytes {
			tb.Fatalf("%s: mode %v size %d, want 0400 and %d", a.FileName, fi.Mode().Perm(), fi.Size(), *a.SizeBytes)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		sum := sha256.Sum256(raw)
		if hex.EncodeToString(sum[:]) != a.SHA256 {
			tb.Fatalf("%s: sha256 differs from the row's", a.FileName)
		}
		side, err := os.ReadFile(path + ".sha256")
		if err != nil || string(side) != a.SHA256+"  "+a.FileName+"\n" {
			tb.Fatalf("%s.sha256: %q %v", a.FileName, side, err)
		}
		rep, err := tsetar.Verify(strings.NewReader(string(raw)), tsetar.Options{PublicKey: pub, SerialNumber: info.SerialNumber,
			FirstCounter: uint64(*a.FirstCounter), LastCounter: uint64(*a.LastCounter)})
		if err != nil || int64(rep.Count) != *a.LogMessages {
			tb.Fatalf("%s does not verify on its own: %v", a.FileName, err)
		}
	}
	if next-1 != upTo {
		tb.Fatalf("archived up to counter %d, want %d", next-1, upTo)
	}
	signed, err := e.st.TSESignedCounters(ctx, e.sim.Sim.TSSID(), 1, upTo)
	if err != nil {
		tb.Fatal(err)
	}
	if len(signed) == 0 {
		tb.Fatal("no sales")
	}
	st, err := e.a.Status(ctx, e.restaurant.ID)
	if err != nil {
		tb.Fatal(err)
	}
	if st.LastArchivedCounter != upTo {
		tb.Fatalf("status: archived up to %d, want %d", st.LastArchivedCounter, upTo)
	}
	return chain
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// counter is the TSS's signature counter now.
func (e *env) counter(tb testing.TB) int64 {
	tb.Helper()
	info, err := e.fisk.TSS(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return int64(info.SignatureCounter)
}

// A year of sales, archived by the nightly job month by month, then half
// a year at once: every range verified and filed, contiguous from counter
// 1, never more than 10 exports at once, never more than 12 requests a
// minute per export; the status warns while the oldest sale waits 60
// days and stops once it is archived.
func TestArchiveYearOfSalesIncrementally(t *testing.T) {
	e := newEnv(t, envOpts{maxRecords: 40})
	ctx := context.Background()
	month := func() {
		for range 30 {
			e.clock.Add(24*time.Hour - 4*time.Minute)
			e.sell(t, 2)
		}
	}
	// January to June: the job runs at the end of each month.
	for m := range 6 {
		month()
		if err := e.a.Run(ctx); err != nil {
			t.Fatalf("month %d: %v", m+1, err)
		}
		e.checkChain(t, e.counter(t))
	}
	runs := len(e.archives(t))
	if runs < 6 {
		t.Fatalf("%d ranges after six monthly runs", runs)
	}
	// July to December without a run (the box was off at night): the
	// status warns before fiskaly's three months are up.
	for range 3 {
		month()
	}
	st, err := e.a.Status(ctx, e.restaurant.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.OldestUnarchivedDays == nil || *st.OldestUnarchivedDays < 60 || !strings.Contains(st.Warning, "three months") {
		t.Fatalf("no warning after 90 days without archive: %+v", st)
	}
	for range 3 {
		month()
	}
	// One run catches up: many ranges, at most 10 exports at a time.
	if err := e.a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	chain := e.checkChain(t, e.counter(t))
	if len(chain) < runs+15 {
		t.Fatalf("the catch-up made %d ranges, want 18 (720 signatures split at 40)", len(chain)-runs)
	}
	if most := e.rec.checkLimits(t); most != DefaultMaxRunning {
		t.Fatalf("at most %d exports ran at once; the catch-up should use all %d", most, DefaultMaxRunning)
	}
	st, _ = e.a.Status(ctx, e.restaurant.ID)
	if st.OldestUnarchived != nil || st.Warning != "" || st.Open != 0 {
		t.Fatalf("status after catching up: %+v", st)
	}
	// Nothing new: a run plans nothing and asks the provider for nothing.
	before := len(e.rec.all())
	if err := e.a.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(e.rec.all()) != before {
		t.Fatal("a run with nothing new exported something")
	}
}
