//go:build loadbench

package main

// The load generator's measuring: closed loops (each terminal sends its
// next request when the last one answered) and open loops (requests due
// at fixed times; a late answer delays the next, and latency counts from
// when the request was due, so a stall is not hidden).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// stat is one measured run.
type stat struct {
	name    string
	conc    int
	n, errs int
	elapsed time.Duration
	lat     []time.Duration
	sorted  bool
	firstEr string
}

func (s *stat) rps() float64 { return float64(s.n) / s.elapsed.Seconds() }

func (s *stat) pct(p float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	if !s.sorted {
		sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
		s.sorted = true
	}
	i := int(p * float64(len(s.lat)))
	if i >= len(s.lat) {
		i = len(s.lat) - 1
	}
	return s.lat[i]
}

// errSkip from an op means it sent nothing: not counted.
var errSkip = errors.New("skipped")

// op is one request of a terminal; it reports an error for an answer
// the scenario does not accept.
type op func(worker, iter int) error

// closedLoop runs conc terminals for d, each sending its next request as
// soon as the last answered, or until stop reports true.
func closedLoop(name string, conc int, d time.Duration, fn op, stop *atomic.Bool) *stat {
	s := &stat{name: name, conc: conc}
	var mu sync.Mutex
	var wg sync.WaitGroup
	began := time.Now()
	end := began.Add(d)
	for w := range conc {
		wg.Go(func() {
			lat := make([]time.Duration, 0, 4096)
			errs, first := 0, ""
			for i := 0; time.Now().Before(end) && (stop == nil || !stop.Load()); i++ {
				t0 := time.Now()
				err := fn(w, i)
				if err == errSkip {
					continue
				}
				lat = append(lat, time.Since(t0))
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			s.lat = append(s.lat, lat...)
			s.errs += errs
			if s.firstEr == "" {
				s.firstEr = first
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	s.elapsed = time.Since(began)
	s.n = len(s.lat)
	return s
}

// openLoop runs conc terminals for d at rate requests per second in all;
// terminal w's j-th request is due at began + (j*conc+w)/rate.
func openLoop(name string, conc int, rate float64, d time.Duration, fn op) *stat {
	s := &stat{name: name, conc: conc}
	var mu sync.Mutex
	var wg sync.WaitGroup
	began := time.Now().Add(20 * time.Millisecond)
	step := time.Duration(float64(time.Second) / rate)
	for w := range conc {
		wg.Go(func() {
			var lat []time.Duration
			errs, first := 0, ""
			for j := 0; ; j++ {
				due := began.Add(time.Duration(j*conc+w) * step)
				if due.Sub(began) >= d {
					break
				}
				if wait := time.Until(due); wait > 0 {
					time.Sleep(wait)
				}
				err := fn(w, j)
				lat = append(lat, time.Since(due))
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			s.lat = append(s.lat, lat...)
			s.errs += errs
			if s.firstEr == "" {
				s.firstEr = first
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	s.elapsed = time.Since(began)
	s.n = len(s.lat)
	return s
}

// report collects the table rows and the notes, printed at the end.
type report struct {
	out   io.Writer
	rows  []string
	notes []string
}

func newReport() *report { return &report{out: os.Stdout} }

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64)
}

// row adds a scenario with its ratios to B0 of the same answer size (b0s)
// and of a 200-byte answer (b0t); fsyncs is per request.
func (r *report) row(s *stat, size int, b0s, b0t *stat, fsyncs string) {
	rs, rt := "-", "-"
	if b0s != nil {
		rs = fmt.Sprintf("%.3f (%.0f)", s.rps()/b0s.rps(), b0s.rps())
	}
	if b0t != nil {
		rt = fmt.Sprintf("%.3f (%.0f)", s.rps()/b0t.rps(), b0t.rps())
	}
	line := fmt.Sprintf("| %s | %d | %.0f | %s | %s | %d/%d | %d | %s | %s | %s |",
		s.name, s.conc, s.rps(), ms(s.pct(0.50)), ms(s.pct(0.99)), s.errs, s.n, size, rs, rt, fsyncs)
	r.rows = append(r.rows, line)
	fmt.Fprintln(r.out, "bench:", line)
	if s.firstEr != "" {
		r.note("%s: first error: %s", s.name, s.firstEr)
	}
}

func (r *report) note(format string, a ...any) {
	n := fmt.Sprintf(format, a...)
	r.notes = append(r.notes, n)
	fmt.Fprintln(r.out, "bench:", n)
}

func (r *report) print(header string) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\n", header)
	b.WriteString("| scenario | terminals | req/s | p50 ms | p99 ms | errors/requests | answer bytes | ratio to B0 same size (B0 req/s) | ratio to B0 200 B (B0 req/s) | fsyncs/req |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range r.rows {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	for _, n := range r.notes {
		b.WriteString("- " + n + "\n")
	}
	fmt.Fprint(r.out, b.String())
}
