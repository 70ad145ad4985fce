package queue

import (
	"context"
	"time"

	"posbox/store"
	"posbox/tse"
)

// heldClient is a terminal the TSS refuses to register (its client limit
// is reached): a condition of the TSS for new terminals, not of one sale.
// Its sales answer 202 at once and wait in the queue; the other
// terminals go on; it is tried again every probeEvery.
type heldClient struct {
	clientID string
	serial   string
	err      *tse.Error
	retryAt  time.Time
}

// heldSkips lists the held terminals not due for a retry at now, and the
// earliest time one of them is due (zero when none is held).
func (q *Queue) heldSkips(now time.Time) (skip []string, next time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for id, h := range q.held {
		if h.retryAt.After(now) {
			skip = append(skip, id)
			if next.IsZero() || h.retryAt.Before(next) {
				next = h.retryAt
			}
		}
	}
	return skip, next
}

// hold parks a refused terminal's sales. The first refusal opens (or
// joins) the outage and raises tse_error once; retries that fail again
// only move its next try.
func (q *Queue) hold(ctx context.Context, job *store.TSEJob, te *tse.Error, retryAt time.Time) {
	q.mu.Lock()
	_, was := q.held[job.ClientID]
	q.mu.Unlock()
	if !was {
		// Recorded before any sale can see the hold, so the outage and the
		// one event name the terminal (a sale marked unsigned first would
		// open the outage without it).
		q.log.Warn("TSE refuses a terminal; its sales wait", "client_serial", job.ClientSerial, "code", te.Code)
		if err := q.st.HoldTSEClient(ctx, q.restaurantID, q.tssID, job.ClientSerial, te.Code, te.Reason()); err != nil {
			q.log.Error("record refused terminal", "err", err)
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	h := q.held[job.ClientID]
	if h == nil {
		h = &heldClient{clientID: job.ClientID, serial: job.ClientSerial}
		q.held[job.ClientID] = h
	}
	h.err, h.retryAt = te, retryAt
	q.broadcast()
}

// release ends a terminal's hold once it is registered.
func (q *Queue) release(job *store.TSEJob) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.held[job.ClientID]; ok {
		delete(q.held, job.ClientID)
		q.log.Info("terminal registered at the TSE; its sales are sent", "client_serial", job.ClientSerial)
		q.broadcast()
	}
}

// restore rebuilds at start what the last run knew: an outage still open
// with sales waiting means the provider was down when the appliance
// stopped, so the circuit starts open (the half-open probe runs on the
// usual schedule) and the first sales answer 202 at once instead of each
// waiting out the budget; terminals the TSS refused stay held.
func (q *Queue) restore(ctx context.Context) error {
	now := q.now()
	held, err := q.st.HeldTSEClients(ctx, q.tssID, tse.CodeClientLimitReached)
	if err != nil {
		return err
	}
	o, err := q.st.OpenTSEOutageOf(ctx, q.tssID)
	if store.IsNotFound(err) {
		o, err = nil, nil
	}
	if err != nil {
		return err
	}
	var head *store.TSEJob
	if o != nil {
		if head, err = q.st.TSEHeadJob(ctx, q.tssID); store.IsNotFound(err) {
			head, err = nil, nil
		}
		if err != nil {
			return err
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, h := range held {
		te := &tse.Error{Class: tse.ClientPermanent, Code: h.Code, Message: h.Message}
		q.held[h.ClientID] = &heldClient{clientID: h.ClientID, serial: h.Serial, err: te, retryAt: now.Add(probeEvery)}
	}
	if o == nil || head == nil {
		return nil
	}
	class := tse.CodeClass(o.ReasonCode)
	if class == tse.ClientPermanent {
		return nil // only the held terminals are refused; the TSS signs
	}
	q.open, q.openedAt, q.lastProbe = true, o.StartedAt, now
	q.paused = class == tse.TSSPermanent || class == tse.Auth
	q.lastErr = &tse.Error{Class: class, Code: o.ReasonCode, Message: o.Reason}
	q.log.Warn("TSE outage still open from before the start; circuit open until the provider answers",
		"outage_id", o.ID, "code", o.ReasonCode)
	return nil
}
