package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// TSE is the fiscal signing the API drives: package fiscal/queue's Queue,
// built and run by main. Every method that reaches the TSS answers 409
// tse_not_configured for a restaurant the TSS does not sign for.
type TSE interface {
	// Sell records a sale and returns it signed or marked "TSE
	// unavailable" once the budget ran out.
	// An idemKey ("" for none) sent again with another sale is refused.
	Sell(ctx context.Context, restaurantID string, s fiscal.Sale, idemKey string) (*store.TSETransaction, error)
	// TSS is what is known of the TSS; fresh says whether the provider
	// answered just now.
	TSS(ctx context.Context, restaurantID string) (info store.TSEInfo, fresh bool, err error)
	Kind() string
	Status(ctx context.Context, restaurantID string) (*fiscal.TSEStatus, error)
	StartSelfTest(ctx context.Context, restaurantID string) (*store.TSESelfTest, error)
	Retry(ctx context.Context, restaurantID, txID string) error
	Cancel(ctx context.Context, restaurantID, txID string) error
}

// notWhileReplacing is 503 tse_replacing while the TSS is being
// replaced: nothing is recorded for the TSE meanwhile; what tells the
// caller what was not done and what to do.
func (s *Server) notWhileReplacing(ctx context.Context, restaurantID, what string) error {
	if s.cfg.Replacer != nil && s.cfg.Replacer.Blocking(ctx, restaurantID) {
		return store.Errorf(store.ETSEReplacing, "the TSE is being replaced: %s", what)
	}
	return nil
}

// signer is the configured TSE or the 503 every TSE endpoint answers
// without one.
func (s *Server) signer() (TSE, error) {
	if s.cfg.TSE == nil {
		return nil, store.Errorf(store.ETSEUnavailable, "no TSE provider is configured")
	}
	return s.cfg.TSE, nil
}

// createTSETransaction is POST /api/tse/transactions.
func (s *Server) createTSETransaction(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	t, err := s.signer()
	if err != nil {
		return err
	}
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	// The body is fiscal.Request; fiscal validates it (problem+json 422
	// through the store's field errors) and the queue records and signs.
	var req fiscal.Request
	if err := decode(r, &req, false); err != nil {
		return err
	}
	sale, err := req.Validate()
	if err != nil {
		return err
	}
	who := caller(r.Context())
	if err := s.notWhileReplacing(r.Context(), who.restaurant.ID, "the sale is not recorded; send it again in a moment"); err != nil {
		return err
	}
	sale.OperatorID, sale.OperatorName = who.user.ID, who.user.Name
	if req.OperatorID != nil {
		op, err := s.activeUser(r.Context(), who.restaurant.ID, *req.OperatorID, "operator_id")
		if err != nil {
			return err
		}
		sale.OperatorID, sale.OperatorName = op.ID, op.Name
	}
	tx, err := t.Sell(r.Context(), who.restaurant.ID, sale, key)
	if err != nil {
		return err
	}
	// 201 signed; 202 the receipt goes out without TSE data.
	status := http.StatusAccepted
	if tx.Signed() {
		status = http.StatusCreated
	}
	return writeJSON(w, status, envelope{"transaction": tseTxView(tx)})
}

// activeUser is the user a request names in field (a sale's operator_id,
// a movement's for_user_id): an active user of the restaurant, never an
// erased one; else 422 not_active_user on the field.
func (s *Server) activeUser(ctx context.Context, restaurantID, id, field string) (*store.User, error) {
	bad := store.Invalid(field, store.FNotActiveUser, "must be an active user of this restaurant")
	if !store.ValidID(id) {
		return nil, bad
	}
	u, err := s.store.User(ctx, restaurantID, id)
	switch {
	case store.IsNotFound(err):
		return nil, bad
	case err != nil:
		return nil, err
	case !u.IsActive:
		return nil, bad
	}
	return u, nil
}

// getTSETransaction is GET /api/tse/transactions/:id.
func (s *Server) getTSETransaction(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "transaction")
	if err != nil {
		return err
	}
	t, err := s.store.TSETransaction(r.Context(), caller(r.Context()).restaurant.ID, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"transaction": tseTxView(t)})
}

// tseListItem is one entry of GET /api/tse/transactions.
type tseListItem struct {
	ID               string  `json:"id"`
	Number           int64   `json:"number"`
	State            string  `json:"state"`
	ClientID         string  `json:"client_id"`
	TimeStart        *string `json:"time_start"`
	TimeEnd          *string `json:"time_end"`
	SignatureCounter *int64  `json:"signature_counter"`
	Signature        *string `json:"signature"`
	ClientSerial     string  `json:"client_serial"`
	SignedLate       bool    `json:"signed_late"`
	Source           string  `json:"source"`
	// What the receipt contained (tse_sale_view.go).
	ReceiptType       *string     `json:"receipt_type"`
	Total             json.Number `json:"total"`
	ReceiptWithoutTSE bool        `json:"receipt_without_tse"`
	saleContent
	CancelledBy *string `json:"cancelled_by"`
}

