package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// afterRestoreJSON is GET /api/tse/after-restore: the latest restore's
// comparison with the TSE (package fiscal/afterrestore runs it at the
// first start), state "none" when the box was never restored from the
// replica.
type afterRestoreJSON struct {
	State             string          `json:"state"` // none, pending, done
	RestoredAt        *string         `json:"restored_at"`
	ReplicatedThrough *string         `json:"replicated_through"`
	ComparedFrom      *string         `json:"compared_from"`
	ComparedAt        *string         `json:"compared_at"`
	Attempts          int             `json:"attempts"`
	LastError         *string         `json:"last_error"`
	LastAttemptAt     *string         `json:"last_attempt_at"`
	Open              int             `json:"open"`
	Missing           []missingTxJSON `json:"missing"`
}

// missingTxJSON is a transaction the TSE signed that the restored box
// has no sale for, with what its receipt said.
type missingTxJSON struct {
	ID                    string              `json:"id"`
	Number                int64               `json:"number"`
	SignatureCounter      int64               `json:"signature_counter"`
	State                 string              `json:"state"`
	TimeStart             string              `json:"time_start"`
	TimeEnd               *string             `json:"time_end"`
	ClientID              string              `json:"client_id"`
	ClientSerial          string              `json:"client_serial"`
	ProcessType           string              `json:"process_type"`
	ProcessData           string              `json:"process_data"`
	ReceiptKind           *string             `json:"receipt_kind"`
	AmountsPerVATRate     []missingVATJSON    `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []missingPayJSON    `json:"amounts_per_payment_type"`
	AcknowledgedAt        *string             `json:"acknowledged_at"`
	AcknowledgedBy        *acknowledgedByJSON `json:"acknowledged_by"`
}

type missingVATJSON struct {
	VATRate string      `json:"vat_rate"`
	Amount  json.Number `json:"amount"`
}

type missingPayJSON struct {
	PaymentType  string      `json:"payment_type"`
	CurrencyCode string      `json:"currency_code"`
	Amount       json.Number `json:"amount"`
}

type acknowledgedByJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func afterRestoreView(a *store.TSEAfterRestore) afterRestoreJSON {
	v := afterRestoreJSON{State: a.State, RestoredAt: tsPtr(&a.RestoredAt), ReplicatedThrough: tsPtr(a.ReplicatedThrough),
		ComparedFrom: tsPtr(a.ComparedFrom), ComparedAt: tsPtr(a.ComparedAt), Attempts: a.Attempts,
		LastError: strPtr(a.LastError), LastAttemptAt: tsPtr(a.LastAttemptAt), Missing: make([]missingTxJSON, 0, len(a.Missing))}
	for _, m := range a.Missing {
		v.Missing = append(v.Missing, missingTxView(m))
		if m.AcknowledgedAt == nil {
			v.Open++
		}
	}
	return v
}

func missingTxView(m store.TSEMissingTx) missingTxJSON {
	v := missingTxJSON{ID: m.TxID, Number: m.Number, SignatureCounter: m.SignatureCounter, State: m.State,
		TimeStart: ts(m.TimeStart), TimeEnd: tsPtr(m.TimeEnd), ClientID: m.ClientID, ClientSerial: m.ClientSerial,
		ProcessType: m.ProcessType, ProcessData: m.ProcessData, ReceiptKind: strPtr(m.ReceiptKind),
		AmountsPerVATRate: make([]missingVATJSON, 0, len(m.VAT)), AmountsPerPaymentType: make([]missingPayJSON, 0, len(m.Payments)),
		AcknowledgedAt: tsPtr(m.AcknowledgedAt)}
	for _, a := range m.VAT {
		v.AmountsPerVATRate = append(v.AmountsPerVATRate, missingVATJSON{a.VATRate, json.Number(a.Amount)})
	}
	for _, p := range m.Payments {
		v.AmountsPerPaymentType = append(v.AmountsPerPaymentType, missingPayJSON{p.PaymentType, p.CurrencyCode, json.Number(p.Amount)})
	}
	if m.AcknowledgedBy != "" {
		v.AcknowledgedBy = &acknowledgedByJSON{ID: m.AcknowledgedBy, Name: m.AcknowledgedName}
	}
	return v
}

// afterRestore is GET /api/tse/after-restore.
func (s *Server) afterRestore(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	a, err := s.store.LatestTSEAfterRestore(r.Context(), caller(r.Context()).restaurant.ID)
	if store.IsNotFound(err) {
		return writeJSON(w, http.StatusOK, envelope{"after_restore": afterRestoreJSON{State: "none", Missing: []missingTxJSON{}}})
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"after_restore": afterRestoreView(a)})
}

// acknowledgeRequest names the transactions the owner has re-entered, or
// all of them.
type acknowledgeRequest struct {
	TxIDs []string `json:"tx_ids"`
	All   *bool    `json:"all"`
}

// acknowledgeAfterRestore is POST /api/tse/after-restore/acknowledge.
func (s *Server) acknowledgeAfterRestore(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req acknowledgeRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	all := req.All != nil && *req.All
	var f store.Fields
	switch {
	case all && len(req.TxIDs) > 0:
		f.Add("tx_ids", store.FNotAllowed, "must be absent when all is true")
	case !all && len(req.TxIDs) == 0:
		f.Add("tx_ids", store.FRequired, "name the transactions re-entered, or send all: true")
	}
	for i, id := range req.TxIDs {
		if !store.ValidID(id) {
			f.Add("tx_ids["+strconv.Itoa(i)+"]", store.FBadFormat, "must be a transaction id (a UUID)")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	if err := s.store.AcknowledgeTSEMissing(r.Context(), c.restaurant.ID, req.TxIDs, c.user.ID); err != nil {
		return err
	}
	a, err := s.store.LatestTSEAfterRestore(r.Context(), c.restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"after_restore": afterRestoreView(a)})
}
