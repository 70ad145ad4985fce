package server

import (
	"encoding/json"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// tseTxJSON is a transaction as the API shows it (POST and GET
// /api/tse/transactions/:id): the contract's fields in its order, then
// the appliance's own.
type tseTxJSON struct {
	ID                string      `json:"id"`
	Number            *int64      `json:"number"`
	State             string      `json:"state"`
	ClientID          string      `json:"client_id"`
	TimeStart         *string     `json:"time_start"`
	TimeEnd           *string     `json:"time_end"`
	SignatureCounter  *int64      `json:"signature_counter"`
	Signature         *string     `json:"signature"`
	QRCodeData        *string     `json:"qr_code_data"`
	TSESerialNumber   *string     `json:"tse_serial_number"`
	Signed            bool        `json:"signed"`
	TSEUnavailable    bool        `json:"tse_unavailable"`
	ClientSerial      string      `json:"client_serial"`
	ReceiptType       string      `json:"receipt_type,omitempty"`
	Total             json.Number `json:"total"`
	ReceiptWithoutTSE bool        `json:"receipt_without_tse"`
	SignedLate        bool        `json:"signed_late"`
	OutageID          *string     `json:"outage_id"`
	Source            string      `json:"source"`
	CreatedAt         string      `json:"created_at"`
	Cancels           *string     `json:"cancels"`
	CancelledBy       *string     `json:"cancelled_by"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func tseTxView(t *store.TSETransaction) tseTxJSON {
	v := tseTxJSON{
		ID: t.TxID, State: t.State, ClientID: t.ClientID, ClientSerial: t.ClientSerial,
		ReceiptType: t.ReceiptType, Total: money(t.TotalCents), Signed: t.Signed(),
		ReceiptWithoutTSE: t.ReceiptWithoutTSE, SignedLate: t.SignedLate, OutageID: strPtr(t.OutageID),
		Source: t.Source, CreatedAt: ts(t.CreatedAt), Cancels: strPtr(t.Cancels), CancelledBy: strPtr(t.CancelledBy),
	}
	// A transaction the till was told is unsigned stays "unavailable"
	// until it is signed; a fresh one still in flight is neither.
	v.TSEUnavailable = !v.Signed && t.ReceiptWithoutTSE
	if t.Number != nil {
		v.Number = t.Number
		v.TimeStart = tsPtr(t.TimeStart)
		v.TimeEnd = tsPtr(t.TimeEnd)
		v.SignatureCounter = t.SignatureCounter
		v.Signature = strPtr(t.SignatureValue)
		v.QRCodeData = strPtr(t.QRCodeData)
		v.TSESerialNumber = strPtr(t.TSSSerialNumber)
	}
	return v
}

// tseJobJSON is one queue item.
type tseJobJSON struct {
	ID             string  `json:"id"`
	TxID           string  `json:"tx_id"`
	Revision       int     `json:"revision"`
	TargetState    string  `json:"target_state"`
	ClientSerial   string  `json:"client_serial"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	LastHTTPStatus *int    `json:"last_http_status"`
	LastErrorCode  *string `json:"last_error_code"`
	LastError      *string `json:"last_error"`
	NextAttemptAt  *string `json:"next_attempt_at"`
	QueuedAt       string  `json:"queued_at"`
}

func tseJobView(j *store.TSEJob) tseJobJSON {
	v := tseJobJSON{ID: j.ID, TxID: j.TxID, Revision: j.Revision, TargetState: j.TargetState, ClientSerial: j.ClientSerial,
		Status: j.Status, Attempts: j.Attempts, LastErrorCode: strPtr(j.LastErrorCode), LastError: strPtr(j.LastErrorMessage),
		QueuedAt: ts(j.CreatedAt)}
	if j.LastHTTPStatus != 0 {
		v.LastHTTPStatus = &j.LastHTTPStatus
	}
	if j.Status == store.TSEJobPending || j.Status == store.TSEJobInFlight {
		s := ts(j.NextAttemptAt)
		v.NextAttemptAt = &s
	}
	return v
}

type tseOutageJSON struct {
	ID                   string  `json:"id"`
	StartedAt            string  `json:"started_at"`
	EndedAt              *string `json:"ended_at"`
	Reason               string  `json:"reason"`
	AffectedTransactions int     `json:"affected_transactions"`
	ReasonCode           string  `json:"reason_code"`
}

func tseOutageView(o *store.TSEOutage) tseOutageJSON {
	return tseOutageJSON{ID: o.ID, StartedAt: ts(o.StartedAt), EndedAt: tsPtr(o.EndedAt), Reason: o.Reason,
		ReasonCode: o.ReasonCode, AffectedTransactions: o.AffectedTransactions}
}

// tseSelfTestJSON is a self-test: the contract's three fields first.
type tseSelfTestJSON struct {
	State      string          `json:"state"`
	StartedAt  string          `json:"started_at"`
	FinishedAt *string         `json:"finished_at"`
	ID         string          `json:"id"`
	Error      *string         `json:"error"`
	Checks     json.RawMessage `json:"checks"`
}

func tseSelfTestView(t *store.TSESelfTest) tseSelfTestJSON {
	return tseSelfTestJSON{ID: t.ID, State: t.State, StartedAt: ts(t.StartedAt), FinishedAt: tsPtr(t.FinishedAt),
		Error: strPtr(t.Error), Checks: t.Checks}
}

// tseInfoJSON is GET /api/tse/info: the seed's fields in its order, then
// where the answer came from.
type tseInfoJSON struct {
	ID                string  `json:"_id"`
	Description       string  `json:"description"`
	State             string  `json:"state"`
	SerialNumber      string  `json:"serial_number"`
	PublicKey         string  `json:"public_key"`
	CertificateExpiry *string `json:"certificate_expiry"`
	Provider          string  `json:"provider"`
	ProviderState     string  `json:"provider_state"`
	Cached            bool    `json:"cached"`
	FetchedAt         string  `json:"fetched_at"`
}

// tseQueueJSON is GET /api/tse/queue in the contract's order.
type tseQueueJSON struct {
	Pending        int          `json:"pending"`
	Attention      int          `json:"attention"`
	OldestQueuedAt *string      `json:"oldest_queued_at"`
	Items          []tseJobJSON `json:"items"`
}

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
	// CertificateWarning is set from 90 days before the certificate
	// expires (docs/TSE.md, "The certificate's expiry").
	CertificateWarning *tseCertWarningJSON `json:"certificate_warning"`
	// Archive is the fiscal archive's state (null without one).
	Archive *tseArchiveStatusJSON `json:"archive"`
	// Simulated: the built-in simulator signs, not a certified TSE; its
	// receipts are not valid for tax purposes (docs/TSE.md).
	Simulated bool `json:"simulated"`
}

