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

// A sale with the provider up is signed within the budget: the till gets
// the number, the signature and the QR code, and the queue is empty.
func TestSellSigned(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.run()
	for i, want := range []int64{1, 2} {
		got := e.sell(t, sale("KASSE-01", 2142+int64(i)), "")
		if !got.Signed() || got.State != tse.TxFinished || got.Number == nil || *got.Number != want ||
			got.SignatureValue == "" || got.QRCodeData == "" || got.ReceiptWithoutTSE {
			t.Fatalf("sale %d: %+v", i, got)
		}
	}
	if h := e.head(t); h != nil {
		t.Fatalf("queue not empty: %+v", h)
	}
}

// With the provider unreachable, the sale is recorded, answers unsigned
// once the budget runs out, and the receipt is counted in an open outage;
// when the provider is back the worker signs it late, in order.
func TestSellDuringOutageSignedLate(t *testing.T) {
	e := newEnv(t, envOpts{budget: 50 * time.Millisecond})
	e.sim.SetFault(tsesim.Fault{Offline: true})
	e.run()
	got := e.sell(t, sale("KASSE-01", 500), "")
	if got.Signed() || !got.ReceiptWithoutTSE || got.OutageID == "" {
		t.Fatalf("sale during the outage: %+v", got)
	}
	o, err := e.st.OpenTSEOutageOf(context.Background(), e.q.tssID)
	if err != nil || o.ID != got.OutageID || o.AffectedTransactions != 1 {
		t.Fatalf("outage %+v %v", o, err)
	}
	e.sim.SetFault(tsesim.Fault{})
	// The head backs off 2 s after the first failure; move the clock past it.
	e.clock.Add(3 * time.Second)
	e.q.Wake()
	poll.Until(t, 15*time.Second, "the sale signed late", func() bool { return e.tx(t, got.TxID).Signed() })
	if late := e.tx(t, got.TxID); !late.SignedLate || *late.Number != 1 {
		t.Fatalf("signed late: %+v", late)
	}
	if _, err := e.st.OpenTSEOutageOf(context.Background(), e.q.tssID); !store.IsNotFound(err) {
		t.Fatalf("outage still open: %v", err)
	}
}

// The same Idempotency-Key answers what its first request answered, and
// records no second sale; another request under the key is refused.
func TestSellIdempotent(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.run()
	first := e.sell(t, sale("KASSE-01", 700), "k-1")
	again := e.sell(t, sale("KASSE-01", 700), "k-1")
	if again.TxID != first.TxID || *again.Number != *first.Number || again.SignatureValue != first.SignatureValue {
		t.Fatalf("replay %+v, first %+v", again, first)
	}
	txs, err := e.st.TSETransactions(context.Background(), e.restaurant.ID, e.clock.Now().Add(-time.Hour), e.clock.Now().Add(time.Hour))
	if err != nil || len(txs) != 1 {
		t.Fatalf("%d transactions recorded, want 1 (%v)", len(txs), err)
	}
	_, err = e.q.Sell(context.Background(), e.restaurant.ID, sale("KASSE-01", 800), "k-1")
	if store.ErrorCode(err) != store.EIdempotencyKeyReused {
		t.Fatalf("reused key: %v", err)
	}
}

// The TSS signs for one restaurant only: another's sale is refused and
// nothing is recorded.
func TestSellOtherRestaurantRefused(t *testing.T) {
	e := newEnv(t, envOpts{})
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	_, err := e.q.Sell(context.Background(), other.ID, sale("KASSE-01", 100), "")
	if store.ErrorCode(err) != store.ETSENotConfigured {
		t.Fatalf("other restaurant: %v", err)
	}
	if h := e.head(t); h != nil {
		t.Fatalf("recorded anyway: %+v", h)
	}
}

// Two first sales of a new terminal at once register it under one client
// id: the one that lost the race builds its revisions again for the id
// that won.
func TestSellNewTerminalConcurrently(t *testing.T) {
	e := newEnv(t, envOpts{budget: time.Millisecond})
	const n = 8
	ids := make(chan string, n)
	for range n {
		go func() {
			tx, err := e.q.Sell(context.Background(), e.restaurant.ID, sale("KASSE-NEW", 100), "")
			if err != nil {
				ids <- "error: " + err.Error()
				return
			}
			ids <- tx.ClientID
		}()
	}
	first := <-ids
	for range n - 1 {
		if id := <-ids; id != first {
			t.Fatalf("client ids %q and %q for one terminal", first, id)
		}
	}
	clients, err := e.st.TSEClients(context.Background(), e.q.tssID)
	if err != nil || len(clients) != 1 {
		t.Fatalf("clients %+v %v", clients, err)
	}
}

