package queue

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// The outcome a key remembers, in the API's numbers: the till was given
// a signed receipt (201) or a receipt without TSE data (202).
const (
	answeredSigned   = 201
	answeredUnsigned = 202
)

// Sell records a sale durably, then waits for its signature within the
// budget, and returns the transaction as the till is to print it: signed,
// or marked "TSE unavailable" (and counted in the outage). Every path
// after the commit answers one of the two. A repeated Idempotency-Key
// (idemKey, "" for none) answers what its first request answered; the
// key remembers the sale's hash (requestHash), so a key reused for
// another sale is refused.
//
// A retry that finds its key not yet answered (the first attempt still
// waits, or died with its till's connection or with the box) decides it
// within its own budget, as a new sale would; whichever attempt records
// its answer first gives it to every other (store.AnswerIdempotent).
func (q *Queue) Sell(ctx context.Context, restaurantID string, s fiscal.Sale, idemKey string) (*store.TSETransaction, error) {
	if err := q.serves(restaurantID); err != nil {
		return nil, err
	}
	w := WireSale(&s)
	var key *store.IdempotencyKey
	if idemKey != "" {
		key = &store.IdempotencyKey{RestaurantID: restaurantID, Scope: store.IdemTSESale, Key: idemKey, RequestHash: requestHash(&s, w)}
	}
	t, replay, err := q.record(ctx, restaurantID, &s, w, key)
	if err != nil {
		return nil, err
	}
	if replay != nil {
		if replay.Status != 0 {
			return q.answered(ctx, restaurantID, replay)
		}
		if t, err = q.st.TSETransaction(ctx, restaurantID, replay.ResourceID); err != nil {
			return nil, err
		}
	}
	q.Wake()
	t, err = q.await(ctx, t)
	if err != nil || key == nil {
		return t, err
	}
	status := answeredUnsigned
	if t.Signed() {
		status = answeredSigned
	}
	snapshot, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	stored, err := q.st.AnswerIdempotent(context.WithoutCancel(ctx), *key, status, snapshot)
	if err != nil {
		return nil, err
	}
	return q.answered(ctx, restaurantID, stored)
}

// answered is the transaction a key's recorded answer showed the till.
func (q *Queue) answered(ctx context.Context, restaurantID string, r *store.IdempotentReplay) (*store.TSETransaction, error) {
	var t store.TSETransaction
	if err := json.Unmarshal(r.Response, &t); err == nil && t.TxID != "" {
		return &t, nil
	}
	// A key answered by an older release kept the HTTP body, not the
	// transaction: show the sale as it is.
	return q.st.TSETransaction(ctx, restaurantID, r.ResourceID)
}

// record writes the sale, its two revisions (built here from its wire
// form w, before the write transaction, for the terminal's client id),
// its detail and the key in one transaction. A terminal seen for the
// first time gets a new client id; if another sale registered it first,
// the bodies are built again.
func (q *Queue) record(ctx context.Context, restaurantID string, s *fiscal.Sale, w tse.Sale, key *store.IdempotencyKey) (*store.TSETransaction, *store.IdempotentReplay, error) {
	clientID, err := q.st.TSEClientID(ctx, q.tssID, s.ClientSerial)
	if store.IsNotFound(err) {
		clientID, err = tse.NewUUID4(), nil
	}
	if err != nil {
		return nil, nil, err
	}
	for {
		start, err := tse.UpsertBody(tse.TxActive, clientID, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		finish, err := tse.FinishBody(clientID, &w)
		if err != nil {
			return nil, nil, err
		}
		t, replay, err := q.st.CreateTSESale(ctx, store.NewTSESale{
			RestaurantID: restaurantID, TSSID: q.tssID, TxID: tse.NewUUID4(), ClientSerial: s.ClientSerial, ClientID: clientID,
			ReceiptType: s.ReceiptType, TotalCents: s.TotalCents, StartBody: start, FinishBody: finish, Idempotency: key,
			Detail: SaleDetail(s), Movement: s.CashMovement, Count: s.CashCount,
		})
		var changed *store.ErrTSEClientChanged
		if !errors.As(err, &changed) {
			return t, replay, err
		}
		clientID = changed.ClientID // a client id never changes once stored: one more round at most
	}
}

// await waits until the sale is signed, the queue is known to be stuck,
// or the budget runs out. A sale never waits through a backoff or an open
// circuit: those answer "TSE unavailable" at once, and so does a sale
// whose receipt already went out unsigned (another attempt of its key).
func (q *Queue) await(ctx context.Context, t *store.TSETransaction) (*store.TSETransaction, error) {
	timer := time.NewTimer(q.budget)
	defer timer.Stop()
	code, reason := tse.CodeTimeout, tse.Reason(tse.CodeTimeout, 0)
	// Woken for this transaction only (notify, when its row changed) or
	// by a change of the queue's state (changed): not by other sales.
	mine := q.subscribe(t.TxID)
	defer func() { q.unsubscribe(t.TxID, mine) }()
	cur, err := q.st.TSETransaction(ctx, t.RestaurantID, t.TxID)
	for {
		if err != nil {
			return nil, err
		}
		if cur.Signed() || cur.ReceiptWithoutTSE {
			return cur, nil
		}
		q.mu.Lock()
		changed := q.changed
		q.mu.Unlock()
		if down, c, r := q.unavailable(t.ClientID); down {
			code, reason = c, r
			break
		}
		select {
		case <-mine:
			q.unsubscribe(t.TxID, mine)
			mine = q.subscribe(t.TxID)
			cur, err = q.st.TSETransaction(ctx, t.RestaurantID, t.TxID)
			continue
		case <-changed:
			continue
		case <-timer.C:
		case <-ctx.Done():
			// The till hung up: it never saw an answer, so no receipt
			// was printed; a retry with the same key gets the answer.
			return nil, ctx.Err()
		}
		break
	}
	// The receipt goes out marked "TSE failed": record it in the outage,
	// and tell another attempt of the same sale waiting for it.
	cur, err = q.st.MarkTSEUnsigned(context.WithoutCancel(ctx), t.RestaurantID, t.TxID, code, reason)
	if err == nil {
		q.notify(t.TxID)
	}
	return cur, err
}
