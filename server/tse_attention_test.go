package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// refusingProvider is the simulator refusing every sale's finish
// (revision 2) as a schema error while refuse is set: the worker parks
// the transaction for attention after its start was signed, so it stays
// ACTIVE at the TSS.
type refusingProvider struct {
	tse.Provider
	refuse atomic.Bool
}

func (p *refusingProvider) Upsert(ctx context.Context, r tse.UpsertRequest) (tse.Tx, error) {
	if r.Revision == 2 && p.refuse.Load() {
		if state, _, _, _, err := tse.ParseUpsertBody(r.Body); err == nil && state == tse.TxFinished {
			return tse.Tx{}, &tse.Error{Class: tse.TxPermanent, HTTPStatus: 400, Code: "E_FAILED_SCHEMA_VALIDATION", Message: "test: refused"}
		}
	}
	return p.Provider.Upsert(ctx, r)
}

// newRefusingEnv is a TSE env whose provider refuses finishes until
// refuse is cleared.
func newRefusingEnv(tb testing.TB, o tseEnvOpts) (*tseEnv, *refusingProvider) {
	var rp *refusingProvider
	o.provider = func(s *tsesim.Simulator) tse.Provider {
		rp = &refusingProvider{Provider: s}
		rp.refuse.Store(true)
		return rp
	}
	return newTSEEnv(tb, o), rp
}

// startedThenParked sells once; the worker signs the start and parks the
// refused finish. It returns the transaction id.
func startedThenParked(tb testing.TB, e *tseEnv) string {
	tb.Helper()
	s, tx := e.sell(tb, sale("KASSE-01", 300), e.adminToken)
	if s != http.StatusAccepted {
		tb.Fatalf("status %d", s)
	}
	id := tx["id"].(string)
	poll.Until(tb, 15*time.Second, "the finish parked", func() bool {
		items := e.queue(tb)["items"].([]any)
		for _, it := range items {
			if m := it.(map[string]any); m["tx_id"] == id && m["status"] == "attention" {
				return true
			}
		}
		return false
	})
	return id
}

// An attention item: visible in the queue with its error, status is
// unhealthy, unrelated sales go on; the admin cancels it at the TSE.
func TestTSEAttentionItemCancelledByAdmin(t *testing.T) {
	e, rp := newRefusingEnv(t, tseEnvOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	rp.refuse.Store(false)
	q := e.queue(t)
	item := q["items"].([]any)[0].(map[string]any)
	if num(q["attention"]) != 1 || item["status"] != "attention" || item["last_error_code"] != "E_FAILED_SCHEMA_VALIDATION" || item["tx_id"] != id {
		t.Fatalf("queue %v", q)
	}
	if st := e.status(t); st["healthy"] != false || num(st["attention_count"]) != 1 {
		t.Fatalf("status %v", st)
	}
	// An unrelated sale is not blocked by the parked one.
	_, other := e.sell(t, sale("KASSE-02", 100), e.adminToken)
	poll.Until(t, 15*time.Second, "the unrelated sale signed", func() bool { return e.tx(t, other["id"].(string))["signed"] == true })
	// Staff may not act on the queue; a retry of an item without attention is a 409.
	_, staffTok := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "POST", "/api/tse/queue/"+id+"/cancel", nil, staffTok), 403, eForbidden)
	wantProblem(t, e.do(t, "POST", "/api/tse/queue/"+other["id"].(string)+"/retry", nil, e.adminToken), 409, "tse_queue_state")

	rec := e.do(t, "POST", "/api/tse/queue/"+id+"/cancel", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	poll.Until(t, 15*time.Second, "the cancellation signed", func() bool { return e.tx(t, id)["signed"] == true })
	if got := e.tx(t, id); got["state"] != "CANCELLED" {
		t.Fatalf("after cancel %v", got)
	}
	if ptx := e.providerTx(t, id); ptx.State != tse.TxCancelled || ptx.LatestRevision != 2 {
		t.Fatalf("provider %+v", ptx)
	}
	if q := e.queue(t); num(q["attention"]) != 0 || num(q["pending"]) != 0 {
		t.Fatalf("queue after cancel %v", q)
	}
}