// A retry of a sale whose first attempt is still undecided (its till gave
// up waiting while the provider had not answered) decides it within its
// own budget: the receipt goes out without TSE data and is counted in the
// outage, and every later attempt of the key gives that same answer, also
// after the sale was signed.
func TestSellRetryOfUndecidedSale(t *testing.T) {
	gp := &gatedProvider{gate: make(chan struct{})}
	e := newEnv(t, envOpts{budget: 200 * time.Millisecond, provider: func(s *tsesim.Simulator) tse.Provider {
		gp.Provider = s
		return gp
	}})
	e.run()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := e.q.Sell(ctx, e.restaurant.ID, sale("KASSE-01", 900), "k-undecided")
		first <- err
	}()
	key := store.IdempotencyKey{RestaurantID: e.restaurant.ID, Scope: store.IdemTSESale, Key: "k-undecided"}
	poll.Until(t, 15*time.Second, "the first attempt recorded", func() bool { _, err := e.st.Idempotent(context.Background(), key); return err == nil })
	cancel() // the till hangs up before the answer
	if err := <-first; err != context.Canceled {
		t.Fatalf("first attempt: %v", err)
	}

	retry := e.sell(t, sale("KASSE-01", 900), "k-undecided")
	if retry.Signed() || !retry.ReceiptWithoutTSE || retry.OutageID == "" {
		t.Fatalf("retry of the undecided sale: %+v", retry)
	}
	if k, err := e.st.Idempotent(context.Background(), key); err != nil || k.Status != answeredUnsigned {
		t.Fatalf("the retry's answer is not recorded: %+v %v", k, err)
	}
	o, err := e.st.OpenTSEOutageOf(context.Background(), e.q.tssID)
	if err != nil || o.AffectedTransactions != 1 {
		t.Fatalf("outage %+v %v", o, err)
	}

	close(gp.gate) // the provider answers: the sale is signed, late
	poll.Until(t, 15*time.Second, "the sale signed", func() bool { return e.tx(t, retry.TxID).Signed() })
	again := e.sell(t, sale("KASSE-01", 900), "k-undecided")
	if again.TxID != retry.TxID || again.Signed() || !again.ReceiptWithoutTSE || again.OutageID != retry.OutageID {
		t.Fatalf("a later replay answers differently: %+v, first answer %+v", again, retry)
	}
	if !e.tx(t, retry.TxID).SignedLate {
		t.Fatalf("the late signature is not marked")
	}
}

// A signed sale wakes the sale waiting for it and no other: waiters are
// told per transaction, not by a broadcast that makes every waiting sale
// read its row again.
func TestSaleWokenOnlyForItsOwnTransaction(t *testing.T) {
	e := newEnv(t, envOpts{budget: time.Millisecond}) // recorded, then driven step by step
	ctx := context.Background()
	a := e.sell(t, sale("KASSE-01", 100), "")
	b := e.sell(t, sale("KASSE-02", 200), "")
	wa, wb := e.q.subscribe(a.TxID), e.q.subscribe(b.TxID)
	defer e.q.unsubscribe(a.TxID, wa)
	defer e.q.unsubscribe(b.TxID, wb)
	e.q.mu.Lock()
	changed := e.q.changed
	e.q.mu.Unlock()
	e.q.step(ctx) // a's revision 1: a is not signed yet
	select {
	case <-wa:
		t.Fatal("a woken by its start revision")
	default:
	}
	e.q.step(ctx) // a's revision 2: a is signed
	select {
	case <-wa:
	default:
		t.Fatal("a not woken when signed")
	}
	if !e.tx(t, a.TxID).Signed() {
		t.Fatal("a woken before its signature was committed")
	}
	select {
	case <-wb:
		t.Fatal("b woken by a's signature")
	case <-changed:
		t.Fatal("every waiting sale woken by a's signature")
	default:
	}
	e.q.step(ctx)
	e.q.step(ctx)
	select {
	case <-wb:
	default:
		t.Fatal("b not woken when signed")
	}
}
