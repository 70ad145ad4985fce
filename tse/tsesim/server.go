package tsesim

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"posbox/tse"
)

// The simulator's HTTP face: fiskaly SIGN DE v2's paths, bodies and errors
// under /api/v2, so the real fiskaly client can be tested against it and
// training tills can run against `posbox tse-sim`.

const (
	simAPIVersion = "2.2.2"
	simEnv        = "TEST"
	accessTTL     = 24 * time.Hour // fiskaly: access token 24 h, refresh token 48 h
	refreshTTL    = 48 * time.Hour
	maxBody       = 1 << 20 // fiskaly refuses bodies over 1 MB
	// hangLimit bounds how long an apply-then-timeout request hangs when
	// the client never gives up.
	hangLimit = 2 * time.Minute
)

// Server serves a Simulator over HTTP.
type Server struct {
	sim               *Simulator
	apiKey, apiSecret string
	mux               *http.ServeMux

	mu      sync.Mutex
	access  map[string]time.Time // token → expiry
	refresh map[string]time.Time
}

// NewServer serves sim with fiskaly's wire format under /api/v2; the
// api key and secret are the credentials POST /auth accepts.
func NewServer(sim *Simulator, apiKey, apiSecret string) *Server {
	h := &Server{sim: sim, apiKey: apiKey, apiSecret: apiSecret, mux: http.NewServeMux(),
		access: map[string]time.Time{}, refresh: map[string]time.Time{}}
	h.mux.HandleFunc("POST /api/v2/auth", h.auth)
	h.handle("GET /api/v2/tss", h.listTSS)
	h.handle("PUT /api/v2/tss/{tss}", h.createTSS)
	h.handle("GET /api/v2/tss/{tss}", h.getTSS)
	h.handle("PATCH /api/v2/tss/{tss}", h.patchTSS)
	h.handle("PATCH /api/v2/tss/{tss}/admin", h.changeAdminPIN)
	h.handle("POST /api/v2/tss/{tss}/admin/auth", h.adminAuth)
	h.handle("POST /api/v2/tss/{tss}/admin/logout", h.adminLogout)
	h.handle("PUT /api/v2/tss/{tss}/client/{client}", h.putClient)
	h.handle("GET /api/v2/tss/{tss}/client/{client}", h.getClient)
	h.handle("GET /api/v2/tss/{tss}/client", h.listClients)              // clientlist.go
	h.handle("GET /api/v2/tss/{tss}/client/{client}/tx", h.listClientTx) // clientlist.go
	h.handle("GET /api/v2/tss/{tss}/metadata", h.getTSSMetadata)         // metadata.go
	h.handle("PATCH /api/v2/tss/{tss}/metadata", h.patchTSSMetadata)
	h.handle("PUT /api/v2/tss/{tss}/tx/{tx}", h.upsertTx)
	h.handle("GET /api/v2/tss/{tss}/tx/{tx}", h.getTx)
	h.handle("GET /api/v2/tss/{tss}/tx", h.listTx)
	h.handle("PUT /api/v2/tss/{tss}/export/{export}", h.putExport) // export.go
	h.handle("GET /api/v2/tss/{tss}/export/{export}", h.getExport)
	h.handle("GET /api/v2/tss/{tss}/export/{export}/file", h.getExportFile)
	h.handle("DELETE /api/v2/tss/{tss}/export/{export}", h.deleteExport)
	h.mux.HandleFunc("/", notFound)
	return h
}

// notFound answers a route the simulator does not serve: an unknown one,
// or a SIGN DE v2 operation it does not implement (export lists, client
// updates, client, transaction and export metadata, ...). fiskaly's error
// codes name no unknown route (there is no E_NOT_FOUND), so the answer is
// the generic error body without a code: status_code, error and message.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]any{
		"status_code": http.StatusNotFound,
		"error":       http.StatusText(http.StatusNotFound),
		"message":     fmt.Sprintf("Route %s:%s not found", r.Method, r.URL.Path),
	})
}

// ServeHTTP applies the injected fault, then answers like fiskaly.
func (h *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("request-id", requestID(r))
	w.Header().Set("Date", h.sim.cfg.Now().UTC().Format(http.TimeFormat))
	if err := h.sim.enter(r.Context()); err != nil {
		var e *tse.Error
		errors.As(err, &e)
		switch e.Code {
		case tse.CodeNetwork:
			dropConnection(w)
		case tse.CodeTimeout:
			// The client gave up while we "worked": nobody to answer.
		default:
			h.fail(w, e)
		}
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	h.mux.ServeHTTP(w, r)
}

// requestID is the request-id the answer carries. fiskaly associates an
// identifier with each request, generated and set by the client (the
// ERS), and answers it in the request-id header; the simulator echoes the
// client's request-id (or X-Request-Id) and makes one when there is none.
func requestID(r *http.Request) string {
	for _, k := range []string{"request-id", "X-Request-Id"} {
		if v := r.Header.Get(k); validRequestID(v) {
			return v
		}
	}
	return tse.NewUUID4()
}

// validRequestID accepts up to 128 visible ASCII characters.
func validRequestID(v string) bool {
	if v == "" || len(v) > 128 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7e {
			return false
		}
	}
	return true
}