// "Retry" puts a parked transaction back in the queue.
func TestTSEAttentionItemRetried(t *testing.T) {
	e, rp := newRefusingEnv(t, tseEnvOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	rp.refuse.Store(false)
	wantStatus(t, e.do(t, "POST", "/api/tse/queue/"+id+"/retry", nil, e.adminToken), http.StatusOK)
	poll.Until(t, 15*time.Second, "the retried finish signed", func() bool { return e.tx(t, id)["signed"] == true })
	if got := e.tx(t, id); got["state"] != "FINISHED" {
		t.Fatalf("after retry %v", got)
	}
}

// A transaction left ACTIVE for more than 30 minutes with nothing to
// finish it is cancelled by the sweep, so the open-transaction limit is
// never reached; the reconciler adds transactions only the provider knows.
func TestTSEStaleActiveCancelledAndReconciler(t *testing.T) {
	e, _ := newRefusingEnv(t, tseEnvOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	if err := e.q.ReconcileJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	if q := e.queue(t); num(q["pending"]) != 0 {
		t.Fatalf("cancelled a fresh transaction: %v", q)
	}
	e.clock.Add(31 * time.Minute)
	if err := e.q.ReconcileJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 15*time.Second, "the stale transaction cancelled", func() bool { return e.providerTx(t, id).State == tse.TxCancelled })
	info, err := e.sim.TSS(context.Background())
	if err != nil || info.ActiveTransactions != 0 {
		t.Fatalf("active transactions %d %v", info.ActiveTransactions, err)
	}

	// A transaction signed at the provider by someone else.
	ctx := context.Background()
	client := tse.NewUUID4()
	if _, err := e.sim.EnsureClient(ctx, client, "OTHER-POS"); err != nil {
		t.Fatal(err)
	}
	txID := tse.NewUUID4()
	start, _ := tse.UpsertBody(tse.TxActive, client, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, client, &tse.Receipt{ReceiptType: "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "1.00"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "1.00"}}}, nil)
	for i, b := range [][]byte{start, finish} {
		if _, err := e.sim.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: i + 1, Body: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.q.ReconcileJob(ctx); err != nil {
		t.Fatal(err)
	}
	from, to := e.clock.Now().Add(-time.Hour).Format(time.RFC3339), e.clock.Now().Format(time.RFC3339)
	rec := e.do(t, "GET", "/api/tse/transactions?from="+from+"&to="+to, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var list []map[string]any
	decodeInto(t, rec.Body.Bytes(), &list)
	if len(list) != 2 || list[1]["id"] != txID || list[1]["source"] != "reconciled" || list[1]["client_serial"] != "OTHER-POS" ||
		list[0]["state"] != "CANCELLED" || num(list[0]["number"]) != 1 || num(list[1]["number"]) != 2 {
		t.Fatalf("list %v", list)
	}
}

// The TSS's open-transaction limit is reached (2 here): the queue pauses;
// the sweep's cancellations go to the front, free the room, and the queue
// resumes by itself with the waiting sale.
func TestTSETxLimitReachedRecoversThroughSweep(t *testing.T) {
	e, rp := newRefusingEnv(t, tseEnvOpts{budget: time.Millisecond, maxActive: 2})
	stale := []string{startedThenParked(t, e), startedThenParked(t, e)}
	rp.refuse.Store(false)
	s, tx := e.sell(t, sale("KASSE-01", 500), e.adminToken)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	poll.Until(t, 15*time.Second, "queue paused", func() bool { return e.status(t)["queue_paused"] == true })
	if le := e.status(t)["last_error"].(map[string]any); le["code"] != "E_TX_LIMIT_REACHED" {
		t.Fatalf("last error %v", le)
	}
	e.clock.Add(31 * time.Minute)
	if err := e.q.ReconcileJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	for _, id := range stale {
		if got := e.tx(t, id); got["state"] != "CANCELLED" {
			t.Fatalf("stale %v", got)
		}
	}
	if got := e.tx(t, tx["id"].(string)); got["signed"] != true || num(got["number"]) != 3 {
		t.Fatalf("waiting sale %v", got)
	}
	if st := e.status(t); st["queue_paused"] != false || st["open_outage"] != nil {
		t.Fatalf("status %v", st)
	}
}
