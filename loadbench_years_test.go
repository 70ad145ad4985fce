//go:build loadbench

package main

// `make bench`, year ten (docs/PERFORMANCE.md, "Year ten"): every
// scenario on a young data dir (day one) and on one with BENCH_YEARS of
// history from the seeder (`posbox-seed seed`, build tag seed), each
// through the real binary. Requests are closed loops between two runs of
// B0 with the same shape (as TestLoadBench); closings, the nightly
// archive run, starts, backups and restores are durations (the median
// of BENCH_REPS). One table at the end: day one, year ten, their ratio,
// the ratios to B0; the database's and the TSE archive's size per year.
//
//	BENCH_YEARS      the history of "year ten" (default 10; 0 skips the test)
//	BENCH_SEED_DIR   where seeded data dirs are kept between runs
//	                 (default $XDG_CACHE_HOME/posbox-bench-seed); each run
//	                 copies one, since the bench writes into it. Delete it
//	                 when the seeder changes.
//	BENCH_DAY1_DAYS  the history of "day one" (default 62: all of last
//	                 month, whatever today's date, for the month's reports)
//	BENCH_REPS       repetitions of a closing (default 3)
//	BENCH_SLOW_REPS  repetitions of each backup and restore (default 1)
//	BENCH_SLOW       which of them: all (default), backups, or replica
//	                 (the replica's catch-up and restore --from only)
//	BENCH_ONLY=years only this test (TestLoadBench and the replica
//	                 benchmarks skip)

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// measure is one scenario's figure in one era: requests per second with
// the ratio to B0 (b0 > 0), or a duration in ms (dur).
type measure struct {
	v    float64
	b0   float64
	dur  bool
	note string
}

// era is one data dir's run: day one or year N.
type era struct {
	label   string
	years   int // of seeded history (0: day one)
	days    int
	seeded  bool
	dbBytes int64
	archive int64
	res     map[string]measure
	order   []string
}

func (e *era) put(name string, m measure) {
	if _, ok := e.res[name]; !ok {
		e.order = append(e.order, name)
	}
	e.res[name] = m
}

// yearBench is the state of TestYearBench.
type yearBench struct {
	t    *testing.T
	bin  string
	b0   string
	b0s  map[string]*stat
	dur  time.Duration
	reps int
	// slowReps repeats backups, restores and the replica's runs, which
	// take minutes on a history of years; 0 leaves them out.
	slowReps int
	// slow is BENCH_SLOW: "all", "backups" or "replica".
	slow string
	rep  *report
	seed *seeder
}

func TestYearBench(t *testing.T) {
	skipUnlessOnly(t, "years")
	years := envInt(t, "BENCH_YEARS", 10)
	if years <= 0 {
		t.Skip("BENCH_YEARS=0")
	}
	yb := &yearBench{t: t, b0s: map[string]*stat{}, dur: envDur(t, "BENCH_TIME", 5*time.Second),
		reps: max(1, envInt(t, "BENCH_REPS", 3)), slowReps: max(0, envInt(t, "BENCH_SLOW_REPS", 1)), slow: cmp.Or(os.Getenv("BENCH_SLOW"), "all"), rep: newReport()}
	if yb.slow != "all" && yb.slow != "backups" && yb.slow != "replica" {
		t.Fatalf("BENCH_SLOW=%q: all, backups or replica", yb.slow)
	}
	yb.bin = buildRelease(t)
	yb.seed = newSeeder(t)
	yb.b0 = startB0(t)
	began := time.Now()
	d1 := yb.run(&era{label: "day one", days: envInt(t, "BENCH_DAY1_DAYS", 62)})
	y10 := yb.run(&era{label: fmt.Sprintf("year %d", years), years: years})
	host, _ := os.Hostname()
	yb.print(fmt.Sprintf("posbox year-%d benchmark: %s, %d CPUs, %s, BENCH_TIME=%s, BENCH_REPS=%d, took %s",
		years, host, runtime.NumCPU(), runtime.Version(), yb.dur, yb.reps, time.Since(began).Round(time.Second)), d1, y10)
}