// dropConnection closes the TCP connection without an answer, as a
// network outage looks to the client.
// The response controller finds the connection through wrappers that
// implement Unwrap (an access log's status recorder).
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// handle registers a route that needs a bearer token.
func (h *Server) handle(pattern string, fn func(http.ResponseWriter, *http.Request) error) {
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if !h.authorized(r) {
			h.fail(w, tse.NewError(401, "E_UNAUTHORIZED", "missing, invalid or expired access token"))
			return
		}
		err := checkPathParams(r)
		if err == nil {
			err = fn(w, r)
		}
		if err != nil {
			h.fail(w, err)
		}
	})
}

// checkPathParams validates the path as fiskaly's OpenAPI declares it, for
// every operation alike: tss_id and client_id are UUIDs, tx_id_or_number
// a UUID or a transaction number (an integer). A malformed one fails the
// schema validation: 400 E_FAILED_SCHEMA_VALIDATION, before any lookup.
func checkPathParams(r *http.Request) error {
	for _, p := range []struct {
		wildcard, name string
		number         bool
	}{{"tss", "tss_id", false}, {"client", "client_id", false}, {"tx", "tx_id_or_number", true}} {
		v := r.PathValue(p.wildcard)
		if v == "" || tse.ValidUUID(v) || (p.number && isTxNumber(v)) {
			continue
		}
		msg := fmt.Sprintf("params/%s must match format \"uuid\"", p.name)
		if p.number {
			msg += " or be a transaction number"
		}
		return tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", msg)
	}
	return nil
}

// fail writes fiskaly's error body; 429 and 503 carry Retry-After.
func (h *Server) fail(w http.ResponseWriter, err error) {
	var e *tse.Error
	if !errors.As(err, &e) {
		e = &tse.Error{HTTPStatus: 500, Code: "E_INTERNAL", Message: err.Error()}
	}
	if e.HTTPStatus == 0 {
		e = &tse.Error{HTTPStatus: 500, Code: e.Code, Message: e.Message}
	}
	if e.RetryAfter > 0 || e.HTTPStatus == 429 || e.HTTPStatus == 503 {
		secs := int((e.RetryAfter + time.Second - 1) / time.Second)
		if secs < 1 {
			secs = 1
		}
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	writeJSON(w, e.HTTPStatus, map[string]any{
		"status_code": e.HTTPStatus,
		"error":       http.StatusText(e.HTTPStatus),
		"code":        e.Code,
		"message":     e.Message,
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// decodeBody reads a JSON body as fiskaly's validation checks it against
// the operation's schema (jsonerr.go): a value of the wrong type is a
// schema error; a key the schema does not declare is accepted and ignored,
// as JSON Schema allows unless the schema says additionalProperties: false
// (decodeClosedBody). An empty body is an empty object.
func decodeBody(r *http.Request, v any) error {
	return decodeBodyAs(r, v, false)
}

// decodeClosedBody is decodeBody for a schema with additionalProperties:
// false (updateTss): an undeclared key is a schema error too.
func decodeClosedBody(r *http.Request, v any) error {
	return decodeBodyAs(r, v, true)
}

func decodeBodyAs(r *http.Request, v any, closed bool) error {
	b, err := readBody(r)
	if err != nil || len(b) == 0 {
		return err
	}
	if err := decodeJSON(b, v, "body", closed); err != nil {
		return tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", schemaMessage(err))
	}
	return nil
}

// readBody reads a request body (at most 1 MB), blank as empty.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, tse.NewError(413, "E_PAYLOAD_TOO_LARGE", "the body exceeds 1 MB")
		}
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "body: "+err.Error())
	}
	return bytes.TrimSpace(b), nil
}

// ignoreBody reads the body of an operation whose OpenAPI declares none
// (triggerExport): any JSON is accepted and ignored, only JSON that does
// not parse is refused.
func ignoreBody(r *http.Request) error {
	b, err := readBody(r)
	if err == nil && len(b) > 0 && !json.Valid(b) {
		err = tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "body is not valid JSON")
	}
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// --- authentication ---

