package server

import (
	"context"

	"posbox/store"
)

// status is GET /api/tse/status: healthy = TSS INITIALIZED ∧ certificate
// valid ∧ circuit closed ∧ queue not paused ∧ no attention items ∧ last
// self-test not FAILED (tse-provider.md 5.7), with the reasons listed.
func (q *tseQueue) status(ctx context.Context, restaurantID string) (map[string]any, error) {
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
	if err != nil {
		return nil, err
	}
	outage, err := q.st.OpenTSEOutageOf(ctx, q.tssID)
	if err != nil {
		return nil, err
	}
	var problems []string
	out := map[string]any{
		"provider": q.p.Kind(), "tss_id": q.tssID, "online": fresh && !cs.Open, "circuit": "closed",
		"queue_paused": cs.Paused, "queue_depth": qs.Pending, "attention_count": qs.Attention,
		"oldest_queued_at": tsPtr(qs.OldestQueuedAt), "last_self_test": nil, "last_self_test_error": nil,
		"open_outage": nil, "days_to_certificate_expiry": nil, "provider_state": nil, "state": nil,
		"active_transactions": nil, "max_active_transactions": nil, "last_error": nil,
	}
	if cs.Open {
		out["circuit"] = "open"
		problems = append(problems, "provider not answering")
	}
	if cs.Paused {
		problems = append(problems, "queue paused: the TSS cannot sign")
	}
	if cs.LastErr != nil && (cs.Open || cs.Paused) {
		out["last_error"] = map[string]any{"code": cs.LastErr.Code, "message": cs.LastErr.Reason(), "http_status": cs.LastErr.HTTPStatus}
	}
	refused := make([]map[string]any, 0, len(cs.Held))
	for _, h := range cs.Held {
		refused = append(refused, map[string]any{"client_serial": h.serial, "code": h.err.Code, "message": h.err.Reason(),
			"next_attempt_at": ts(h.retryAt)})
		problems = append(problems, "terminal "+h.serial+" refused by the TSS")
	}
	out["refused_terminals"] = refused
	if known {
		out["provider_state"] = info.State
		out["state"] = publicTSSState(info.State, info.CertNotAfter, now)
		out["active_transactions"], out["max_active_transactions"] = info.ActiveTransactions, info.MaxActiveTx
		if !info.CertNotAfter.IsZero() {
			out["days_to_certificate_expiry"] = daysUntil(info.CertNotAfter, now)
			if !info.CertNotAfter.After(now) {
				problems = append(problems, "certificate expired")
			}
		}
		if info.State != "INITIALIZED" {
			problems = append(problems, "TSS is "+info.State)
		}
	} else {
		problems = append(problems, "TSS never reached")
	}
	if qs.Attention > 0 {
		problems = append(problems, "queue items need attention")
	}
	if last != nil {
		out["last_self_test"] = tseSelfTestView(last)
		if last.State == store.SelfTestFailed {
			out["last_self_test_error"] = last.Error
			problems = append(problems, "last self-test failed")
		}
	}
	if outage != nil {
		// Receipts are going out without TSE data until it closes.
		out["open_outage"] = tseOutageView(outage)
		problems = append(problems, "outage open: "+outage.Reason)
	}
	out["healthy"] = len(problems) == 0
	if problems == nil {
		problems = []string{}
	}
	out["problems"] = problems
	return out, nil
}
