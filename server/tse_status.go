package server

import (
	"context"

	"posbox/store"
)

// tseStatusJSON is GET /api/tse/status: the seed's three fields first,
// then the contract's extras in its order, then the appliance's own.
type tseStatusJSON struct {
	Healthy                 bool                     `json:"healthy"`
	LastSelfTest            *tseSelfTestJSON         `json:"last_self_test"`
	LastSelfTestError       *string                  `json:"last_self_test_error"`
	Provider                string                   `json:"provider"`
	Online                  bool                     `json:"online"`
	QueueDepth              int                      `json:"queue_depth"`
	OldestQueuedAt          *string                  `json:"oldest_queued_at"`
	OpenOutage              *tseOutageJSON           `json:"open_outage"`
	DaysToCertificateExpiry *int                     `json:"days_to_certificate_expiry"`
	Problems                []string                 `json:"problems"`
	State                   *string                  `json:"state"`
	ProviderState           *string                  `json:"provider_state"`
	TSSID                   string                   `json:"tss_id"`
	Circuit                 string                   `json:"circuit"`
	QueuePaused             bool                     `json:"queue_paused"`
	AttentionCount          int                      `json:"attention_count"`
	ActiveTransactions      *int                     `json:"active_transactions"`
	MaxActiveTransactions   *int                     `json:"max_active_transactions"`
	LastError               *tseLastErrorJSON        `json:"last_error"`
	RefusedTerminals        []tseRefusedTerminalJSON `json:"refused_terminals"`
}

// tseRefusedTerminalJSON is a till the TSS refused to register (client
// limit): only its sales wait, retried every 30 s.
type tseRefusedTerminalJSON struct {
	ClientSerial  string `json:"client_serial"`
	Code          string `json:"code"`
	Message       string `json:"message"`
	NextAttemptAt string `json:"next_attempt_at"`
}

// tseLastErrorJSON is the provider error that opened the circuit or paused the queue.
type tseLastErrorJSON struct {
	Code       string `json:"code"`
	Message    string `json:"message"`
	HTTPStatus int    `json:"http_status"`
}

// status is GET /api/tse/status: healthy = TSS INITIALIZED ∧ certificate
// valid ∧ circuit closed ∧ queue not paused ∧ no attention items ∧ last
// self-test not FAILED (tse-provider.md 5.7), with the reasons listed.
func (q *tseQueue) status(ctx context.Context, restaurantID string) (*tseStatusJSON, error) {
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
	problems := []string{}
	out := &tseStatusJSON{
		Provider: q.p.Kind(), TSSID: q.tssID, Online: fresh && !cs.Open, Circuit: "closed",
		QueuePaused: cs.Paused, QueueDepth: qs.Pending, AttentionCount: qs.Attention,
		OldestQueuedAt: tsPtr(qs.OldestQueuedAt),
	}
	if cs.Open {
		out.Circuit = "open"
		problems = append(problems, "provider not answering")
	}
	if cs.Paused {
		problems = append(problems, "queue paused: the TSS cannot sign")
	}
	if cs.LastErr != nil && (cs.Open || cs.Paused) {
		out.LastError = &tseLastErrorJSON{Code: cs.LastErr.Code, Message: cs.LastErr.Reason(), HTTPStatus: cs.LastErr.HTTPStatus}
	}
	out.RefusedTerminals = make([]tseRefusedTerminalJSON, 0, len(cs.Held))
	for _, h := range cs.Held {
		out.RefusedTerminals = append(out.RefusedTerminals, tseRefusedTerminalJSON{
			ClientSerial: h.serial, Code: h.err.Code, Message: h.err.Reason(), NextAttemptAt: ts(h.retryAt)})
		problems = append(problems, "terminal "+h.serial+" refused by the TSS")
	}
	if known {
		state := publicTSSState(info.State, info.CertNotAfter, now)
		active, maxActive := info.ActiveTransactions, info.MaxActiveTx
		out.ProviderState, out.State = &info.State, &state
		out.ActiveTransactions, out.MaxActiveTransactions = &active, &maxActive
		if !info.CertNotAfter.IsZero() {
			days := daysUntil(info.CertNotAfter, now)
			out.DaysToCertificateExpiry = &days
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
		v := tseSelfTestView(last)
		out.LastSelfTest = &v
		if last.State == store.SelfTestFailed {
			out.LastSelfTestError = strPtr(last.Error)
			problems = append(problems, "last self-test failed")
		}
	}
	if outage != nil {
		// Receipts are going out without TSE data until it closes.
		v := tseOutageView(outage)
		out.OpenOutage = &v
		problems = append(problems, "outage open: "+outage.Reason)
	}
	out.Healthy = len(problems) == 0
	out.Problems = problems
	return out, nil
}