func (h *Server) auth(w http.ResponseWriter, r *http.Request) {
	var req struct {
		APIKey       string `json:"api_key"`
		APISecret    string `json:"api_secret"`
		RefreshToken string `json:"refresh_token"`
	}
	// authenticateApi refuses undeclared keys, as before: its body is one
	// of two schemas (key and secret, or refresh token), not modelled here.
	if err := decodeClosedBody(r, &req); err != nil {
		h.fail(w, err)
		return
	}
	now := h.sim.cfg.Now()
	h.mu.Lock()
	ok := false
	if req.RefreshToken != "" {
		exp, known := h.refresh[req.RefreshToken]
		ok = known && now.Before(exp)
		delete(h.refresh, req.RefreshToken) // single use
	} else {
		ok = subtle.ConstantTimeCompare([]byte(req.APIKey), []byte(h.apiKey)) == 1 &&
			subtle.ConstantTimeCompare([]byte(req.APISecret), []byte(h.apiSecret)) == 1
	}
	if !ok {
		h.mu.Unlock()
		h.fail(w, tse.NewError(401, "E_UNAUTHORIZED", "invalid credentials or refresh token"))
		return
	}
	access, refresh := randomHex(32), randomHex(32)
	h.access[access] = now.Add(accessTTL)
	h.refresh[refresh] = now.Add(refreshTTL)
	h.mu.Unlock()
	writeJSON(w, 200, map[string]any{
		"access_token":             access,
		"access_token_claims":      map[string]string{"env": simEnv, "organization_id": "00000000-0000-4000-8000-000000000000"},
		"access_token_expires_in":  int64(accessTTL / time.Second),
		"access_token_expires_at":  now.Add(accessTTL).Unix(),
		"refresh_token":            refresh,
		"refresh_token_expires_in": int64(refreshTTL / time.Second),
		"refresh_token_expires_at": now.Add(refreshTTL).Unix(),
	})
}

func (h *Server) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	exp, known := h.access[tok]
	return known && h.sim.cfg.Now().Before(exp)
}

// RevokeTokens forgets every issued token, as if they had expired: the
// next call with an old token answers 401.
func (h *Server) RevokeTokens() {
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.access)
	clear(h.refresh)
}

// --- TSS ---

// withTSS runs fn on a TSS under the simulator's lock.
func (h *Server) withTSS(r *http.Request, fn func(*simTSS) error) error {
	s := h.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return tse.NewTransportError(tse.CodeNetwork, "simulator closed")
	}
	t, err := s.tss(r.PathValue("tss"))
	if err != nil {
		return err
	}
	return fn(t)
}

func (h *Server) tssJSON(t *simTSS, withPUK bool) map[string]any {
	m := map[string]any{
		"_id": t.id, "_type": "TSS", "_env": simEnv, "_version": simAPIVersion,
		"state": t.state, "description": t.description,
		"serial_number": t.serial, "public_key": t.pubB64,
		"certificate":                    base64.StdEncoding.EncodeToString(t.cert),
		"signature_algorithm":            tse.SignatureAlgorithm,
		"signature_timestamp_format":     "unixTime",
		"transaction_data_encoding":      "UTF-8",
		"signature_counter":              strconv.FormatUint(t.counter, 10),
		"transaction_counter":            strconv.FormatUint(t.txCounter, 10),
		"number_registered_clients":      len(t.clients),
		"max_number_registered_clients":  h.sim.cfg.MaxClients,
		"number_active_transactions":     t.active,
		"max_number_active_transactions": h.sim.cfg.MaxActiveTx,
		"supported_update_variants":      "SIGNED",
		"metadata":                       t.metadata,
	}
	for k, v := range t.times {
		m[k] = v
	}
	if withPUK && t.state == tse.TSSCreated {
		m["admin_puk"] = t.puk
	}
	return m
}

func (h *Server) listTSS(w http.ResponseWriter, r *http.Request) error {
	h.sim.mu.Lock()
	data := make([]map[string]any, 0, len(h.sim.order))
	for _, t := range h.sim.order {
		data = append(data, h.tssJSON(t, false))
	}
	h.sim.mu.Unlock()
	writeList(w, "TSS_LIST", data)
	return nil
}

func (h *Server) createTSS(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Metadata map[string]string `json:"metadata"`
	}
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	s := h.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return tse.NewTransportError(tse.CodeNetwork, "simulator closed")
	}
	t, err := s.createTSS(r.PathValue("tss"), req.Metadata, false)
	if err != nil {
		return err
	}
	writeJSON(w, 200, h.tssJSON(t, true))
	return nil
}

