package queue

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

	"posbox/store"
	"posbox/tse"
)

// send forwards one revision and files the outcome.
func (q *Queue) send(ctx context.Context, job *store.TSEJob) {
	// Marked in flight (the attempt counted) without waiting for the
	// commit: it shares one with the completion or other writes. The
	// writer runs operations in order, so the mark precedes whatever the
	// outcome writes.
	q.st.StartTSEJobAsync(job.Seq)
	// A terminal's first revision registers it (idempotent at the provider).
	if !job.ClientRegistered {
		if _, err := q.p.EnsureClient(ctx, job.ClientID, job.ClientSerial); err != nil {
			q.failed(ctx, job, err)
			return
		}
		if err := q.st.MarkTSEClientRegistered(ctx, job.ClientID); err != nil {
			q.log.Error("mark client registered", "err", err)
			return
		}
		q.release(job)
	}
	tx, err := q.p.Upsert(ctx, tse.UpsertRequest{TxID: job.TxID, Revision: job.Revision, Body: job.Body})
	if err != nil {
		q.failed(ctx, job, err)
		return
	}
	q.completed(ctx, job, tx)
}

// completed files a signed revision: its completion goes to the writer
// and the reaper (signing.go) wakes the sale once it is committed; the
// worker goes on meanwhile. No broadcast: a success makes no waiting sale
// stop waiting except its own.
func (q *Queue) completed(ctx context.Context, job *store.TSEJob, tx tse.Tx) {
	q.mu.Lock()
	q.signing[job.Seq] = true
	q.failures, q.headBackoff = 0, false
	if q.open && !q.paused {
		q.open = false
	}
	reaping := q.reaping
	q.mu.Unlock()
	it := reapItem{job: job, done: q.st.CompleteTSEJobAsync(job, signedOf(tx))}
	if reaping == nil { // a step outside Run (tests): settle it here
		q.settle(context.WithoutCancel(ctx), it)
		return
	}
	reaping <- it
}

// failed files an error by its class (docs/DESIGN.md, TSE, "Error classes").
func (q *Queue) failed(ctx context.Context, job *store.TSEJob, err error) {
	if ctx.Err() != nil {
		// Stopping: hand the job back untouched; it is resent on start.
		if _, err := q.st.ResetTSEInFlight(context.WithoutCancel(ctx), q.tssID); err != nil {
			q.log.Error("hand back job", "err", err)
		}
		return
	}
	var te *tse.Error
	if !errors.As(err, &te) {
		te = &tse.Error{Class: tse.Transient, Code: tse.CodeNetwork, Message: err.Error()}
	}
	bg := context.WithoutCancel(ctx)
	now := q.now()
	// The raw error (URL, provider message, request id) goes to the log;
	// the queue, the outage record and the events get the code and a
	// short sentence (tse.Reason).
	reason := te.Reason()
	q.log.Warn("TSE request failed", "tx_id", job.TxID, "revision", job.Revision, "class", te.Class.String(),
		"status", te.HTTPStatus, "code", te.Code, "request_id", te.RequestID, "err", te.Message)
	switch te.Class {
	case tse.Reconcile:
		q.reconcile(ctx, job, te)
		return
	case tse.TxPermanent:
		if err := q.st.ParkTSETx(bg, job, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("park transaction", "err", err)
		}
		q.mu.Lock()
		q.failures, q.headBackoff, q.lastErr = 0, false, te
		q.broadcast()
		q.mu.Unlock()
		return
	case tse.ClientPermanent:
		// The TSS refuses this terminal, not the sale: its revisions wait
		// (in order) and are tried again every probe interval; the other
		// terminals go on.
		next := now.Add(probeEvery)
		if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.hold(bg, job, te, next)
		return
	case tse.TSSPermanent, tse.Auth:
		// Head-of-line: the TSS cannot sign anything; the job stays first.
		if err := q.st.RetryTSEJob(bg, job.Seq, now, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.openCircuit(bg, te, true)
		return
	case tse.RateLimited:
		next := now.Add(max(q.backoff(job.Attempts+1), te.RetryAfter))
		if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
			q.log.Error("requeue job", "err", err)
		}
		q.mu.Lock()
		q.headBackoff, q.lastErr = true, te
		q.broadcast()
		q.mu.Unlock()
		return
	}
	// Transient: the request may or may not have been applied; the resend
	// carries the same bytes, which the provider treats idempotently.
	next := now.Add(max(q.backoff(job.Attempts+1), te.RetryAfter))
	if err := q.st.RetryTSEJob(bg, job.Seq, next, te.HTTPStatus, te.Code, reason); err != nil {
		q.log.Error("requeue job", "err", err)
	}
	q.mu.Lock()
	q.failures++
	q.headBackoff, q.lastErr = true, te
	trip := q.failures >= circuitFailures && !q.open
	q.broadcast()
	q.mu.Unlock()
	if trip {
		q.openCircuit(bg, te, false)
	}
}

