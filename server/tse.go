package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
	"posbox/tse"
)

// EnableTSE attaches the TSE provider; call it before serving. Until then
// every TSE endpoint answers 503 tse_unavailable.
func (s *Server) EnableTSE(p tse.Provider, opts TSEOptions) {
	budget := opts.Budget
	if budget == 0 {
		budget = s.cfg.TSEBudget
	}
	s.tse = newTSEQueue(p, s.store, s.log, opts.RestaurantID, budget, opts.Jitter)
	// Before the first sale: a restart during an outage starts with the
	// circuit open.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.tse.restore(ctx); err != nil {
		s.log.Error("tse: restore the queue's state", "err", err)
	}
}

// RunTSE runs the forwarding worker until ctx ends (serve's workCtx).
func (s *Server) RunTSE(ctx context.Context) {
	if s.tse != nil {
		s.tse.Run(ctx)
	}
}

// queue is the attached TSE or the 503 every TSE endpoint answers without one.
func (s *Server) queue() (*tseQueue, error) {
	if s.tse == nil {
		return nil, store.Errorf(store.ETSEUnavailable, "no TSE provider is configured")
	}
	return s.tse, nil
}

// queueFor is the attached TSE if it signs for the caller's restaurant.
// The appliance has one TSS, bound to one restaurant (serve binds the
// oldest); another restaurant's sales must never be signed under it, so
// everything that would reach the TSS answers 409 tse_not_configured.
// Reads of the restaurant's own records (transactions, queue, outages)
// stay open and are simply empty.
func (s *Server) queueFor(ctx context.Context) (*tseQueue, error) {
	q, err := s.queue()
	if err != nil {
		return nil, err
	}
	if caller(ctx).restaurant.ID != q.restaurantID {
		return nil, store.Errorf(store.ETSENotConfigured,
			"no TSE is set up for this restaurant: the appliance's TSS signs for another restaurant only (see docs/TSE.md, \"Several restaurants\")")
	}
	return q, nil
}

// createTSETransaction is POST /api/tse/transactions.
func (s *Server) createTSETransaction(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q, err := s.queueFor(r.Context())
	if err != nil {
		return err
	}
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	var req tseSaleRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	v, err := req.validate()
	if err != nil {
		return err
	}
	ans, err := q.sell(r.Context(), caller(r.Context()).restaurant.ID, v, key, requestHash(v))
	if err != nil {
		return err
	}
	return writeAnswer(w, ans.status, ans.body)
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
}

// listTSETransactions is GET /api/tse/transactions?from=&to=: a bare
// array from the local mirror, time_start in [from, to], by number.
func (s *Server) listTSETransactions(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var f store.Fields
	qs := r.URL.Query()
	for _, k := range []string{"from", "to"} {
		if qs.Get(k) == "" {
			f.Add(k, "is required (RFC 3339 timestamp with an offset)")
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
		return store.Invalid("from", "must not be after to")
	}
	txs, err := s.store.TSETransactions(r.Context(), caller(r.Context()).restaurant.ID, from, to)
	if err != nil {
		return err
	}
	out := make([]tseListItem, 0, len(txs))
	for _, t := range txs {
		out = append(out, tseListItem{ID: t.TxID, Number: *t.Number, State: t.State, ClientID: t.ClientID,
			ClientSerial: t.ClientSerial, TimeStart: tsPtr(t.TimeStart), TimeEnd: tsPtr(t.TimeEnd),
			SignatureCounter: t.SignatureCounter, Signature: strPtr(t.SignatureValue), SignedLate: t.SignedLate, Source: t.Source})
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
	q, err := s.queueFor(r.Context())
	if err != nil {
		return err
	}
	info, fresh, ok, err := q.freshInfo(r.Context())
	if err != nil {
		return err
	}
	if !ok {
		return store.Errorf(store.ETSEUnavailable, "the TSE provider is unreachable and nothing is known about the TSS yet")
	}
	out := tseInfoJSON{
		ID: info.ID, Description: info.Description, State: publicTSSState(info.State, info.CertNotAfter, q.now()),
		SerialNumber: info.SerialNumber, PublicKey: info.PublicKey,
		Provider: q.p.Kind(), ProviderState: info.State, Cached: !fresh, FetchedAt: ts(info.FetchedAt),
	}
	if !info.CertNotAfter.IsZero() {
		out.CertificateExpiry = tsPtr(&info.CertNotAfter)
	}
	return writeJSON(w, http.StatusOK, envelope{"info": out})
}

// tseStatus is GET /api/tse/status.
func (s *Server) tseStatus(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q, err := s.queueFor(r.Context())
	if err != nil {
		return err
	}
	st, err := q.status(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"status": st})
}

// startTSESelfTest is POST /api/tse/self-test: 202 with the running test.
func (s *Server) startTSESelfTest(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q, err := s.queueFor(r.Context())
	if err != nil {
		return err
	}
	t, err := q.startSelfTest(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, envelope{"self_test": tseSelfTestView(t)})
}

// tseQueueAction is POST /api/tse/queue/:tx_id/retry and .../cancel.
func (s *Server) tseQueueAction(action string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
		q, err := s.queueFor(r.Context())
		if err != nil {
			return err
		}
		id, err := pathID(p, "transaction")
		if err != nil {
			return err
		}
		rid := caller(r.Context()).restaurant.ID
		if _, err := s.store.TSETransaction(r.Context(), rid, id); err != nil {
			return err
		}
		switch action {
		case "retry":
			err = s.store.RetryTSEAttention(r.Context(), rid, id)
		case "cancel":
			err = q.cancelAtTSE(r.Context(), rid, id)
		}
		if err != nil {
			return err
		}
		q.Wake()
		t, err := s.store.TSETransaction(r.Context(), rid, id)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, envelope{"transaction": tseTxView(t)})
	}
}