func (h *Server) getTSS(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		writeJSON(w, 200, h.tssJSON(t, false))
		return nil
	})
}

func (h *Server) patchTSS(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		State       string            `json:"state"`
		Description *string           `json:"description"`
		Metadata    map[string]string `json:"metadata"`
	}
	// updateTss's schema alone says additionalProperties: false.
	if err := decodeClosedBody(r, &req); err != nil {
		return err
	}
	if err := checkMetadata("body/metadata", req.Metadata); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		if req.Description != nil {
			if t.state != tse.TSSUninitialized || req.State != tse.TSSInitialized {
				return tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "description can only be set when initializing the TSS")
			}
		}
		if req.State != "" {
			if err := h.sim.setState(t, req.State, false); err != nil {
				return err
			}
		}
		if req.Description != nil {
			if err := h.sim.setDescription(t, *req.Description); err != nil {
				return err
			}
		}
		if err := h.sim.setTSSMetadata(t, req.Metadata); err != nil {
			return err
		}
		writeJSON(w, 200, h.tssJSON(t, false))
		return nil
	})
}

// emptyObject is the answer of the admin operations: fiskaly's OpenAPI
// declares a JSON object without properties for changeAdminPin,
// authenticateAdmin and logoutAdmin.
var emptyObject = struct{}{}

func (h *Server) changeAdminPIN(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		AdminPUK    string `json:"admin_puk"`
		NewAdminPIN string `json:"new_admin_pin"`
	}
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		if err := h.sim.changeAdminPIN(t, req.AdminPUK, req.NewAdminPIN); err != nil {
			return err
		}
		writeJSON(w, 200, emptyObject) // "Admin PIN has been changed."
		return nil
	})
}

func (h *Server) adminAuth(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		AdminPIN string `json:"admin_pin"`
	}
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		if err := h.sim.adminAuth(t, req.AdminPIN); err != nil {
			return err
		}
		writeJSON(w, 200, emptyObject) // "Successful authentication"
		return nil
	})
}

func (h *Server) adminLogout(w http.ResponseWriter, r *http.Request) error {
	var req struct{}
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		if err := h.sim.adminLogout(t); err != nil {
			return err
		}
		writeJSON(w, 200, emptyObject) // "Successful Admin session logout"
		return nil
	})
}

// --- clients ---

func clientJSON(c *simClient) map[string]any {
	return map[string]any{
		"_id": c.id, "_type": "CLIENT", "_env": simEnv, "_version": simAPIVersion,
		"serial_number": c.serial, "state": c.state, "tss_id": c.tss,
		"time_creation": c.created, "time_update": c.updated, "metadata": c.metadata,
	}
}

func (h *Server) putClient(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		SerialNumber string            `json:"serial_number"`
		Metadata     map[string]string `json:"metadata"`
	}
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		c, err := h.sim.upsertClient(t, r.PathValue("client"), req.SerialNumber, req.Metadata, false)
		if err != nil {
			return err
		}
		writeJSON(w, 200, clientJSON(c))
		return nil
	})
}

func (h *Server) getClient(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		c := h.sim.findClient(strings.ToLower(r.PathValue("client")))
		if c == nil || c.tss != t.id {
			return tse.NewError(404, "E_CLIENT_NOT_FOUND", fmt.Sprintf("client %s not found", r.PathValue("client")))
		}
		writeJSON(w, 200, clientJSON(c))
		return nil
	})
}

// --- transactions ---

// txJSON is a transaction revision as fiskaly answers it. Its schema shows
// standard_v1 as the client sent it (defaults filled in) and raw with the
// processType and processData (base64) the TSE signed.
func txJSON(v revView, metadata map[string]string) map[string]any {
	tx := v.Tx
	m := map[string]any{
		"_id": tx.ID, "_type": "TRANSACTION", "_env": simEnv, "_version": simAPIVersion,
		"tss_id": tx.TSSID, "tss_serial_number": tx.TSSSerialNumber,
		"client_id": tx.ClientID, "client_serial_number": tx.ClientSerialNumber,
		"number": tx.Number, "state": tx.State,
		"revision": tx.Revision, "latest_revision": tx.LatestRevision,
		"time_start": tx.TimeStart.Unix(),
		"log":        map[string]any{"operation": tx.LogOperation, "timestamp": tx.LogTime.Unix(), "timestamp_format": "unixTime"},
		"signature": map[string]any{
			"value": tx.Signature.Value, "algorithm": tx.Signature.Algorithm,
			// fiskaly documents a string but sends a number (known issue).
			"counter":    tx.Signature.Counter,
			"public_key": tx.Signature.PublicKey,
		},
		"metadata": orEmpty(metadata),
	}
	schema := map[string]any{}
	if len(v.stdV1) > 0 {
		schema["standard_v1"] = v.stdV1
	}
	if tx.ProcessType != "" || tx.ProcessData != "" {
		schema["raw"] = map[string]string{
			"process_type": tx.ProcessType,
			"process_data": base64.StdEncoding.EncodeToString([]byte(tx.ProcessData)),
		}
	}
	if len(schema) > 0 {
		m["schema"] = schema
	}
	if tx.TimeEnd != nil {
		m["time_end"] = tx.TimeEnd.Unix()
	}
	if tx.QRCodeData != "" {
		m["qr_code_data"] = tx.QRCodeData
	}
	return m
}

