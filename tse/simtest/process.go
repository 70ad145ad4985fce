// Package simtest is `posbox tse-sim` in miniature for other packages'
// tests: the simulator (tse/tsesim) with its state in a directory, served
// over real HTTP with fiskaly's wire format on a fixed loopback address,
// stoppable and restartable like a process (process.go). It also holds
// what the simulator's and the fiskaly client's own tests share: the
// simulator served by httptest with a client of it (http.go), a test
// clock, a sale and error checks (helpers.go). Only tests import it.
package simtest

import (
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"posbox/tse/tsesim"
)

// Key and Secret are the API credentials the served simulator accepts.
const Key, Secret = "test_key", "test_secret"

// Process is one served simulator.
type Process struct {
	Dir  string // the simulator's state; it outlives Stop
	Addr string // host:port, the same after a restart
	Sim  *tsesim.Simulator

	now  func() time.Time
	mod  []func(*tsesim.Config)
	hs   *http.Server
	done chan struct{}
}

// Start serves a new simulator whose clock is now, its configuration
// changed by mod (as `posbox tse-sim`'s flags: --cert-validity is
// CertValidity); it stops with the test.
func Start(tb testing.TB, now func() time.Time, mod ...func(*tsesim.Config)) *Process {
	p := &Process{Dir: tb.TempDir(), Addr: "127.0.0.1:0", now: now, mod: mod}
	p.Start(tb)
	tb.Cleanup(p.Stop)
	return p
}

// Start opens the simulator from Dir and serves it on Addr (again, after
// a Stop).
func (p *Process) Start(tb testing.TB) {
	tb.Helper()
	cfg := tsesim.Config{Dir: p.Dir, Now: p.now}
	for _, m := range p.mod {
		m(&cfg)
	}
	sim, err := tsesim.Open(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		tb.Fatal(err)
	}
	p.Addr, p.Sim = ln.Addr().String(), sim
	p.hs = &http.Server{Handler: tsesim.NewServer(sim, Key, Secret), ReadHeaderTimeout: 5 * time.Second}
	p.done = make(chan struct{})
	go func() {
		defer close(p.done)
		if err := p.hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			tb.Error(err)
		}
	}()
}

// Stop kills the server: open connections are cut, the state stays on disk.
func (p *Process) Stop() {
	if p.hs == nil {
		return
	}
	p.hs.Close()
	<-p.done
	p.Sim.Close()
	p.hs = nil
}
