package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// The provider applies a revision, then the answer is lost: the resend
// carries the same bytes and the provider holds one transaction, not two.
func TestTSEApplyThenTimeoutMakesOneTransaction(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sim.SetFault(tsesim.Fault{ApplyThenTimeout: 2}) // the start and its first resend
	status, tx := e.sell(t, sale("KASSE-01", 990), e.adminToken)
	if status != http.StatusAccepted || tx["tse_unavailable"] != true {
		t.Fatalf("status %d %v, want 202 unavailable", status, tx)
	}
	poll.Until(t, 15*time.Second, "first attempt filed", func() bool { return e.filed(t, 1) })
	e.advance(2 * time.Second) // backoff base 2 s with jitter 1
	poll.Until(t, 15*time.Second, "second attempt filed", func() bool { return e.filed(t, 2) })
	e.advance(4 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })

	page, err := e.sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 1 || page.Data[0].Number != 1 || page.Data[0].State != tse.TxFinished {
		t.Fatalf("provider has %+v, want one FINISHED transaction number 1", page)
	}
	got := e.tx(t, tx["id"].(string))
	if got["signed"] != true || got["signed_late"] != true || num(got["number"]) != 1 {
		t.Fatalf("transaction %v", got)
	}
	// The next sale continues the numbers without a gap.
	if _, next := e.sell(t, sale("KASSE-01", 100), e.adminToken); num(next["number"]) != 2 {
		t.Fatalf("next number %v, want 2", next["number"])
	}
}

// An outage: the first failures open the circuit; every sale during it
// answers 202 at once; after recovery all are signed in the order they
// were sold, numbers gap-free, and the outage is closed with its count.
func TestTSEOutageThenRecoveryInOrder(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.notifyOn(t, store.EventTSEError, store.EventTSERecovered) // so the events are stored
	// One signed sale before the outage registers the terminal.
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	e.sim.SetFault(tsesim.Fault{Offline: true})
	var ids []string
	s, tx := e.sell(t, sale("KASSE-01", 200), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	ids = append(ids, tx["id"].(string))
	e.failUntilCircuitOpens(t)
	st := e.status(t)
	if st["healthy"] != false || st["online"] != false || st["open_outage"] == nil {
		t.Fatalf("status during outage %v", st)
	}
	// While the circuit is open, sales from three terminals at once answer
	// 202 without waiting (the budget is 30 s; a wait would time the test
	// out), all in the one open outage.
	var mu sync.Mutex
	var wg sync.WaitGroup
	for k := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				rec := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-0"+strconv.Itoa(k+1), 300+i), e.adminToken)
				tx := field(rec.Body.Bytes(), "transaction")
				if rec.Code != http.StatusAccepted || tx["signed"] != false || tx["tse_unavailable"] != true || tx["number"] != nil {
					t.Errorf("sale during outage: %d %s", rec.Code, rec.Body.String())
					return
				}
				mu.Lock()
				ids = append(ids, tx["id"].(string))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	q := e.queue(t)
	if num(q["pending"]) != 2*len(ids) || q["oldest_queued_at"] == nil {
		t.Fatalf("queue %v, want %d pending", q["pending"], 2*len(ids))
	}
	// The provider comes back; the half-open probe (every 30 s) finds it.
	e.sim.SetFault(tsesim.Fault{})
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })

	for _, id := range ids {
		got := e.tx(t, id)
		if got["signed"] != true || got["signed_late"] != true || got["receipt_without_tse"] != true {
			t.Fatalf("sale %s: %v, want signed late", id, got)
		}
		if err := tse.VerifyTx(e.sim.PublicKey(), e.providerTx(t, id)); err != nil {
			t.Fatal(err)
		}
	}
	// Numbers follow the order the sales were recorded, without a gap.
	if got := numbersInSaleOrder(t, e); len(got) != len(ids)+1 {
		t.Fatalf("numbers %v", got)
	}
	rec := e.do(t, "GET", "/api/tse/outages", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	outages := decodeJSON(t, rec)["outages"].([]any)
	if len(outages) != 1 {
		t.Fatalf("outages %v", outages)
	}
	o := outages[0].(map[string]any)
	if o["ended_at"] == nil || num(o["affected_transactions"]) != len(ids) || o["reason_code"] != tse.CodeNetwork {
		t.Fatalf("outage %v, want closed with %d affected", o, len(ids))
	}
	if n := len(e.storedEvents(t, store.EventTSEError)); n != 1 {
		t.Fatalf("%d tse_error events, want 1", n)
	}
	if n := len(e.storedEvents(t, store.EventTSERecovered)); n != 1 {
		t.Fatalf("%d tse_recovered events, want 1", n)
	}
	if st := e.status(t); st["healthy"] != true || st["open_outage"] != nil {
		t.Fatalf("status after recovery %v", st)
	}
}