// tseCertWarningJSON: the certificate expires within threshold_days (90,
// 30 or 7; days_left below 0 once expired).
type tseCertWarningJSON struct {
	ThresholdDays     int    `json:"threshold_days"`
	DaysLeft          int    `json:"days_left"`
	CertificateExpiry string `json:"certificate_expiry"`
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

func tseStatusView(st *fiscal.TSEStatus) tseStatusJSON {
	out := tseStatusJSON{
		Healthy: st.Healthy, Problems: st.Problems, Provider: st.Provider, TSSID: st.TSSID, Online: st.Online,
		Circuit: "closed", QueuePaused: st.QueuePaused, QueueDepth: st.Queue.Pending, AttentionCount: st.Queue.Attention,
		OldestQueuedAt: tsPtr(st.Queue.OldestQueuedAt), DaysToCertificateExpiry: st.DaysToCertificateExpiry,
		RefusedTerminals: make([]tseRefusedTerminalJSON, 0, len(st.Refused)),
		Simulated:        st.Provider == tse.KindSimulator,
	}
	if st.CircuitOpen {
		out.Circuit = "open"
	}
	if e := st.LastError; e != nil {
		out.LastError = &tseLastErrorJSON{Code: e.Code, Message: e.Reason(), HTTPStatus: e.HTTPStatus}
	}
	for _, h := range st.Refused {
		out.RefusedTerminals = append(out.RefusedTerminals, tseRefusedTerminalJSON{
			ClientSerial: h.ClientSerial, Code: h.Err.Code, Message: h.Err.Reason(), NextAttemptAt: ts(h.NextAttemptAt)})
	}
	if st.Known {
		state, raw := st.State, st.Info.State
		active, maxActive := st.Info.ActiveTransactions, st.Info.MaxActiveTx
		out.State, out.ProviderState = &state, &raw
		out.ActiveTransactions, out.MaxActiveTransactions = &active, &maxActive
		if d := st.DaysToCertificateExpiry; d != nil && store.TSECertWarnThreshold(*d) > 0 {
			out.CertificateWarning = &tseCertWarningJSON{ThresholdDays: store.TSECertWarnThreshold(*d), DaysLeft: *d,
				CertificateExpiry: ts(st.Info.CertNotAfter)}
		}
	}
	if t := st.LastSelfTest; t != nil {
		v := tseSelfTestView(t)
		out.LastSelfTest = &v
		if t.State == store.SelfTestFailed {
			out.LastSelfTestError = strPtr(t.Error)
		}
	}
	if st.OpenOutage != nil {
		v := tseOutageView(st.OpenOutage)
		out.OpenOutage = &v
	}
	return out
}
