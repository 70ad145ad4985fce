package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"posbox/store/storetest"
)

// The TSE outbox straight on the store: a sale is a mirror row and two
// revisions in the queue; the worker sends only the head of a TSS's queue,
// marks it in flight, then done (or retries, or parks it); an outage is
// opened by receipts that went out unsigned and closed when the queue
// drains.

const (
	tssA = "11111111-1111-4111-8111-111111111111"
	tssB = "22222222-2222-4222-8222-222222222222"
)

// tseBodies are revisions 1 and 2 of a sale as the caller built them: not
// canonical JSON (key order, spacing, a non-ASCII character, a trailing
// newline), so any re-encoding on the way through the store shows.
func tseBodies(txID, clientID string) (start, finish []byte) {
	start = fmt.Appendf(nil, "{\"state\":\"ACTIVE\", \"client_id\":%q,\"tx\":%q}\n", clientID, txID)
	finish = fmt.Appendf(nil, "{\"state\":\"FINISHED\",\"client_id\":%q,\"schema\":{\"standard_v1\":{\"receipt\":"+
		"{\"receipt_type\":\"RECEIPT\",\"amounts_per_vat_rate\":[{\"vat_rate\":\"NORMAL\",\"amount\":\"12.50\"}],"+
		"\"note\":\"K\u00e4sesp\u00e4tzle\"}}}, \"tx\":%q}\n", clientID, txID)
	return start, finish
}

// newTSESaleFor is a sale of 12.50 by terminal serial on tss with client
// id clientID and a fresh v4 transaction id.
func newTSESaleFor(r *Restaurant, tss, serial, clientID string) NewTSESale {
	txID := uuid.NewString()
	start, finish := tseBodies(txID, clientID)
	return NewTSESale{RestaurantID: r.ID, TSSID: tss, TxID: txID, ClientSerial: serial, ClientID: clientID,
		ReceiptType: "RECEIPT", TotalCents: 1250, StartBody: start, FinishBody: finish}
}

// mustTSESale records n and fails unless it made a new transaction.
func mustTSESale(tb testing.TB, st *Store, n NewTSESale) *TSETransaction {
	tb.Helper()
	t, replay, err := st.CreateTSESale(context.Background(), n)
	if err != nil {
		tb.Fatal(err)
	}
	if t == nil || replay != nil {
		tb.Fatalf("CreateTSESale(%s) = %+v, replay %+v; want a new transaction", n.TxID, t, replay)
	}
	return t
}

// mustHead is the head of tss's queue.
func mustHead(tb testing.TB, st *Store, tss string) *TSEJob {
	tb.Helper()
	j, err := st.TSEHeadJob(context.Background(), tss)
	if err != nil {
		tb.Fatalf("head of %s: %v", tss, err)
	}
	return j
}

// mustTSETx reads a mirrored transaction.
func mustTSETx(tb testing.TB, st *Store, restaurantID, txID string) *TSETransaction {
	tb.Helper()
	t, err := st.TSETransaction(context.Background(), restaurantID, txID)
	if err != nil {
		tb.Fatalf("transaction %s: %v", txID, err)
	}
	return t
}

// signedFor is what the provider answers for job: the transaction number,
// a signature counter derived from it, and for a final revision an end
// time and QR code.
func signedFor(job *TSEJob, number int64, at time.Time) TSESigned {
	s := TSESigned{Number: number, State: job.TargetState, Revision: job.Revision, TimeStart: testStart,
		SignatureCounter: number*10 + int64(job.Revision), SignatureValue: fmt.Sprintf("sig-%d-%d", number, job.Revision),
		LogTime: at, TSSSerialNumber: "tss-serial-1"}
	if job.TargetState != tseTxActive {
		end := at
		s.TimeEnd, s.QRCodeData = &end, fmt.Sprintf("V0;till;%d", number)
	}
	return s
}

// sendJob is one successful round of the worker for job: in flight, then
// done with the provider's answer. It returns the outage it closed.
func sendJob(tb testing.TB, st *Store, clock *storetest.Clock, job *TSEJob, number int64) *TSEOutage {
	tb.Helper()
	ctx := context.Background()
	if err := st.StartTSEJob(ctx, job.Seq); err != nil {
		tb.Fatal(err)
	}
	closed, err := st.CompleteTSEJob(ctx, job, signedFor(job, number, clock.Now()))
	if err != nil {
		tb.Fatal(err)
	}
	return closed
}