// 429 with Retry-After: the next attempt is scheduled no earlier than the
// provider asked, and the sale is signed after it.
func TestTSERateLimitHonoursRetryAfter(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sim.SetFault(tsesim.Fault{RateLimited: 7 * time.Second})
	t0 := e.clock.Now()
	s, tx := e.sell(t, sale("KASSE-01", 100), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	poll.Until(t, 15*time.Second, "rate-limited attempt filed", func() bool { return e.filed(t, 1) })
	item := e.queue(t)["items"].([]any)[0].(map[string]any)
	if item["next_attempt_at"] != ts(t0.Add(7*time.Second)) || item["last_http_status"] != 429.0 {
		t.Fatalf("item %v, want next attempt at %s", item, ts(t0.Add(7*time.Second)))
	}
	// A rate limit is not an outage of the provider: the circuit stays closed.
	if st := e.status(t); st["circuit"] != "closed" {
		t.Fatalf("status %v", st)
	}
	e.sim.SetFault(tsesim.Fault{})
	e.advance(7 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	if got := e.tx(t, tx["id"].(string)); got["signed"] != true {
		t.Fatalf("transaction %v", got)
	}
}

// An expired certificate or a disabled TSS pauses the queue (nothing is
// dropped), turns status unhealthy and info DECOMMISSIONED.
func TestTSEExpiredCertificateOrDisabledPausesQueue(t *testing.T) {
	for _, c := range []struct {
		name   string
		break_ func(*tsesim.Simulator) error
		code   string
	}{
		{"expired certificate", (*tsesim.Simulator).ExpireCertificate, "E_CERTIFICATE_EXPIRED"},
		{"disabled", func(s *tsesim.Simulator) error { return s.SetState(tse.TSSDisabled) }, "E_TSS_DISABLED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newTSEEnv(t, tseEnvOpts{})
			if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
				t.Fatalf("status %d", s)
			}
			if err := c.break_(e.sim); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusAccepted {
					t.Fatalf("status %d, want 202", s)
				}
			}
			st := e.status(t)
			if st["healthy"] != false || st["queue_paused"] != true || st["circuit"] != "open" || num(st["queue_depth"]) != 6 {
				t.Fatalf("status %v", st)
			}
			if le := st["last_error"].(map[string]any); le["code"] != c.code {
				t.Fatalf("last error %v, want %s", le, c.code)
			}
			rec := e.do(t, "GET", "/api/tse/info", nil, e.adminToken)
			wantStatus(t, rec, http.StatusOK)
			if info := decodeJSON(t, rec)["info"].(map[string]any); info["state"] != "DECOMMISSIONED" {
				t.Fatalf("info %v", info)
			}
			// Probing does not resume a TSS that still cannot sign.
			e.advance(31 * time.Second)
			if st := e.status(t); st["queue_paused"] != true || num(st["queue_depth"]) != 6 {
				t.Fatalf("status after probe %v", st)
			}
		})
	}
}

// The appliance dies between a transaction's start and finish (the start
// reached the provider, its answer did not, and the resend was in flight
// when the process stopped). After the restart nothing is lost and the
// provider holds each transaction once.
func TestTSECrashBetweenStartAndFinish(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	e.sim.SetFault(tsesim.Fault{ApplyThenTimeout: 1})
	_, tx := e.sell(t, sale("KASSE-01", 250), e.adminToken)
	poll.Until(t, 15*time.Second, "start applied, answer lost", func() bool { return e.filed(t, 1) })
	if ptx := e.providerTx(t, tx["id"].(string)); ptx.State != tse.TxActive {
		t.Fatalf("provider state %s, want ACTIVE", ptx.State)
	}
	// Stop the worker, then mark the head in flight as a crash mid-resend
	// would leave it, and close everything.
	e.stop()
	<-e.stopped
	e.stop = nil
	head, err := e.st.TSEHeadJob(context.Background(), e.tssID)
	if err != nil || head == nil {
		t.Fatal(head, err)
	}
	if err := e.st.StartTSEJob(context.Background(), head.Seq); err != nil {
		t.Fatal(err)
	}
	// A self-test was running too.
	running, started, err := e.st.StartTSESelfTest(context.Background(), e.restaurant.ID, e.tssID)
	if err != nil || !started {
		t.Fatal(started, err)
	}
	e.close()

	e2 := newTSEEnv(t, tseEnvOpts{dbDir: e.dbDir, simDir: e.simDir, clock: e.clock,
		restaurant: e.restaurant, admin: e.admin, adminToken: e.adminToken})
	// The lost answer left an outage open, so the restart begins with the
	// circuit open; the half-open probe 30 s later finds the provider.
	e2.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained after restart", func() bool { return e2.queueEmpty(t) })
	got := e2.tx(t, tx["id"].(string))
	if got["signed"] != true || num(got["number"]) != 2 || got["state"] != "FINISHED" {
		t.Fatalf("transaction after restart %v", got)
	}
	page, err := e2.sim.ListTx(context.Background(), tse.ListQuery{})
	if err != nil || page.Count != 2 {
		t.Fatalf("provider holds %d transactions (%v), want 2", page.Count, err)
	}
	if err := tse.VerifyTx(e2.sim.PublicKey(), e2.providerTx(t, tx["id"].(string))); err != nil {
		t.Fatal(err)
	}
	// The interrupted self-test is not left RUNNING forever (it would block
	// every later one): it is FAILED; the provider being back, the queue
	// runs a new one by itself, and the status is healthy again.
	if st, err := e2.st.TSESelfTest(context.Background(), running.ID); err != nil || st.State != "FAILED" || !strings.Contains(st.Error, "interrupted") {
		t.Fatalf("interrupted self-test after restart %+v %v", st, err)
	}
	poll.Until(t, 15*time.Second, "a new self-test passed", func() bool {
		last := e2.status(t)["last_self_test"].(map[string]any)
		return last["state"] == "PASSED" && last["id"] != running.ID
	})
	wantStatus(t, e2.do(t, "POST", "/api/tse/self-test", nil, e2.adminToken), http.StatusAccepted)
}