// openCircuit stops sales from waiting and opens the outage record.
func (q *Queue) openCircuit(ctx context.Context, te *tse.Error, paused bool) {
	q.mu.Lock()
	if !q.open {
		q.log.Warn("TSE circuit open", "code", te.Code, "paused", paused)
		q.open, q.openedAt = true, q.now()
	}
	q.lastProbe = q.now()
	q.paused = q.paused || paused
	q.lastErr = te
	q.broadcast()
	q.mu.Unlock()
	if _, err := q.st.OpenTSEOutage(ctx, q.restaurantID, q.tssID, te.Code, te.Reason()); err != nil {
		q.log.Error("open outage", "err", err)
	}
}

// backoff is min(cap, base·2^(attempt-1)) scaled by a jitter in [0.5, 1].
func (q *Queue) backoff(attempt int) time.Duration {
	d := float64(backoffBase) * math.Pow(2, float64(max(attempt-1, 0)))
	d = min(d, float64(backoffCap))
	return time.Duration(d * q.jitter())
}

// reconcile settles a revision whose outcome the provider disputes: read
// the transaction and compare, never start a second one.
func (q *Queue) reconcile(ctx context.Context, job *store.TSEJob, cause *tse.Error) {
	bg := context.WithoutCancel(ctx)
	latest, err := q.p.Tx(ctx, job.TxID, 0)
	if err != nil {
		var te *tse.Error
		if errors.As(err, &te) && te.HTTPStatus == 404 && job.Revision == 1 {
			// Never started: resending revision 1 is safe.
			if err := q.st.RetryTSEJob(bg, job.Seq, q.now(), cause.HTTPStatus, cause.Code, cause.Reason()); err != nil {
				q.log.Error("requeue job", "err", err)
			}
			return
		}
		if errors.As(err, &te) && te.Class == tse.Reconcile {
			err = &tse.Error{Class: tse.TxPermanent, HTTPStatus: te.HTTPStatus, Code: te.Code, Message: te.Message}
		}
		q.failed(ctx, job, err)
		return
	}
	if latest.LatestRevision < job.Revision && latest.Revision < job.Revision {
		// The provider is behind us in a way a resend cannot fix.
		q.failed(ctx, job, &tse.Error{Class: tse.TxPermanent, HTTPStatus: cause.HTTPStatus, Code: cause.Code,
			Message: "provider is at revision " + strconv.Itoa(max(latest.LatestRevision, latest.Revision)) + ": " + cause.Message})
		return
	}
	rev := latest
	if latest.Revision != job.Revision {
		if rev, err = q.p.Tx(ctx, job.TxID, job.Revision); err != nil {
			q.failed(ctx, job, err)
			return
		}
	}
	if rev.State != job.TargetState {
		q.failed(ctx, job, &tse.Error{Class: tse.TxPermanent, HTTPStatus: cause.HTTPStatus, Code: cause.Code,
			Message: "provider has revision " + strconv.Itoa(job.Revision) + " in state " + rev.State + ", not " + job.TargetState})
		return
	}
	q.log.Info("revision reconciled from the provider", "tx_id", job.TxID, "revision", job.Revision)
	q.completed(ctx, job, rev)
}

// signedOf copies a provider answer into the mirror's terms.
func signedOf(tx tse.Tx) store.TSESigned {
	return store.TSESigned{
		Number: int64(tx.Number), State: tx.State, Revision: tx.Revision, TimeStart: tx.TimeStart, TimeEnd: tx.TimeEnd,
		SignatureCounter: int64(tx.Signature.Counter), SignatureValue: tx.Signature.Value, LogTime: tx.LogTime,
		QRCodeData: tx.QRCodeData, TSSSerialNumber: tx.TSSSerialNumber,
	}
}