// jobRef names a revision for comparisons.
type jobRef struct {
	TxID     string
	Revision int
}

func (j jobRef) String() string { return fmt.Sprintf("%s/r%d", j.TxID[:8], j.Revision) }

// drainTSS sends the head of tss until its queue is empty and returns the
// revisions in the order they were sent; numbers maps a tx id to the
// number the provider gives it.
func drainTSS(tb testing.TB, st *Store, clock *storetest.Clock, tss string, numbers map[string]int64) []jobRef {
	tb.Helper()
	var sent []jobRef
	for range 100 {
		job, err := st.TSEHeadJob(context.Background(), tss)
		if IsNotFound(err) {
			return sent
		}
		if err != nil {
			tb.Fatal(err)
		}
		sent = append(sent, jobRef{job.TxID, job.Revision})
		sendJob(tb, st, clock, job, numbers[job.TxID])
	}
	tb.Fatalf("queue of %s never drained: %v", tss, sent)
	return nil
}

// TestCreateTSESaleRecordsMirrorAndJobs: a sale is one ACTIVE mirror row
// without a number and two queued revisions carrying exactly the bytes
// given; a retry with the same Idempotency-Key replays and writes nothing;
// the key with another request is refused.
func TestCreateTSESaleRecordsMirrorAndJobs(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	key := &IdempotencyKey{RestaurantID: r.ID, Scope: IdemTSESale, Key: "till-1-0001", RequestHash: "hash-1"}
	n := newTSESaleFor(r, tssA, "TILL-1", "c1000000-0000-4000-8000-000000000001")
	n.Idempotency = key

	got, replay, err := st.CreateTSESale(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if replay != nil || got == nil {
		t.Fatalf("first sale: tx %+v replay %+v", got, replay)
	}
	mirror := mustTSETx(t, st, r.ID, n.TxID)
	for _, tx := range []*TSETransaction{got, mirror} {
		if tx.TxID != n.TxID || tx.State != "ACTIVE" || tx.Number != nil || tx.LatestRevision != 0 ||
			tx.SignatureCounter != nil || tx.TimeStart != nil || tx.TimeEnd != nil || tx.Signed() ||
			tx.ClientID != n.ClientID || tx.ClientSerial != "TILL-1" || tx.TSSID != tssA ||
			tx.TotalCents != 1250 || tx.ReceiptType != "RECEIPT" || tx.ReceiptWithoutTSE || tx.Source != "posbox" ||
			!tx.CreatedAt.Equal(clock.Now()) {
			t.Fatalf("mirror row %+v", tx)
		}
	}
	if id, err := st.TSEClientID(ctx, tssA, "TILL-1"); err != nil || id != n.ClientID {
		t.Fatalf("TSEClientID = %q, %v; want %q", id, err, n.ClientID)
	}

	q, err := st.TSEQueueState(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.Pending != 2 || q.Attention != 0 || len(q.Items) != 2 || q.OldestQueuedAt == nil || !q.OldestQueuedAt.Equal(clock.Now()) {
		t.Fatalf("queue %+v", q)
	}
	for i, want := range []struct {
		rev   int
		state string
		body  []byte
	}{{1, "ACTIVE", n.StartBody}, {2, "FINISHED", n.FinishBody}} {
		j := q.Items[i]
		if j.TxID != n.TxID || j.Revision != want.rev || j.TargetState != want.state || j.Status != TSEJobPending ||
			j.Attempts != 0 || j.TSSID != tssA || j.ClientID != n.ClientID || j.ClientSerial != "TILL-1" ||
			j.ClientRegistered || !j.NextAttemptAt.Equal(clock.Now()) || j.DoneAt != nil {
			t.Fatalf("job %d: %+v", i, j)
		}
		if !bytes.Equal(j.Body, want.body) {
			t.Fatalf("job %d body\n%q\nwant\n%q", i, j.Body, want.body)
		}
	}
	if q.Items[0].Seq >= q.Items[1].Seq {
		t.Fatalf("revision 1 seq %d not before revision 2 seq %d", q.Items[0].Seq, q.Items[1].Seq)
	}
	if k, err := st.Idempotent(ctx, *key); err != nil || k.ResourceID != n.TxID || k.Status != 0 || k.Response != nil {
		t.Fatalf("key after the sale: %+v, %v; want resource %s, no answer yet", k, err, n.TxID)
	}

	// The till retries with the same key: the first sale is replayed, even
	// though the retry's body was built with a new tx id.
	retry := newTSESaleFor(r, tssA, "TILL-1", n.ClientID)
	retry.Idempotency = key
	clock.Add(time.Second)
	got, replay, err = st.CreateTSESale(ctx, retry)
	if err != nil {
		t.Fatal(err)
	}
	if got != nil || replay == nil || replay.ResourceID != n.TxID {
		t.Fatalf("retry: tx %+v replay %+v; want the replay of %s", got, replay, n.TxID)
	}
	if _, err := st.TSETransaction(ctx, r.ID, retry.TxID); !IsNotFound(err) {
		t.Fatalf("the replayed retry made transaction %s: %v", retry.TxID, err)
	}

	// The same key with a different request.
	other := newTSESaleFor(r, tssA, "TILL-1", n.ClientID)
	other.TotalCents = 999
	other.Idempotency = &IdempotencyKey{RestaurantID: r.ID, Scope: IdemTSESale, Key: key.Key, RequestHash: "hash-2"}
	if _, _, err := st.CreateTSESale(ctx, other); ErrorCode(err) != EIdempotencyKeyReused {
		t.Fatalf("reused key: %v, want %s", err, EIdempotencyKeyReused)
	}
	if _, err := st.TSETransaction(ctx, r.ID, other.TxID); !IsNotFound(err) {
		t.Fatalf("the refused sale made transaction %s: %v", other.TxID, err)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM tse_transactions`); n != 1 {
		t.Fatalf("%d mirror rows, want 1", n)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM tse_jobs`); n != 2 {
		t.Fatalf("%d jobs, want 2", n)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM idempotency_keys`); n != 1 {
		t.Fatalf("%d idempotency keys, want 1", n)
	}
	if k, err := st.Idempotent(ctx, *key); err != nil || k.ResourceID != n.TxID {
		t.Fatalf("key after the refusal: %+v, %v", k, err)
	}
}

// TestCreateTSESaleClientChanged: a sale built for a client id other than
// the one the terminal is registered under is refused with the stored id,
// and leaves no trace: no mirror row, no jobs, no idempotency key (so the
// till's rebuilt sale with the same key goes through).
func TestCreateTSESaleClientChanged(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	const c1, c2 = "c1000000-0000-4000-8000-000000000001", "c2000000-0000-4000-8000-000000000002"
	first := mustTSESale(t, st, newTSESaleFor(r, tssA, "TILL-1", c1))

	n := newTSESaleFor(r, tssA, "TILL-1", c2)
	key := IdempotencyKey{RestaurantID: r.ID, Scope: IdemTSESale, Key: "till-1-0002", RequestHash: "h"}
	n.Idempotency = &key
	tx, replay, err := st.CreateTSESale(ctx, n)
	var changed *ErrTSEClientChanged
	if !errors.As(err, &changed) || changed.ClientID != c1 {
		t.Fatalf("sale with client %s: tx %+v replay %+v err %v; want *ErrTSEClientChanged{%s}", c2, tx, replay, err, c1)
	}
	if tx != nil || replay != nil {
		t.Fatalf("refused sale returned tx %+v replay %+v", tx, replay)
	}
	if _, err := st.TSETransaction(ctx, r.ID, n.TxID); !IsNotFound(err) {
		t.Fatalf("refused sale's mirror row: %v", err)
	}
	if c := queryInt(t, st, `SELECT COUNT(*) FROM tse_jobs WHERE tx_id = ?`, n.TxID); c != 0 {
		t.Fatalf("refused sale queued %d jobs", c)
	}
	if c := queryInt(t, st, `SELECT COUNT(*) FROM tse_jobs`); c != 2 {
		t.Fatalf("%d jobs, want the first sale's 2", c)
	}
	if _, err := st.Idempotent(ctx, key); !IsNotFound(err) {
		t.Fatalf("refused sale's key: %v, want not_found", err)
	}
	if clients, err := st.TSEClients(ctx, tssA); err != nil || len(clients) != 1 || clients[0].ClientID != c1 {
		t.Fatalf("clients %+v, %v; want only %s", clients, err, c1)
	}

	// The caller rebuilds the sale for the stored id, same key: accepted.
	again := newTSESaleFor(r, tssA, "TILL-1", changed.ClientID)
	again.Idempotency = &key
	tx = mustTSESale(t, st, again)
	if tx.ClientID != c1 || first.ClientID != c1 {
		t.Fatalf("rebuilt sale has client %s", tx.ClientID)
	}
	if k, err := st.Idempotent(ctx, key); err != nil || k.ResourceID != again.TxID {
		t.Fatalf("key after the rebuilt sale: %+v, %v", k, err)
	}
	// The same serial on another TSS is another terminal.
	if tx := mustTSESale(t, st, newTSESaleFor(r, tssB, "TILL-1", c2)); tx.ClientID != c2 {
		t.Fatalf("sale on TSS B: client %s", tx.ClientID)
	}
}

// TestTSEJobClaimAndComplete: the head is the oldest pending revision;
// starting it counts an attempt; completing it fills the mirror and moves
// the head to revision 2; after both the queue is empty.
func TestTSEJobClaimAndComplete(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	n := newTSESaleFor(r, tssA, "TILL-1", "c1000000-0000-4000-8000-000000000001")
	mustTSESale(t, st, n)

	head := mustHead(t, st, tssA)
	if head.TxID != n.TxID || head.Revision != 1 || head.TargetState != "ACTIVE" || head.Status != TSEJobPending ||
		head.Attempts != 0 || !bytes.Equal(head.Body, n.StartBody) {
		t.Fatalf("head %+v", head)
	}
	if err := st.StartTSEJob(ctx, head.Seq); err != nil {
		t.Fatal(err)
	}
	inFlight := mustHead(t, st, tssA)
	if inFlight.Seq != head.Seq || inFlight.Status != TSEJobInFlight || inFlight.Attempts != 1 {
		t.Fatalf("after StartTSEJob: %+v; want seq %d in_flight with 1 attempt", inFlight, head.Seq)
	}

	clock.Add(2 * time.Second)
	closed, err := st.CompleteTSEJob(ctx, inFlight, signedFor(inFlight, 17, clock.Now()))
	if err != nil || closed != nil {
		t.Fatalf("complete revision 1: closed %+v, %v", closed, err)
	}
	if s := queryInt(t, st, `SELECT COUNT(*) FROM tse_jobs WHERE seq = ? AND status = 'done' AND done_at = ?`,
		head.Seq, FormatTime(clock.Now())); s != 1 {
		t.Fatal("revision 1 is not done at the completion time")
	}
	tx := mustTSETx(t, st, r.ID, n.TxID)
	if tx.Number == nil || *tx.Number != 17 || tx.State != "ACTIVE" || tx.LatestRevision != 1 ||
		tx.SignatureCounter == nil || *tx.SignatureCounter != 171 || tx.SignatureValue != "sig-17-1" ||
		tx.TimeStart == nil || !tx.TimeStart.Equal(testStart) || tx.TimeEnd != nil || tx.Signed() ||
		tx.TSSSerialNumber != "tss-serial-1" || !tx.UpdatedAt.Equal(clock.Now()) {
		t.Fatalf("mirror after revision 1: %+v", tx)
	}

	head2 := mustHead(t, st, tssA)
	if head2.TxID != n.TxID || head2.Revision != 2 || head2.TargetState != "FINISHED" || head2.Attempts != 0 ||
		!bytes.Equal(head2.Body, n.FinishBody) {
		t.Fatalf("second head %+v", head2)
	}
	clock.Add(time.Second)
	if closed := sendJob(t, st, clock, head2, 17); closed != nil {
		t.Fatalf("revision 2 closed outage %+v; none was open", closed)
	}
	tx = mustTSETx(t, st, r.ID, n.TxID)
	if *tx.Number != 17 || tx.State != "FINISHED" || tx.LatestRevision != 2 || *tx.SignatureCounter != 172 ||
		tx.TimeEnd == nil || !tx.TimeEnd.Equal(clock.Now()) || !tx.Signed() || tx.QRCodeData != "V0;till;17" || tx.SignedLate {
		t.Fatalf("mirror after revision 2: %+v", tx)
	}
	if _, err := st.TSEHeadJob(ctx, tssA); !IsNotFound(err) {
		t.Fatalf("head of an empty queue: %v, want not_found", err)
	}
	if q, err := st.TSEQueueState(ctx, r.ID); err != nil || q.Pending != 0 || len(q.Items) != 0 || q.OldestQueuedAt != nil {
		t.Fatalf("queue after both revisions: %+v, %v", q, err)
	}
	// The signed transaction is listed for the reports.
	list, err := st.TSETransactions(ctx, r.ID, testStart.Add(-time.Hour), testStart.Add(time.Hour))
	if err != nil || len(list) != 1 || list[0].TxID != n.TxID {
		t.Fatalf("TSETransactions: %+v, %v", list, err)
	}
}

// TestTSEHeadFIFOPerTSS: each TSS's queue is sent strictly in sale order,
// independently of the other TSS; a retried head stays the head however
// far off its next attempt is; TSEHeadJobExcept passes over the revisions
// of the terminals it is given.
func TestTSEHeadFIFOPerTSS(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	const c1, c2, cb = "c1000000-0000-4000-8000-000000000001", "c2000000-0000-4000-8000-000000000002",
		"cb000000-0000-4000-8000-00000000000b"
	numbers := map[string]int64{}
	sale := func(tss, serial, client string, number int64) string {
		n := newTSESaleFor(r, tss, serial, client)
		mustTSESale(t, st, n)
		numbers[n.TxID] = number
		clock.Add(time.Millisecond)
		return n.TxID
	}
	a1 := sale(tssA, "TILL-1", c1, 1)
	b1 := sale(tssB, "TILL-9", cb, 1)
	a2 := sale(tssA, "TILL-2", c2, 2)
	b2 := sale(tssB, "TILL-9", cb, 2)
	a3 := sale(tssA, "TILL-1", c1, 3)

	except := func(skip ...string) *jobRef {
		t.Helper()
		j, err := st.TSEHeadJobExcept(ctx, tssA, skip)
		if IsNotFound(err) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return &jobRef{j.TxID, j.Revision}
	}
	if got := except(c1); got == nil || *got != (jobRef{a2, 1}) {
		t.Fatalf("head without terminal 1: %v, want %v", got, jobRef{a2, 1})
	}
	if got := except(c2); got == nil || *got != (jobRef{a1, 1}) {
		t.Fatalf("head without terminal 2: %v, want %v", got, jobRef{a1, 1})
	}
	if got := except(cb); got == nil || *got != (jobRef{a1, 1}) {
		t.Fatalf("head without TSS B's terminal: %v, want %v", got, jobRef{a1, 1})
	}
	if got := except(c1, c2); got != nil {
		t.Fatalf("head without both terminals of TSS A: %v, want not_found", got)
	}

	// A failed send: the head goes back with a retry an hour away, and it
	// is still what the worker is given (it waits; nothing overtakes).
	head := mustHead(t, st, tssA)
	if err := st.StartTSEJob(ctx, head.Seq); err != nil {
		t.Fatal(err)
	}
	later := clock.Now().Add(time.Hour)
	if err := st.RetryTSEJob(ctx, head.Seq, later, 503, "E_UNAVAILABLE", "try later"); err != nil {
		t.Fatal(err)
	}
	again := mustHead(t, st, tssA)
	if again.Seq != head.Seq || again.TxID != a1 || again.Revision != 1 || again.Status != TSEJobPending ||
		again.Attempts != 1 || !again.NextAttemptAt.Equal(later) || again.LastHTTPStatus != 503 ||
		again.LastErrorCode != "E_UNAVAILABLE" || again.LastErrorMessage != "try later" {
		t.Fatalf("head after RetryTSEJob: %+v; want seq %d pending, 1 attempt, due %v", again, head.Seq, later)
	}
	if b := mustHead(t, st, tssB); b.TxID != b1 || b.Revision != 1 || b.Attempts != 0 {
		t.Fatalf("TSS B's head after A's failure: %+v", b)
	}

	clock.Add(time.Hour)
	gotA := drainTSS(t, st, clock, tssA, numbers)
	wantA := []jobRef{{a1, 1}, {a1, 2}, {a2, 1}, {a2, 2}, {a3, 1}, {a3, 2}}
	if fmt.Sprint(gotA) != fmt.Sprint(wantA) {
		t.Fatalf("TSS A sent %v, want %v", gotA, wantA)
	}
	// Draining A touched nothing of B.
	if n := queryInt(t, st, `SELECT COUNT(*) FROM tse_jobs WHERE tss_id = ? AND status = 'pending' AND attempts = 0`, tssB); n != 4 {
		t.Fatalf("TSS B has %d untouched pending jobs, want 4", n)
	}
	gotB := drainTSS(t, st, clock, tssB, numbers)
	wantB := []jobRef{{b1, 1}, {b1, 2}, {b2, 1}, {b2, 2}}
	if fmt.Sprint(gotB) != fmt.Sprint(wantB) {
		t.Fatalf("TSS B sent %v, want %v", gotB, wantB)
	}
	for tx, number := range numbers {
		if m := mustTSETx(t, st, r.ID, tx); m.Number == nil || *m.Number != number || !m.Signed() {
			t.Fatalf("transaction %s: %+v, want number %d, signed", tx, m, number)
		}
	}
}

// TestTSEInFlightSurvivesRestart: a revision in flight when the process
// stopped is still in flight after the store is reopened;
// ResetTSEInFlight hands it back with its attempts counted, for its TSS
// only.
func TestTSEInFlightSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clock := storetest.NewClock(testStart)
	st := openTestStore(t, dir, clock)
	r := mustRestaurant(t, st, "R")
	na := newTSESaleFor(r, tssA, "TILL-1", "c1000000-0000-4000-8000-000000000001")
	nb := newTSESaleFor(r, tssB, "TILL-9", "cb000000-0000-4000-8000-00000000000b")
	mustTSESale(t, st, na)
	mustTSESale(t, st, nb)
	headA, headB := mustHead(t, st, tssA), mustHead(t, st, tssB)
	for _, seq := range []int64{headA.Seq, headB.Seq} {
		if err := st.StartTSEJob(ctx, seq); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	clock.Add(time.Minute)
	st = openTestStore(t, dir, clock)
	j := mustHead(t, st, tssA)
	if j.Seq != headA.Seq || j.Status != TSEJobInFlight || j.Attempts != 1 {
		t.Fatalf("after reopen: %+v; want seq %d in_flight with 1 attempt", j, headA.Seq)
	}
	n, err := st.ResetTSEInFlight(ctx, tssA)
	if err != nil || n != 1 {
		t.Fatalf("ResetTSEInFlight = %d, %v; want 1", n, err)
	}
	j = mustHead(t, st, tssA)
	if j.Seq != headA.Seq || j.Status != TSEJobPending || j.Attempts != 1 || !bytes.Equal(j.Body, na.StartBody) {
		t.Fatalf("after reset: %+v; want seq %d pending, 1 attempt, the same body", j, headA.Seq)
	}
	if n, err := st.ResetTSEInFlight(ctx, tssA); err != nil || n != 0 {
		t.Fatalf("second ResetTSEInFlight = %d, %v; want 0", n, err)
	}
	if b := mustHead(t, st, tssB); b.Status != TSEJobInFlight {
		t.Fatalf("TSS B's job after resetting A: %s, want in_flight", b.Status)
	}
	// The reset revision is sent again and counts a second attempt.
	if err := st.StartTSEJob(ctx, j.Seq); err != nil {
		t.Fatal(err)
	}
	if j := mustHead(t, st, tssA); j.Attempts != 2 {
		t.Fatalf("attempts after the resend: %d, want 2", j.Attempts)
	}
}

// TestParkTSETxAndRetryAttention: parking moves every unfinished revision
// of the transaction to attention (and lets the queue go on); the admin's
// retry puts them back at their old place.
func TestParkTSETxAndRetryAttention(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	notifyOn(t, st, r, EventTSEError) // so the event is stored
	n1 := newTSESaleFor(r, tssA, "TILL-1", "c1000000-0000-4000-8000-000000000001")
	n2 := newTSESaleFor(r, tssA, "TILL-1", n1.ClientID)
	mustTSESale(t, st, n1)
	mustTSESale(t, st, n2)

	head := mustHead(t, st, tssA)
	if err := st.StartTSEJob(ctx, head.Seq); err != nil {
		t.Fatal(err)
	}
	if err := st.ParkTSETx(ctx, head, 400, "E_INVALID_BODY", "amount is not a number"); err != nil {
		t.Fatal(err)
	}
	q, err := st.TSEQueueState(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.Attention != 2 || q.Pending != 2 || len(q.Items) != 4 {
		t.Fatalf("queue after parking: pending %d attention %d items %d; want 2, 2, 4", q.Pending, q.Attention, len(q.Items))
	}
	for i, want := range []struct {
		tx     string
		rev    int
		status string
	}{{n1.TxID, 1, TSEJobAttention}, {n1.TxID, 2, TSEJobAttention}, {n2.TxID, 1, TSEJobPending}, {n2.TxID, 2, TSEJobPending}} {
		j := q.Items[i]
		if j.TxID != want.tx || j.Revision != want.rev || j.Status != want.status {
			t.Fatalf("item %d: %s r%d %s, want %s r%d %s", i, j.TxID, j.Revision, j.Status, want.tx, want.rev, want.status)
		}
		if want.status == TSEJobAttention && (j.LastHTTPStatus != 400 || j.LastErrorCode != "E_INVALID_BODY") {
			t.Fatalf("parked item %d: %+v", i, j)
		}
	}
	if h := mustHead(t, st, tssA); h.TxID != n2.TxID || h.Revision != 1 {
		t.Fatalf("head after parking: %s r%d, want the next transaction's revision 1", h.TxID, h.Revision)
	}
	evs := eventsOf(t, st, r.ID, EventTSEError)
	if len(evs) != 1 {
		t.Fatalf("%d tse_error events, want 1", len(evs))
	}
	if d := eventData(t, evs[0]); d["reason"] != "queue_stuck" || d["tx_id"] != n1.TxID || d["error_code"] != "E_INVALID_BODY" {
		t.Fatalf("tse_error data %v", d)
	}

	clock.Add(time.Hour)
	if err := st.RetryTSEAttention(ctx, r.ID, n1.TxID); err != nil {
		t.Fatal(err)
	}
	q, err = st.TSEQueueState(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if q.Attention != 0 || q.Pending != 4 {
		t.Fatalf("queue after retry: pending %d attention %d; want 4, 0", q.Pending, q.Attention)
	}
	h := mustHead(t, st, tssA)
	if h.Seq != head.Seq || h.Status != TSEJobPending || !h.NextAttemptAt.Equal(clock.Now()) {
		t.Fatalf("head after retry: %+v; want seq %d pending, due now", h, head.Seq)
	}
	if err := st.RetryTSEAttention(ctx, r.ID, n1.TxID); ErrorCode(err) != ETSEQueueState {
		t.Fatalf("retry with nothing parked: %v, want %s", err, ETSEQueueState)
	}
	other := mustRestaurant(t, st, "Other")
	if err := st.ParkTSETx(ctx, h, 400, "E_INVALID_BODY", "again"); err != nil {
		t.Fatal(err)
	}
	if err := st.RetryTSEAttention(ctx, other.ID, n1.TxID); ErrorCode(err) != ETSEQueueState {
		t.Fatalf("another restaurant's retry: %v, want %s", err, ETSEQueueState)
	}
}

// TestTSEOutageOpensCountsAndCloses: receipts that went out unsigned open
// one outage per TSS and are counted once each; sending the TSS's last
// queued revision closes it with tse_recovered; the late signatures are
// marked as such.
func TestTSEOutageOpensCountsAndCloses(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	notifyOn(t, st, r, EventTSEError, EventTSERecovered) // so the events are stored
	const client = "c1000000-0000-4000-8000-000000000001"
	n1 := newTSESaleFor(r, tssA, "TILL-1", client)
	n2 := newTSESaleFor(r, tssA, "TILL-1", client)
	mustTSESale(t, st, n1)
	mustTSESale(t, st, n2)
	// A sale on TSS B stays queued: it must not keep A's outage open.
	mustTSESale(t, st, newTSESaleFor(r, tssB, "TILL-9", "cb000000-0000-4000-8000-00000000000b"))

	if _, err := st.OpenTSEOutageOf(ctx, tssA); !IsNotFound(err) {
		t.Fatalf("outage before any failure: %v", err)
	}
	opened := clock.Now()
	m1, err := st.MarkTSEUnsigned(ctx, r.ID, n1.TxID, "E_TIMEOUT", "provider unreachable")
	if err != nil {
		t.Fatal(err)
	}
	o, err := st.OpenTSEOutageOf(ctx, tssA)
	if err != nil {
		t.Fatal(err)
	}
	if o.AffectedTransactions != 1 || o.EndedAt != nil || !o.StartedAt.Equal(opened) || o.ReasonCode != "E_TIMEOUT" ||
		o.RestaurantID != r.ID || !m1.ReceiptWithoutTSE || m1.OutageID != o.ID {
		t.Fatalf("outage %+v, transaction %+v", o, m1)
	}
	clock.Add(time.Second)
	if _, err := st.MarkTSEUnsigned(ctx, r.ID, n1.TxID, "E_TIMEOUT", "provider unreachable"); err != nil {
		t.Fatal(err)
	}
	if o2, err := st.OpenTSEOutageOf(ctx, tssA); err != nil || o2.ID != o.ID || o2.AffectedTransactions != 1 {
		t.Fatalf("after marking the same sale twice: %+v, %v; want outage %s with 1 transaction", o2, err, o.ID)
	}
	if _, err := st.MarkTSEUnsigned(ctx, r.ID, n2.TxID, "E_TIMEOUT", "still unreachable"); err != nil {
		t.Fatal(err)
	}
	if o2, err := st.OpenTSEOutageOf(ctx, tssA); err != nil || o2.ID != o.ID || o2.AffectedTransactions != 2 {
		t.Fatalf("after a second sale: %+v, %v; want outage %s with 2 transactions", o2, err, o.ID)
	}
	if evs := eventsOf(t, st, r.ID, EventTSEError); len(evs) != 1 || eventData(t, evs[0])["outage_id"] != o.ID {
		t.Fatalf("tse_error events %d, want 1 naming the outage", len(evs))
	}
	if _, err := st.OpenTSEOutageOf(ctx, tssB); !IsNotFound(err) {
		t.Fatalf("TSS B has an outage: %v", err)
	}

	// The provider is back: the queue drains; only the last revision of
	// TSS A closes the outage.
	clock.Add(10 * time.Minute)
	numbers := map[string]int64{n1.TxID: 1, n2.TxID: 2}
	for i := range 4 {
		job := mustHead(t, st, tssA)
		closed := sendJob(t, st, clock, job, numbers[job.TxID])
		if i < 3 {
			if closed != nil {
				t.Fatalf("revision %d closed the outage with %d revisions still queued", i+1, 3-i)
			}
			if _, err := st.OpenTSEOutageOf(ctx, tssA); err != nil {
				t.Fatalf("outage after revision %d: %v", i+1, err)
			}
			continue
		}
		if closed == nil || closed.ID != o.ID || closed.EndedAt == nil || !closed.EndedAt.Equal(clock.Now()) {
			t.Fatalf("last revision closed %+v, want outage %s ended now", closed, o.ID)
		}
	}
	if _, err := st.OpenTSEOutageOf(ctx, tssA); !IsNotFound(err) {
		t.Fatalf("outage after the queue drained: %v, want not_found", err)
	}
	outages, err := st.TSEOutages(ctx, r.ID)
	if err != nil || len(outages) != 1 || outages[0].EndedAt == nil || outages[0].AffectedTransactions != 2 {
		t.Fatalf("outages %+v, %v", outages, err)
	}
	rec := eventsOf(t, st, r.ID, EventTSERecovered)
	if len(rec) != 1 {
		t.Fatalf("%d tse_recovered events, want 1", len(rec))
	}
	if d := eventData(t, rec[0]); d["outage_id"] != o.ID || d["affected_transactions"] != float64(2) ||
		d["started_at"] != FormatTime(opened) || d["ended_at"] != FormatTime(clock.Now()) {
		t.Fatalf("tse_recovered data %v", d)
	}
	for _, tx := range []string{n1.TxID, n2.TxID} {
		if m := mustTSETx(t, st, r.ID, tx); !m.Signed() || !m.SignedLate || !m.ReceiptWithoutTSE || m.OutageID != o.ID {
			t.Fatalf("transaction %s after recovery: %+v; want signed late in outage %s", tx, m, o.ID)
		}
	}
	// A signed transaction is not counted into a later outage.
	if _, err := st.MarkTSEUnsigned(ctx, r.ID, n1.TxID, "E_TIMEOUT", "late"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.OpenTSEOutageOf(ctx, tssA); !IsNotFound(err) {
		t.Fatalf("marking a signed sale opened an outage: %v", err)
	}
	// The next failure opens a new outage.
	n3 := newTSESaleFor(r, tssA, "TILL-1", client)
	mustTSESale(t, st, n3)
	if _, err := st.MarkTSEUnsigned(ctx, r.ID, n3.TxID, "E_TIMEOUT", "down again"); err != nil {
		t.Fatal(err)
	}
	if o3, err := st.OpenTSEOutageOf(ctx, tssA); err != nil || o3.ID == o.ID || o3.AffectedTransactions != 1 {
		t.Fatalf("the next outage: %+v, %v; want a new one with 1 transaction", o3, err)
	}
}