// Stopping the appliance while a request hangs at the provider: the worker
// returns promptly and hands the item back (pending, same bytes) for the
// next start.
func TestTSEWorkerStopHandsBackItem(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{budget: time.Millisecond})
	e.sim.SetFault(tsesim.Fault{Latency: time.Hour})
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusAccepted {
		t.Fatalf("status %d, want 202 after the budget", s)
	}
	poll.Until(t, 15*time.Second, "request in flight", func() bool {
		j, _ := e.st.TSEHeadJob(context.Background(), e.tssID)
		return j != nil && j.Status == store.TSEJobInFlight
	})
	before, _ := e.st.TSEHeadJob(context.Background(), e.tssID)
	e.stop()
	<-e.stopped
	e.stop = nil
	after, err := e.st.TSEHeadJob(context.Background(), e.tssID)
	if err != nil || after == nil || after.Status != store.TSEJobPending || after.Seq != before.Seq || string(after.Body) != string(before.Body) {
		t.Fatalf("after stop: %+v %v", after, err)
	}
	// The receipt went out without TSE data: that is an outage record.
	outages, err := e.st.TSEOutages(context.Background(), e.restaurant.ID)
	if err != nil || len(outages) != 1 || outages[0].ReasonCode != "E_TIMEOUT" || outages[0].AffectedTransactions != 1 {
		t.Fatalf("outages %+v %v", outages, err)
	}
}

// Info with the provider unreachable and nothing known: 503 tse_unavailable.
func TestTSEInfoUnavailableWithoutCache(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{noWorker: true})
	e.sim.SetFault(tsesim.Fault{Offline: true})
	wantProblem(t, e.do(t, "GET", "/api/tse/info", nil, e.adminToken), http.StatusServiceUnavailable, "tse_unavailable")
	e.sim.SetFault(tsesim.Fault{})
	rec := e.do(t, "GET", "/api/tse/info", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	info := decodeJSON(t, rec)["info"].(map[string]any)
	cert, err := time.Parse(time.RFC3339, info["certificate_expiry"].(string))
	if err != nil || info["state"] != "INITIALIZED" || info["_id"] != e.sim.TSSID() || info["serial_number"] == "" {
		t.Fatalf("info %v", info)
	}
	if want := e.clock.Now().Add(365 * 24 * time.Hour); cert.Sub(want).Abs() > 24*time.Hour {
		t.Fatalf("certificate_expiry %s, want about %s", cert, want)
	}
}

// numbersInSaleOrder lists the transaction numbers in the order the sales
// were recorded (their start revisions), failing unless they are 1..n.
func numbersInSaleOrder(tb testing.TB, e *tseEnv) []int {
	tb.Helper()
	rows, err := e.st.ReadDB().Query(`SELECT COALESCE(tb.number, 0) FROM tse_jobs j JOIN tse_transactions tb ON tb.tx_id = j.tx_id
		WHERE j.revision = 1 ORDER BY j.seq`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			tb.Fatal(err)
		}
		out = append(out, n)
		if n != len(out) {
			tb.Fatalf("sale %d has number %d", len(out), n)
		}
	}
	return out
}

// 503 E_TSS_LOCKED (the provider's maintenance) is transient: the finish
// is retried after the backoff and the sale signed once.
func TestTSELockedIsRetried(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	e.sim.SetFault(tsesim.Fault{FlakyEvery: 2}) // the start passes, the finish gets 503
	s, tx := e.sell(t, sale("KASSE-01", 200), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	poll.Until(t, 15*time.Second, "finish refused", func() bool { return e.filed(t, 1) })
	item := e.queue(t)["items"].([]any)[0].(map[string]any)
	if item["revision"] != 2.0 || item["last_http_status"] != 503.0 || item["last_error_code"] != "E_TSS_LOCKED" {
		t.Fatalf("item %v", item)
	}
	e.advance(2 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	if got := e.tx(t, tx["id"].(string)); got["signed"] != true || num(got["number"]) != 2 {
		t.Fatalf("transaction %v", got)
	}
}
