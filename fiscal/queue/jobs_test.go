package queue

import (
	"context"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// startedThenParked records a sale, forwards only its start (the worker
// is driven step by step) and parks the finish as the provider's
// permanent refusal would.
func startedThenParked(tb testing.TB, e *env) string {
	tb.Helper()
	tx := e.sell(tb, sale("KASSE-01", 300), "")
	e.q.step(context.Background()) // revision 1
	head := e.head(tb)
	if head == nil || head.Revision != 2 {
		tb.Fatalf("head %+v", head)
	}
	if err := e.st.ParkTSETx(context.Background(), head, 400, "E_FAILED_SCHEMA_VALIDATION", "test: refused"); err != nil {
		tb.Fatal(err)
	}
	return tx.TxID
}

// An attention item makes the status unhealthy and blocks no other sale;
// Cancel closes it at the TSE with a CANCELLED revision.
func TestAttentionItemCancelled(t *testing.T) {
	e := newEnv(t, envOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	st, err := e.q.Status(context.Background(), e.restaurant.ID)
	if err != nil || st.Healthy || st.Queue.Attention != 1 {
		t.Fatalf("status %+v %v", st, err)
	}
	other := e.sell(t, sale("KASSE-02", 100), "")
	e.q.step(context.Background())
	e.q.step(context.Background())
	if !e.tx(t, other.TxID).Signed() {
		t.Fatalf("the unrelated sale waits behind the parked one")
	}
	if err := e.q.Retry(context.Background(), e.restaurant.ID, other.TxID); store.ErrorCode(err) != store.ETSEQueueState {
		t.Fatalf("retry of a signed sale: %v", err)
	}
	if err := e.q.Cancel(context.Background(), e.restaurant.ID, id); err != nil {
		t.Fatal(err)
	}
	e.q.step(context.Background())
	if got := e.tx(t, id); got.State != tse.TxCancelled || !got.Signed() {
		t.Fatalf("after cancel %+v", got)
	}
	if ptx, err := e.sim.Tx(context.Background(), id, 0); err != nil || ptx.State != tse.TxCancelled || ptx.LatestRevision != 2 {
		t.Fatalf("provider %+v %v", ptx, err)
	}
	if st, _ := e.q.Status(context.Background(), e.restaurant.ID); st.Queue.Attention != 0 || st.Queue.Pending != 0 {
		t.Fatalf("queue after cancel %+v", st.Queue)
	}
}

// Retry puts a parked transaction back; the next step finishes it.
func TestAttentionItemRetried(t *testing.T) {
	e := newEnv(t, envOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	if err := e.q.Retry(context.Background(), e.restaurant.ID, id); err != nil {
		t.Fatal(err)
	}
	e.q.step(context.Background())
	if got := e.tx(t, id); got.State != tse.TxFinished || !got.Signed() {
		t.Fatalf("after retry %+v", got)
	}
}

// The sweep cancels a transaction left ACTIVE for more than 30 minutes,
// not a fresh one; the reconciler copies what only the provider knows.
func TestStaleActiveCancelledAndReconciled(t *testing.T) {
	e := newEnv(t, envOpts{budget: time.Millisecond})
	ctx := context.Background()
	id := startedThenParked(t, e)
	if err := e.q.ReconcileJob(ctx); err != nil {
		t.Fatal(err)
	}
	if h := e.head(t); h != nil {
		t.Fatalf("cancelled a fresh transaction: %+v", h)
	}
	e.clock.Add(31 * time.Minute)
	if err := e.q.ReconcileJob(ctx); err != nil {
		t.Fatal(err)
	}
	e.q.step(ctx)
	if ptx, err := e.sim.Tx(ctx, id, 0); err != nil || ptx.State != tse.TxCancelled {
		t.Fatalf("provider %+v %v", ptx, err)
	}

	// A transaction signed at the provider by another system.
	client := tse.NewUUID4()
	if _, err := e.sim.EnsureClient(ctx, client, "OTHER-POS"); err != nil {
		t.Fatal(err)
	}
	txID := tse.NewUUID4()
	s := sale("", 100)
	amounts := WireSale(&s).Receipt
	start, _ := tse.UpsertBody(tse.TxActive, client, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, client, &amounts, nil)
	for i, b := range [][]byte{start, finish} {
		if _, err := e.sim.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: i + 1, Body: b}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.q.ReconcileJob(ctx); err != nil {
		t.Fatal(err)
	}
	got := e.tx(t, txID)
	if got.Source != "reconciled" || got.ClientSerial != "OTHER-POS" || *got.Number != 2 || got.State != tse.TxFinished {
		t.Fatalf("reconciled %+v", got)
	}
}

// A restart during an outage starts with the circuit open, so the first
// sale answers at once instead of waiting out the budget.
func TestRestoreOpenCircuit(t *testing.T) {
	dir, simDir := t.TempDir(), t.TempDir()
	e := newEnv(t, envOpts{dir: dir, simDir: simDir, budget: time.Millisecond})
	e.sim.SetFault(tsesim.Fault{Offline: true})
	e.sell(t, sale("KASSE-01", 100), "") // unsigned: opens the outage
	e.close()

	e2 := newEnv(t, envOpts{dir: dir, simDir: simDir, budget: time.Hour})
	st, err := e2.q.Status(context.Background(), e2.restaurant.ID)
	if err != nil || !st.CircuitOpen || st.OpenOutage == nil {
		t.Fatalf("status after restart %+v %v", st, err)
	}
	began := time.Now()
	got := e2.sell(t, sale("KASSE-01", 200), "")
	if got.Signed() || !got.ReceiptWithoutTSE || got.OutageID != st.OpenOutage.ID || time.Since(began) > 5*time.Second {
		t.Fatalf("sale after restart %+v after %s", got, time.Since(began))
	}
}

// A self-test that failed during an outage is run again when the outage
// ends, so the status is healthy again without waiting for 02:00.
func TestSelfTestRerunWhenOutageEnds(t *testing.T) {
	e := newEnv(t, envOpts{budget: 50 * time.Millisecond})
	ctx := context.Background()
	e.sim.SetFault(tsesim.Fault{Offline: true})
	if err := e.q.SelfTestJob(ctx); err != nil {
		t.Fatal(err)
	}
	if last, err := e.st.LatestTSESelfTest(ctx, e.restaurant.ID); err != nil || last.State != store.SelfTestFailed {
		t.Fatalf("self-test while offline: %+v %v", last, err)
	}
	e.run()
	if got := e.sell(t, sale("KASSE-01", 100), ""); got.Signed() {
		t.Fatalf("signed while offline: %+v", got)
	}
	e.sim.SetFault(tsesim.Fault{})
	poll.Until(t, 15*time.Second, "the sale signed and the status healthy", func() bool {
		e.clock.Add(time.Minute) // past any backoff or probe wait
		e.q.Wake()
		st, err := e.q.Status(ctx, e.restaurant.ID)
		return err == nil && st.Healthy && st.LastSelfTest.State == store.SelfTestPassed
	})
}
