package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/fiscal/queue"
	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// gatedProvider is the simulator whose TSS reads wait at a gate while it
// is closed: it holds a self-test in RUNNING for as long as a test needs.
type gatedProvider struct {
	tse.Provider
	mu   sync.Mutex
	gate chan struct{} // nil: open
}

func (g *gatedProvider) close() { g.mu.Lock(); g.gate = make(chan struct{}); g.mu.Unlock() }
func (g *gatedProvider) open() {
	g.mu.Lock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
	}
	g.mu.Unlock()
}

func (g *gatedProvider) TSS(ctx context.Context) (tse.TSSInfo, error) {
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return tse.TSSInfo{}, ctx.Err()
		}
	}
	return g.Provider.TSS(ctx)
}

// Two (and many concurrent) POSTs while a self-test runs return the same
// running test and start nothing; it then passes and shows in status.
func TestTSESelfTestSingleFlight(t *testing.T) {
	var gp *gatedProvider
	e := newTSEEnv(t, tseEnvOpts{provider: func(s *tsesim.Simulator) tse.Provider {
		gp = &gatedProvider{Provider: s}
		return gp
	}})
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	gp.close()
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := e.do(t, "POST", "/api/tse/self-test", nil, e.adminToken)
			if rec.Code != http.StatusAccepted {
				t.Errorf("status %d %s", rec.Code, rec.Body.String())
				return
			}
			st := field(rec.Body.Bytes(), "self_test")
			if st["state"] != "RUNNING" || st["finished_at"] != nil || st["started_at"] == nil {
				t.Errorf("self-test %v", st)
			}
			ids[i], _ = st["id"].(string)
		}()
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("two self-tests started: %v", ids)
		}
	}
	gp.open()
	poll.Until(t, 15*time.Second, "self-test finished", func() bool {
		st, err := e.st.TSESelfTest(context.Background(), ids[0])
		return err == nil && st.State != store.SelfTestRunning
	})
	st := e.status(t)
	last := st["last_self_test"].(map[string]any)
	if last["id"] != ids[0] || last["state"] != "PASSED" || last["finished_at"] == nil || st["last_self_test_error"] != nil || st["healthy"] != true {
		t.Fatalf("status %v", st)
	}
	// The checks include the signature of the last sale verified with the TSS key.
	checks := last["checks"].([]any)
	found := false
	for _, c := range checks {
		c := c.(map[string]any)
		if c["result"] == "failed" {
			t.Fatalf("check failed: %v", c)
		}
		found = found || (c["name"] == "signature" && c["result"] == "ok")
	}
	if !found {
		t.Fatalf("no verified signature check: %v", checks)
	}
	// A later POST starts a new test.
	rec := e.do(t, "POST", "/api/tse/self-test", nil, e.adminToken)
	if id := decodeJSON(t, rec)["self_test"].(map[string]any)["id"]; id == ids[0] {
		t.Fatal("a finished self-test was returned as running")
	}
}

// A failing self-test (disabled TSS) is FAILED with its error in status
// and raises tse_error.
func TestTSESelfTestFailure(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{noWorker: true})
	e.notifyOn(t, store.EventTSEError) // so the event is stored
	if err := e.sim.SetState(tse.TSSDisabled); err != nil {
		t.Fatal(err)
	}
	if err := e.q.SelfTestJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.status(t)
	if st["healthy"] != false || st["last_self_test"].(map[string]any)["state"] != "FAILED" {
		t.Fatalf("status %v", st)
	}
	if msg, _ := st["last_self_test_error"].(string); msg == "" {
		t.Fatalf("no error: %v", st)
	}
	ev := e.storedEvents(t, store.EventTSEError)
	if len(ev) != 1 || !strings.Contains(string(ev[0].Data), "self_test_failed") {
		t.Fatalf("events %v", ev)
	}
}

// The certificate check raises tse_certificate_expiring once per
// certificate and threshold (90, 30 and 7 days), not every day and not
// again after a restart; the status says from 90 days on that it expires.
func TestTSECertificateExpiringOnce(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{noWorker: true, certValid: 100 * 24 * time.Hour})
	e.notifyOn(t, store.EventTSECertExpiring) // so the events are stored
	check := func(q *queue.Queue) {
		t.Helper()
		if err := q.CertificateJob(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	check(e.q)
	if n := len(e.storedEvents(t, store.EventTSECertExpiring)); n != 0 {
		t.Fatalf("%d events with 100 days left", n)
	}
	if w := e.status(t)["certificate_warning"]; w != nil {
		t.Fatalf("certificate_warning %v with 100 days left", w)
	}
	// Daily runs from day 10 (90 days left) to day 99 (one day left).
	e.clock.Add(9 * 24 * time.Hour)
	for range 90 {
		e.clock.Add(24 * time.Hour)
		check(e.q)
	}
	ev := e.storedEvents(t, store.EventTSECertExpiring)
	want := []string{`"days_left":7,`, `"days_left":30,`, `"days_left":90,`} // newest first
	if len(ev) != len(want) {
		t.Fatalf("%d events, want 3: %v", len(ev), ev)
	}
	for i, w := range want {
		if !strings.Contains(string(ev[i].Data), w) {
			t.Fatalf("event %d %s, want %s", i, ev[i].Data, w)
		}
	}
	// A restart: a new queue on the same database raises nothing again.
	q2, err := queue.New(context.Background(), e.sim, e.st, queue.Options{RestaurantID: e.restaurant.ID,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	check(q2)
	if n := len(e.storedEvents(t, store.EventTSECertExpiring)); n != 3 {
		t.Fatalf("%d events after a restart, want 3", n)
	}
	tok, err := IssueToken(testKey, e.admin, e.clock.Now(), time.Hour) // days passed: a fresh login
	if err != nil {
		t.Fatal(err)
	}
	rec := e.do(t, "GET", "/api/tse/status", nil, tok)
	st := decodeJSON(t, rec)["status"].(map[string]any)
	w, _ := st["certificate_warning"].(map[string]any)
	if num(st["days_to_certificate_expiry"]) != 1 || w == nil || num(w["threshold_days"]) != 7 || num(w["days_left"]) != 1 {
		t.Fatalf("status %v", st)
	}
}

// A self-test that cannot reach the provider names the cause in words and
// gives the event the code, so the notification can say it in German.
func TestTSESelfTestUnreachableIsReadable(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{noWorker: true})
	e.notifyOn(t, store.EventTSEError) // so the event is stored
	e.sim.SetFault(tsesim.Fault{Offline: true})
	if err := e.q.SelfTestJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	if msg := e.status(t)["last_self_test_error"]; msg != "tss_reachable: TSE provider unreachable (network error)" {
		t.Fatalf("last_self_test_error %v", msg)
	}
	ev := e.storedEvents(t, store.EventTSEError)
	var data map[string]any
	decodeInto(t, ev[0].Data, &data)
	if len(ev) != 1 || data["reason"] != "self_test_failed" || data["error_code"] != tse.CodeNetwork {
		t.Fatalf("event %v", data)
	}
}
