package server

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// simProcess is a served simulator (simtest) with the test's clock.
type simProcess struct {
	*simtest.Process
	clock *storetest.Clock
}

const simKey, simSecret = simtest.Key, simtest.Secret

func startSimProcess(tb testing.TB, clock *storetest.Clock) *simProcess {
	return &simProcess{Process: simtest.Start(tb, clock.Now), clock: clock}
}

// client is the real fiskaly client pointed at the process.
func (p *simProcess) client(tb testing.TB, txTimeout time.Duration) *tse.Fiskaly {
	tb.Helper()
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: "http://" + p.Addr, APIKey: simKey, APISecret: simSecret,
		TSSID: p.Sim.TSSID(), AdminPIN: tsesim.DefaultAdminPIN, Now: p.clock.Now, TxTimeout: txTimeout})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

// The sim server is stopped and started again while the terminals keep
// selling: sales answer 202 while it is gone, and after it is back all of
// them are signed over HTTP in order, the outage closed with its count.
func TestTSEOverHTTPSimRestartWhileSelling(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	proc := startSimProcess(t, clock)
	e := newTSEEnv(t, tseEnvOpts{clock: clock, external: proc.client(t, 0)})

	if s, tx := e.sell(t, sale("KASSE-01", 1000), e.adminToken); s != http.StatusCreated || num(tx["number"]) != 1 {
		t.Fatalf("before the stop: %d %v", s, tx)
	}
	proc.Stop()
	var ids []string
	s, tx := e.sell(t, sale("KASSE-02", 1100), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	ids = append(ids, tx["id"].(string))
	e.failUntilCircuitOpens(t)
	for i := range 6 {
		s, tx := e.sell(t, sale("KASSE-0"+strconv.Itoa(1+i%2), 1200+i), e.adminToken)
		if s != http.StatusAccepted || tx["tse_unavailable"] != true {
			t.Fatalf("sale during the stop: %d %v", s, tx)
		}
		ids = append(ids, tx["id"].(string))
	}
	// Info still answers, from the cache.
	rec := e.do(t, "GET", "/api/tse/info", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if info := decodeJSON(t, rec)["info"].(map[string]any); info["cached"] != true || info["state"] != "INITIALIZED" {
		t.Fatalf("info while down %v", info)
	}

	proc.Start(t) // same address, same state directory
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	for i, id := range ids {
		got := e.tx(t, id)
		if num(got["number"]) != i+2 || got["signed"] != true || got["signed_late"] != true {
			t.Fatalf("sale %d after restart: %v", i, got)
		}
		ptx, err := proc.Sim.Tx(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tse.VerifyTx(proc.Sim.PublicKey(), ptx); err != nil {
			t.Fatal(err)
		}
	}
	page, err := proc.Sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil || page.Count != len(ids)+1 {
		t.Fatalf("provider holds %d transactions (%v), want %d", page.Count, err, len(ids)+1)
	}
	rec = e.do(t, "GET", "/api/tse/outages", nil, e.adminToken)
	o := decodeJSON(t, rec)["outages"].([]any)[0].(map[string]any)
	if o["ended_at"] == nil || num(o["affected_transactions"]) != len(ids) {
		t.Fatalf("outage %v", o)
	}
}

// Over HTTP the provider applies a revision and the answer never comes
// (the client's deadline passes): one transaction at the provider, not two.
func TestTSEOverHTTPApplyThenTimeout(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	proc := startSimProcess(t, clock)
	e := newTSEEnv(t, tseEnvOpts{clock: clock, external: proc.client(t, 300*time.Millisecond)})
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	proc.Sim.SetFault(tsesim.Fault{ApplyThenTimeout: 2}) // the start and its first resend
	s, tx := e.sell(t, sale("KASSE-01", 200), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	poll.Until(t, 15*time.Second, "start applied, answer lost", func() bool { return e.filed(t, 1) })
	e.advance(2 * time.Second)
	poll.Until(t, 15*time.Second, "resend answered by the provider, answer lost again", func() bool { return e.filed(t, 2) })
	e.advance(4 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	page, err := proc.Sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil || page.Count != 2 {
		t.Fatalf("provider holds %d transactions (%v), want 2", page.Count, err)
	}
	got := e.tx(t, tx["id"].(string))
	if got["signed"] != true || num(got["number"]) != 2 {
		t.Fatalf("transaction %v", got)
	}
	ptx, err := proc.Sim.Tx(context.Background(), tx["id"].(string), 0)
	if err != nil || ptx.LatestRevision != 2 || got["signature"] != ptx.Signature.Value {
		t.Fatalf("provider tx %+v %v; api %v", ptx, err, got)
	}
}
