//go:build seed

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"posbox/internal/seed"
	"posbox/store"
)

// `posbox seed` exists only in a binary built with -tags seed (make
// seed): it builds years of a busy restaurant's history in a new data dir
// for the benchmarks (docs/PERFORMANCE.md, "The seeded history").
func init() {
	buildTagCommands = append(buildTagCommands, command{name: "seed", hidden: true,
		synopsis: "seed --data-dir DIR --years N [--days D]",
		summary:  "Build the history of a busy restaurant for N years (or D days) ending today in a new data dir.",
		run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
			return cmdSeed(ctx, args, stdout, stderr)
		}})
}

func cmdSeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	years := fs.Int("years", 1, "years of history, the last day today")
	days := fs.Int("days", 0, "days of history instead of --years (for small runs)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the seeding to this file")
	cfg, err := loadConfig(fs, args, "timezone", "admin_email")
	if err != nil {
		return usageErr(err)
	}
	n := *days
	if n <= 0 {
		// N years back to the same date, today included.
		now := time.Now()
		n = int(now.Sub(now.AddDate(-*years, 0, 0)).Hours()/24+0.5) + 1
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// A batch job of mostly short-lived garbage: collecting at 5x the
	// live heap instead of 2x saves most of the GC's work.
	debug.SetGCPercent(400)
	begin := time.Now()
	log := slog.New(slog.DiscardHandler)
	res, err := seed.Run(ctx, seed.Options{DataDir: cfg.DataDir, Days: n, Progress: stdout,
		Bootstrap: func(ctx context.Context, st *store.Store) error { return bootstrap(ctx, st, cfg, log) }})
	if err != nil {
		return err
	}
	var size int64
	for _, f := range []string{store.FileName, store.FileName + "-wal"} {
		if fi, err := os.Stat(filepath.Join(cfg.DataDir, f)); err == nil {
			size += fi.Size()
		}
	}
	fmt.Fprintf(stdout, "seeded %s: %d days, %d receipts, %d orders, %d stornos, %d closings; "+
		"%d staff (%d left), %d shifts, %d time entries, %d corrections; %d events, %d deliveries (%d failed); "+
		"%d nightly archive runs, archive %.1f MiB; database %.1f MiB; %.1f s\n", cfg.DataDir, res.Days, res.Receipts, res.Orders, res.Stornos, res.Closings,
		res.Staff, res.Left, res.Shifts, res.TimeEntries, res.Corrections, res.Events, res.Deliveries, res.FailedDeliveries,
		res.Archives, float64(dirSize(filepath.Join(cfg.DataDir, archiveTSEDir)))/(1<<20), float64(size)/(1<<20), time.Since(begin).Seconds())
	return nil
}

// dirSize is the bytes of the files in dir.
func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && !e.IsDir() {
			n += fi.Size()
		}
	}
	return n
}