// revisionParam reads the tx_revision query parameter: 0 when absent.
// fiskaly's OpenAPI declares it optional, an integer of at least 1.
func revisionParam(r *http.Request) (int, error) {
	q := r.URL.Query()
	if !q.Has("tx_revision") {
		return 0, nil
	}
	n, err := strconv.Atoi(q.Get("tx_revision"))
	if err != nil || n < 1 {
		return 0, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "querystring/tx_revision must be an integer >= 1")
	}
	return n, nil
}

func (h *Server) upsertTx(w http.ResponseWriter, r *http.Request) error {
	rev, err := revisionParam(r)
	if err != nil {
		return err
	}
	if rev == 0 {
		// The schema lets tx_revision out and gives it no default, but
		// upsertTransaction's description says the query string must
		// include it: the upsert is refused with the operation's own 400
		// code, not as a schema violation.
		return tse.NewError(400, "E_TX_UPSERT", "the query string must include tx_revision: 1 starts the transaction, each later call adds 1")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return tse.NewError(413, "E_PAYLOAD_TOO_LARGE", "the body exceeds 1 MB")
	}
	var out map[string]any
	err = h.withTSS(r, func(t *simTSS) error {
		v, err := h.sim.upsertTx(t, r.PathValue("tx"), rev, body)
		if err != nil {
			return err
		}
		out = txJSON(v, t.txs[v.ID].metadata)
		return nil
	})
	if err != nil {
		return err
	}
	if h.sim.takeApplyThenTimeout() {
		// Applied; the answer never comes. Hang until the client gives up.
		select {
		case <-r.Context().Done():
		case <-time.After(hangLimit):
		}
		dropConnection(w)
		return nil
	}
	writeJSON(w, 200, out)
	return nil
}

func (h *Server) getTx(w http.ResponseWriter, r *http.Request) error {
	rev, err := revisionParam(r)
	if err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		v, st, err := h.sim.getTx(t, r.PathValue("tx"), rev)
		if err != nil {
			return err
		}
		writeJSON(w, 200, txJSON(v, st.metadata))
		return nil
	})
}

func (h *Server) listTx(w http.ResponseWriter, r *http.Request) error {
	q, err := txListQuery(r)
	if err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		views, err := h.sim.listTxViews(t, q)
		if err != nil {
			return err
		}
		writeTxList(w, t, views)
		return nil
	})
}

// txListQuery reads listTransactions' query parameters.
func txListQuery(r *http.Request) (tse.ListQuery, error) {
	qv := r.URL.Query()
	q := tse.ListQuery{OrderBy: qv.Get("order_by"), Order: qv.Get("order")}
	for k, vs := range qv {
		if k == "states" || k == "states[]" || strings.HasPrefix(k, "states[") {
			q.States = append(q.States, vs...)
		}
	}
	for name, dst := range map[string]*int{"limit": &q.Limit, "offset": &q.Offset} {
		if v := qv.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return q, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", name+" must be an integer")
			}
			*dst = n
		}
	}
	return q, nil
}

// writeTxList answers fiskaly's list envelope of transactions.
func writeTxList(w http.ResponseWriter, t *simTSS, views []revView) {
	data := make([]map[string]any, len(views))
	for i, v := range views {
		data[i] = txJSON(v, t.txs[v.ID].metadata)
	}
	writeList(w, "TRANSACTION_LIST", data)
}

// writeList answers fiskaly's list envelope: the page's items, their
// count and the list's type.
func writeList(w http.ResponseWriter, typ string, data []map[string]any) {
	writeJSON(w, 200, map[string]any{"data": data, "count": len(data), "_type": typ, "_env": simEnv, "_version": simAPIVersion})
}

// orEmpty shows a missing metadata map as {} as fiskaly does.
func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