// listTSETransactions is GET /api/tse/transactions?from=&to=: a bare
// array from the local mirror, time_start in [from, to], by number.
func (s *Server) listTSETransactions(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var f store.Fields
	qs := r.URL.Query()
	for _, k := range []string{"from", "to"} {
		if qs.Get(k) == "" {
			f.Add(k, store.FRequired, "is required (RFC 3339 timestamp with an offset)")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	// A "+" the client did not percent-encode arrives as a space; RFC 3339
	// has no space, so it can only be the offset's sign.
	from := parseTimestamp(&f, "from", strings.ReplaceAll(qs.Get("from"), " ", "+"))
	to := parseTimestamp(&f, "to", strings.ReplaceAll(qs.Get("to"), " ", "+"))
	if err := f.Err(); err != nil {
		return err
	}
	if from.After(to) {
		return store.Invalid("from", store.FAfterField, "must not be after to", "field", "to")
	}
	txs, err := s.store.TSETransactions(r.Context(), caller(r.Context()).restaurant.ID, from, to)
	if err != nil {
		return err
	}
	ids := make([]string, len(txs))
	for i, t := range txs {
		ids[i] = t.TxID
	}
	details, err := s.store.TSESaleDetails(r.Context(), ids)
	if err != nil {
		return err
	}
	out := make([]tseListItem, 0, len(txs))
	for _, t := range txs {
		d := details[t.TxID] // nil: learnt from the provider, no detail
		out = append(out, tseListItem{ID: t.TxID, Number: *t.Number, State: t.State, ClientID: t.ClientID,
			ClientSerial: t.ClientSerial, TimeStart: tsPtr(t.TimeStart), TimeEnd: tsPtr(t.TimeEnd),
			SignatureCounter: t.SignatureCounter, Signature: strPtr(t.SignatureValue), SignedLate: t.SignedLate, Source: t.Source,
			ReceiptType: strPtr(t.ReceiptType), Total: money(t.TotalCents), ReceiptWithoutTSE: t.ReceiptWithoutTSE,
			saleContent: saleContentView(d), CancelledBy: strPtr(t.CancelledBy)})
	}
	return writeJSON(w, http.StatusOK, out)
}

// tseQueueView is GET /api/tse/queue.
func (s *Server) tseQueueView(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q, err := s.store.TSEQueueState(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	items := make([]tseJobJSON, 0, len(q.Items))
	for _, j := range q.Items {
		items = append(items, tseJobView(j))
	}
	return writeJSON(w, http.StatusOK, envelope{"queue": tseQueueJSON{
		Pending: q.Pending, Attention: q.Attention, OldestQueuedAt: tsPtr(q.OldestQueuedAt), Items: items,
	}})
}

// tseOutages is GET /api/tse/outages.
func (s *Server) tseOutages(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	os, err := s.store.TSEOutages(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]tseOutageJSON, 0, len(os))
	for _, o := range os {
		out = append(out, tseOutageView(o))
	}
	return writeJSON(w, http.StatusOK, envelope{"outages": out})
}

// tseInfo is GET /api/tse/info.
func (s *Server) tseInfo(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	t, err := s.signer()
	if err != nil {
		return err
	}
	info, fresh, err := t.TSS(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := tseInfoJSON{
		ID: info.ID, Description: info.Description, State: tse.PublicState(info.State, info.CertNotAfter, s.now()),
		SerialNumber: info.SerialNumber, PublicKey: info.PublicKey,
		Provider: t.Kind(), ProviderState: info.State, Cached: !fresh, FetchedAt: ts(info.FetchedAt),
	}
	if !info.CertNotAfter.IsZero() {
		out.CertificateExpiry = tsPtr(&info.CertNotAfter)
	}
	return writeJSON(w, http.StatusOK, envelope{"info": out})
}

// tseStatus is GET /api/tse/status.
func (s *Server) tseStatus(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	t, err := s.signer()
	if err != nil {
		return err
	}
	rid := caller(r.Context()).restaurant.ID
	st, err := t.Status(r.Context(), rid)
	if err != nil {
		return err
	}
	out := tseStatusView(st)
	if s.cfg.Archive != nil {
		as, err := s.cfg.Archive.Status(r.Context(), rid)
		if err != nil {
			return err
		}
		out.Archive = tseArchiveStatusView(as)
	}
	return writeJSON(w, http.StatusOK, envelope{"status": out})
}

// startTSESelfTest is POST /api/tse/self-test: 202 with the running test.
func (s *Server) startTSESelfTest(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	t, err := s.signer()
	if err != nil {
		return err
	}
	st, err := t.StartSelfTest(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, envelope{"self_test": tseSelfTestView(st)})
}

// tseQueueAction is POST /api/tse/queue/:tx_id/retry and .../cancel.
func (s *Server) tseQueueAction(action string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
		t, err := s.signer()
		if err != nil {
			return err
		}
		id, err := pathID(p, "transaction")
		if err != nil {
			return err
		}
		rid := caller(r.Context()).restaurant.ID
		switch action {
		case "retry":
			err = t.Retry(r.Context(), rid, id)
		case "cancel":
			err = t.Cancel(r.Context(), rid, id)
		}
		if err != nil {
			return err
		}
		tx, err := s.store.TSETransaction(r.Context(), rid, id)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, envelope{"transaction": tseTxView(tx)})
	}
}
