package queue

import (
	"context"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// Status is healthy when the TSS is INITIALIZED, its certificate valid,
// the circuit closed, the queue neither paused nor holding attention
// items and the last self-test not FAILED (docs/API.md, "GET
// /api/tse/status"); each condition that fails is named in Problems.
func (q *Queue) Status(ctx context.Context, restaurantID string) (*fiscal.TSEStatus, error) {
	if err := q.serves(restaurantID); err != nil {
		return nil, err
	}
	now := q.now()
	cs := q.state()
	info, fresh, known, err := q.freshInfo(ctx)
	if err != nil {
		return nil, err
	}
	qs, err := q.st.TSEQueueState(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	last, err := q.st.LatestTSESelfTest(ctx, restaurantID)
	if err != nil && !store.IsNotFound(err) {
		return nil, err
	}
	outage, err := q.st.OpenTSEOutageOf(ctx, q.tssID)
	if err != nil && !store.IsNotFound(err) {
		return nil, err
	}
	problems := []string{}
	out := &fiscal.TSEStatus{
		Provider: q.p.Kind(), TSSID: q.tssID, Online: fresh && !cs.Open, CircuitOpen: cs.Open,
		QueuePaused: cs.Paused, Queue: qs, Known: known, LastSelfTest: last, OpenOutage: outage,
	}
	if cs.Open {
		problems = append(problems, "provider not answering")
	}
	if cs.Paused {
		problems = append(problems, "queue paused: the TSS cannot sign")
	}
	if cs.LastErr != nil && (cs.Open || cs.Paused) {
		out.LastError = cs.LastErr
	}
	for _, h := range cs.Held {
		out.Refused = append(out.Refused, fiscal.RefusedTerminal{ClientSerial: h.serial, Err: h.err, NextAttemptAt: h.retryAt})
		problems = append(problems, "terminal "+h.serial+" refused by the TSS")
	}
	if known {
		out.Info, out.State = info, tse.PublicState(info.State, info.CertNotAfter, now)
		if !info.CertNotAfter.IsZero() {
			days := tse.DaysUntil(info.CertNotAfter, now)
			out.DaysToCertificateExpiry = &days
			if !info.CertNotAfter.After(now) {
				problems = append(problems, "certificate expired")
			}
		}
		if info.State != tse.TSSInitialized {
			problems = append(problems, "TSS is "+info.State)
		}
	} else {
		problems = append(problems, "TSS never reached")
	}
	if qs.Attention > 0 {
		problems = append(problems, "queue items need attention")
	}
	if last != nil && last.State == store.SelfTestFailed {
		problems = append(problems, "last self-test failed")
	}
	if outage != nil {
		// Receipts are going out without TSE data until it closes.
		problems = append(problems, "outage open: "+outage.Reason)
	}
	out.Healthy = len(problems) == 0
	out.Problems = problems
	return out, nil
}