// run prepares the era's data dir and measures every scenario on it.
func (yb *yearBench) run(e *era) *era {
	t := yb.t
	e.res = map[string]measure{}
	dataDir := filepath.Join(t.TempDir(), "data")
	e.seeded = yb.seed.dataDir(dataDir, e.years, e.days)
	if !e.seeded {
		if err := os.Mkdir(dataDir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	yb.rep.note("%s: data dir %s (seeded: %v, %d years %d days)", e.label, dataDir, e.seeded, e.years, e.days)
	e.dbBytes, e.archive = dbSize(dataDir), dirSize(filepath.Join(dataDir, archiveTSEDir))
	b := yb.start(e, dataDir)
	yb.requests(e, b)
	yb.closings(e, b)
	if yb.slowReps > 0 && yb.slow != "replica" {
		yb.backups(e, b)
	}
	b.box.stop(t)
	yb.nightlyArchive(e, b)
	if yb.slowReps > 0 && yb.slow != "backups" {
		yb.replicaRun(e, b)
	}
	os.RemoveAll(dataDir) // a ten-year copy is gigabytes
	return e
}

// dbSize is the database file with its WAL, in bytes.
func dbSize(dataDir string) int64 {
	var n int64
	for _, suf := range []string{"", "-wal"} {
		if fi, err := os.Stat(filepath.Join(dataDir, store.FileName+suf)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// dirSize is the bytes of every regular file under dir (0 when missing).
func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// print writes the one table: per scenario day one, year N, the cost
// ratio and the ratios to B0; then the sizes and the notes.
func (yb *yearBench) print(header string, d1, yN *era) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\n", header)
	fmt.Fprintf(&b, "| scenario | %s | %s | ratio %s / %s | B0 ratio %s | B0 ratio %s |\n|---|---|---|---|---|---|\n",
		d1.label, yN.label, yN.label, d1.label, d1.label, yN.label)
	for _, name := range d1.order {
		m1, mN := d1.res[name], yN.res[name]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", name, m1.cell(), mN.cell(), costRatio(m1, mN), b0Cell(m1), b0Cell(mN))
	}
	fmt.Fprintf(&b, "\n(ratio: how many times longer %s takes than %s: for requests the inverse of the ratios to B0, for durations %s/%s; above 1 is slower)\n\n",
		yN.label, d1.label, yN.label, d1.label)
	for _, e := range []*era{d1, yN} {
		per := ""
		if e.years > 0 {
			per = fmt.Sprintf(", per year %.1f MiB and %.1f MiB", mib(e.dbBytes)/float64(e.years), mib(e.archive)/float64(e.years))
		}
		fmt.Fprintf(&b, "- %s as seeded: database %.1f MiB, TSE archive %.1f MiB%s\n", e.label, mib(e.dbBytes), mib(e.archive), per)
	}
	for _, n := range yb.rep.notes {
		b.WriteString("- " + n + "\n")
	}
	fmt.Fprint(os.Stdout, b.String())
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

func (m measure) cell() string {
	switch {
	case m.v == 0 && m.note != "":
		return m.note
	case m.v == 0:
		return "-"
	case m.dur:
		return fmt.Sprintf("%.0f ms", m.v)
	}
	return fmt.Sprintf("%.0f req/s", m.v)
}

func b0Cell(m measure) string {
	if m.b0 == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", m.b0)
}

// costRatio is year N's cost over day one's: durations directly,
// requests by their ratios to B0 (which takes out what the neighbours'
// load did between the two runs).
func costRatio(d1, yN measure) string {
	switch {
	case d1.v == 0 || yN.v == 0:
		return "-"
	case d1.dur:
		return fmt.Sprintf("%.2fx", yN.v/d1.v)
	case d1.b0 > 0 && yN.b0 > 0:
		return fmt.Sprintf("%.2fx", d1.b0/yN.b0)
	}
	return fmt.Sprintf("%.2fx", d1.v/yN.v)
}

// skipUnlessOnly skips a part of `make bench` that BENCH_ONLY (when set)
// does not name.
func skipUnlessOnly(t *testing.T, part string) {
	if o := os.Getenv("BENCH_ONLY"); o != "" && o != part {
		t.Skipf("BENCH_ONLY=%s", o)
	}
}
