package tsesim

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"posbox/tse"
	"posbox/tse/tsetar"
)

// The simulator's exports (fiskaly SIGN DE v2 "exports", docs/TSE.md "TAR
// exports"): an export is triggered with a client-chosen id and filters,
// stays PENDING and then WORKING for Config.ExportDelay, and then holds
// a TR-03151 TAR built from the journal's log messages (logs.go).
// Every state change is journalled, so an export started before a
// restart completes after it. Exports advance when they are looked at;
// nothing runs in the background.

const (
	simMaxRunningExports = 10 // PENDING or WORKING per TSS
	simExportPollsPerMin = 12 // retrieveExport and retrieveExportFile per export id
	simExportKeep        = 24 * time.Hour
	simExportDelay       = 10 * time.Second
	simExportsDir        = "exports"
)

// ExportFault damages the TARs of exports triggered after SetExportFault,
// so that tests can check a verifier catches it.
type ExportFault struct {
	// Drop leaves out the log message with this signature counter (a gap).
	Drop uint64
	// Tamper flips a bit in the signature of the log message with this
	// signature counter.
	Tamper uint64
}

// SetExportFault sets the fault for exports triggered from now on; the
// zero ExportFault heals. Exports keep the fault they were triggered with,
// across restarts.
func (s *Simulator) SetExportFault(f ExportFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exportFault = f
}

// simExportFilter is an export's filter as the journal keeps it.
type simExportFilter struct {
	StartCounter  uint64 `json:"start_signature_counter,omitempty"`
	EndCounter    uint64 `json:"end_signature_counter,omitempty"`
	StartDate     int64  `json:"start_date,omitempty"`
	EndDate       int64  `json:"end_date,omitempty"`
	TxNumber      uint64 `json:"transaction_number,omitempty"`
	StartTxNumber uint64 `json:"start_transaction_number,omitempty"`
	EndTxNumber   uint64 `json:"end_transaction_number,omitempty"`
	ClientID      string `json:"client_id,omitempty"`
	MaxRecords    int64  `json:"maximum_number_records,omitempty"`
}

// simExportRec is one state change of an export in the journal.
type simExportRec struct {
	ID        string           `json:"id"`
	State     string           `json:"state"`
	Exception string           `json:"exception,omitempty"`
	Filter    *simExportFilter `json:"filter,omitempty"` // on creation
	Fault     *ExportFault     `json:"fault,omitempty"`  // on creation
	Size      int64            `json:"size,omitempty"`   // on completion
	SHA256    string           `json:"sha256,omitempty"`
}

type simExport struct {
	id, state, exception      string
	filter                    simExportFilter
	fault                     ExportFault
	requested, started, ended int64 // unix s
	size                      int64
	sha256                    string
	polls                     []time.Time // not persisted
}

func (s *Simulator) applyExport(t *simTSS, rec record) error {
	x := rec.Export
	if x == nil {
		return fmt.Errorf("export record without export")
	}
	e := t.exports[x.ID]
	if e == nil {
		if x.State != tse.ExportPending || x.Filter == nil {
			return fmt.Errorf("export %s: first record is %s", x.ID, x.State)
		}
		e = &simExport{id: x.ID, state: tse.ExportPending, filter: *x.Filter, requested: rec.Time}
		if x.Fault != nil {
			e.fault = *x.Fault
		}
		t.exports[x.ID] = e
		t.exportOrder = append(t.exportOrder, e)
		return nil
	}
	e.state, e.exception = x.State, x.Exception
	switch x.State {
	case tse.ExportWorking:
		e.started = rec.Time
	case tse.ExportCompleted:
		e.ended, e.size, e.sha256 = rec.Time, x.Size, x.SHA256
	case tse.ExportError, tse.ExportCancelled:
		e.ended = rec.Time
	}
	return nil
}

func (s *Simulator) exportDelay() time.Duration {
	switch d := s.cfg.ExportDelay; {
	case d < 0:
		return 0
	case d == 0:
		return simExportDelay
	default:
		return d
	}
}

func (e *simExport) running() bool {
	return e.state == tse.ExportPending || e.state == tse.ExportWorking
}

// estimated is when a running export will be done.
func (s *Simulator) estimated(e *simExport) time.Time {
	return time.Unix(e.requested, 0).Add(s.exportDelay())
}

// startExport is triggerExport.
func (s *Simulator) startExport(t *simTSS, id string, f simExportFilter) (*simExport, error) {
	if !tse.ValidUUID(id) {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "params/export_id must match format \"uuid\"")
	}
	id = strings.ToLower(id)
	if e := t.exports[id]; e != nil {
		if err := s.advanceExport(t, e); err != nil {
			return nil, err
		}
		return e, nil
	}
	if t.state != tse.TSSInitialized && t.state != tse.TSSDisabled {
		return nil, tse.NewError(409, "E_TSS_ILLEGAL_STATE_TO_PERFORM_EXPORT", "only an INITIALIZED or DISABLED TSS can export; it is "+t.state)
	}
	if f.MaxRecords > tse.MaxExportRecords {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", fmt.Sprintf("maximum_number_records is at most %d", tse.MaxExportRecords))
	}
	running := 0
	for _, e := range t.exportOrder {
		if err := s.advanceExport(t, e); err != nil {
			return nil, err
		}
		if !e.running() {
			continue
		}
		running++
		if e.filter == f {
			return nil, tse.NewError(409, tse.CodeExportDuplicate, fmt.Sprintf("export %s with the same filters is still %s", e.id, e.state))
		}
	}
	if running >= simMaxRunningExports {
		return nil, tse.NewError(409, tse.CodeTooManyExports, fmt.Sprintf("%d exports of this TSS are PENDING or WORKING", running))
	}
	rec := record{Op: opExport, TSS: t.id, Time: s.now().Unix(),
		Export: &simExportRec{ID: id, State: tse.ExportPending, Filter: &f}}
	if s.exportFault != (ExportFault{}) {
		fault := s.exportFault
		rec.Export.Fault = &fault
	}
	if err := s.commit(rec); err != nil {
		return nil, err
	}
	return t.exports[id], nil
}

// advanceExport moves an export on as time has passed: PENDING for the
// first third of the delay, then WORKING, then the TAR is built.
func (s *Simulator) advanceExport(t *simTSS, e *simExport) error {
	now := s.now()
	delay := s.exportDelay()
	if e.state == tse.ExportPending && !now.Before(time.Unix(e.requested, 0).Add(delay/3)) {
		if err := s.commit(record{Op: opExport, TSS: t.id, Time: now.Unix(), Export: &simExportRec{ID: e.id, State: tse.ExportWorking}}); err != nil {
			return err
		}
	}
	if e.state != tse.ExportWorking || now.Before(s.estimated(e)) {
		return nil
	}
	size, sum, exception, err := s.buildExport(t, e)
	if err != nil {
		return &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: "export: " + err.Error()}
	}
	x := &simExportRec{ID: e.id, State: tse.ExportCompleted, Size: size, SHA256: sum}
	if exception != "" {
		x = &simExportRec{ID: e.id, State: tse.ExportError, Exception: exception}
	}
	return s.commit(record{Op: opExport, TSS: t.id, Time: now.Unix(), Export: x})
}

func (s *Simulator) exportPath(t *simTSS, id string) string {
	return filepath.Join(s.cfg.Dir, simExportsDir, t.id+"-"+id+".tar")
}

// exportMessages lists the log messages an export holds, in counter
// order, or the exception that ends it in ERROR.
func (s *Simulator) exportMessages(t *simTSS, f simExportFilter) ([]*tsetar.LogMessage, string, error) {
	lo, hi := f.StartCounter, f.EndCounter
	if hi == 0 {
		hi = t.counter
	}
	first, _ := slices.BinarySearchFunc(t.logs, lo, func(r logRef, c uint64) int { return cmp.Compare(r.counter, c) })
	txFilter := f.ClientID != "" || f.TxNumber != 0 || f.StartTxNumber != 0 || f.EndTxNumber != 0
	var client *simClient
	if f.ClientID != "" {
		if client = s.findClient(f.ClientID); client == nil || client.tss != t.id {
			return nil, "E_NO_DATA_AVAILABLE", nil
		}
	}
	max := f.MaxRecords
	if max == 0 {
		max = tse.MaxExportRecords
	}
	var out []*tsetar.LogMessage
	for _, ref := range t.logs[first:] {
		if ref.counter > hi {
			break
		}
		rec, err := s.j.read(ref.off, int(ref.n))
		if err != nil {
			return nil, "", err
		}
		if (f.StartDate != 0 && rec.Time < f.StartDate) || (f.EndDate != 0 && rec.Time > f.EndDate) {
			continue
		}
		if txFilter {
			if rec.Op != opTx || rec.Tx == nil {
				continue
			}
			n := rec.Tx.Number
			if (client != nil && rec.Tx.ClientID != client.id) || (f.TxNumber != 0 && n != f.TxNumber) ||
				(f.StartTxNumber != 0 && n < f.StartTxNumber) || (f.EndTxNumber != 0 && n > f.EndTxNumber) {
				continue
			}
		}
		if int64(len(out)) >= max {
			return nil, "E_TOO_MANY_RECORDS", nil
		}
		m, err := logMessageOf(t, rec)
		if err != nil {
			return nil, "", err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, "E_NO_DATA_AVAILABLE", nil
	}
	return out, "", nil
}

// buildExport writes the export's TAR (0600, synced, renamed into place)
// and returns its size and SHA-256, or the exception that ends it.
func (s *Simulator) buildExport(t *simTSS, e *simExport) (int64, string, string, error) {
	msgs, exception, err := s.exportMessages(t, e.filter)
	if err != nil || exception != "" {
		return 0, "", exception, err
	}
	dir := filepath.Join(s.cfg.Dir, simExportsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, "", "", err
	}
	path := s.exportPath(t, e.id)
	f, err := os.OpenFile(path+".tmp", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, "", "", err
	}
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	tw := tsetar.NewWriter(cw, s.now())
	err = tw.WriteInfo(t.description, "posbox simulator", "posbox-sim TR-03151 export 1")
	if err == nil {
		err = tw.WriteCertificate(t.cert)
	}
	if err == nil && t.caCert != nil {
		err = tw.WriteCertificate(t.caCert)
	}
	for _, m := range msgs {
		if err != nil {
			break
		}
		switch m.SignatureCounter {
		case e.fault.Drop:
			continue
		case e.fault.Tamper:
			m.SignatureValue = slices.Clone(m.SignatureValue)
			m.SignatureValue[len(m.SignatureValue)-1] ^= 1
		}
		_, err = tw.WriteLogMessage(m)
	}
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(path+".tmp", path)
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return 0, "", "", err
	}
	return cw.n, hex.EncodeToString(h.Sum(nil)), "", nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// pollExport counts one retrieveExport or retrieveExportFile: fiskaly
// allows 12 a minute per export id and answers 429 beyond.
func (s *Simulator) pollExport(e *simExport) error {
	now := s.cfg.Now()
	for len(e.polls) > 0 && now.Sub(e.polls[0]) >= time.Minute {
		e.polls = e.polls[1:]
	}
	if len(e.polls) >= simExportPollsPerMin {
		return retryAfterError(429, "E_TOO_MANY_REQUESTS",
			fmt.Sprintf("export %s: at most %d requests a minute", e.id, simExportPollsPerMin), e.polls[0].Add(time.Minute).Sub(now))
	}
	e.polls = append(e.polls, now)
	return nil
}

// lookupExport is retrieveExport: the export, moved on, counted against
// the poll limit.
func (s *Simulator) lookupExport(t *simTSS, id string) (*simExport, error) {
	e := t.exports[strings.ToLower(id)]
	if e == nil {
		return nil, tse.NewError(404, tse.CodeExportNotFound, fmt.Sprintf("export %s not found", id))
	}
	if err := s.pollExport(e); err != nil {
		return nil, err
	}
	return e, s.advanceExport(t, e)
}

// exportFile opens a COMPLETED export's TAR; before that fiskaly answers
// 404 E_EXPORT_NOT_COMPLETED with Retry-After: 60.
func (s *Simulator) exportFile(t *simTSS, id string) (*os.File, int64, error) {
	e, err := s.lookupExport(t, id)
	if err != nil {
		return nil, 0, err
	}
	switch e.state {
	case tse.ExportCompleted:
	case tse.ExportPending, tse.ExportWorking:
		return nil, 0, retryAfterError(404, tse.CodeExportNotCompleted, fmt.Sprintf("export %s is %s", e.id, e.state), time.Minute)
	default:
		return nil, 0, tse.NewError(404, tse.CodeExportNotFound, fmt.Sprintf("export %s is %s: it has no file", e.id, e.state))
	}
	f, err := os.Open(s.exportPath(t, e.id))
	if err != nil {
		return nil, 0, &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: "export file: " + err.Error()}
	}
	return f, e.size, nil
}

// cancelExport is cancelExport: only PENDING or WORKING exports.
func (s *Simulator) cancelExport(t *simTSS, id string) (*simExport, error) {
	e := t.exports[strings.ToLower(id)]
	if e == nil {
		return nil, tse.NewError(404, tse.CodeExportNotFound, fmt.Sprintf("export %s not found", id))
	}
	if err := s.advanceExport(t, e); err != nil {
		return nil, err
	}
	if !e.running() {
		return nil, tse.NewError(400, "E_CANCEL_EXPORT", fmt.Sprintf("export %s is %s: only PENDING or WORKING exports can be cancelled", e.id, e.state))
	}
	err := s.commit(record{Op: opExport, TSS: t.id, Time: s.now().Unix(), Export: &simExportRec{ID: e.id, State: tse.ExportCancelled}})
	return e, err
}

// exportView is an export as the Exporter interface describes it.
func (s *Simulator) exportView(e *simExport) tse.Export {
	x := tse.Export{ID: e.id, State: e.state, Exception: e.exception, Requested: unixOrZero(e.requested),
		Started: unixOrZero(e.started), Ended: unixOrZero(e.ended)}
	if e.state == tse.ExportCompleted {
		x.Expires = x.Ended.Add(simExportKeep)
	}
	if e.running() {
		x.EstimatedCompletion = s.estimated(e)
		x.RetryAfter = s.retryAfter(e)
	}
	return x
}

// retryAfter is the wait the simulator suggests to a poller: until the
// estimated completion, between 5 s (12 polls a minute) and 60 s.
func (s *Simulator) retryAfter(e *simExport) time.Duration {
	d := s.estimated(e).Sub(s.now())
	return min(max(d, 5*time.Second), time.Minute).Round(time.Second)
}

func (s *Simulator) exportJSON(t *simTSS, e *simExport) map[string]any {
	v := s.exportView(e)
	m := map[string]any{"_id": e.id, "_type": "EXPORT", "_env": simEnv, "_version": simAPIVersion,
		"tss_id": t.id, "state": e.state, "time_request": e.requested, "metadata": map[string]string{}}
	if e.exception != "" {
		m["exception"] = e.exception
	}
	if e.started != 0 {
		m["time_start"] = e.started
	}
	switch e.state {
	case tse.ExportCompleted, tse.ExportCancelled:
		m["time_end"] = e.ended
	case tse.ExportError:
		m["time_error"] = e.ended
	}
	if !v.Expires.IsZero() {
		m["time_expiration"] = v.Expires.Unix()
	}
	if !v.EstimatedCompletion.IsZero() {
		m["estimated_time_of_completion"] = v.EstimatedCompletion.Unix()
	}
	return m
}

// --- HTTP (registered in server.go) ---

// exportFilterQuery reads triggerExport's query: numbers as decimal
// strings, dates as unix seconds; client_id excludes the rest.
func exportFilterQuery(r *http.Request) (simExportFilter, error) {
	q := r.URL.Query()
	var f simExportFilter
	if c := q.Get("client_id"); c != "" {
		if !tse.ValidUUID(c) {
			return f, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "querystring/client_id must match format \"uuid\"")
		}
		return simExportFilter{ClientID: strings.ToLower(c)}, nil
	}
	for name, dst := range map[string]*uint64{
		"start_signature_counter": &f.StartCounter, "end_signature_counter": &f.EndCounter,
		"transaction_number": &f.TxNumber, "start_transaction_number": &f.StartTxNumber, "end_transaction_number": &f.EndTxNumber,
	} {
		if v := q.Get(name); v != "" {
			n, err := strconv.ParseUint(v, 10, 63)
			if err != nil {
				return f, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "querystring/"+name+" must be a non-negative integer string")
			}
			*dst = n
		}
	}
	for name, dst := range map[string]*int64{"start_date": &f.StartDate, "end_date": &f.EndDate, "maximum_number_records": &f.MaxRecords} {
		if v := q.Get(name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return f, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "querystring/"+name+" must be a non-negative integer string")
			}
			*dst = n
		}
	}
	if f.EndCounter != 0 && f.StartCounter > f.EndCounter {
		return f, tse.NewError(400, "E_PARAMETER_MISMATCH", "start_signature_counter is after end_signature_counter")
	}
	return f, nil
}

func (h *Server) putExport(w http.ResponseWriter, r *http.Request) error {
	// triggerExport declares no body (its filters are the query).
	if err := ignoreBody(r); err != nil {
		return err
	}
	f, err := exportFilterQuery(r)
	if err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		e, err := h.sim.startExport(t, r.PathValue("export"), f)
		if err != nil {
			return err
		}
		writeJSON(w, 200, h.sim.exportJSON(t, e))
		return nil
	})
}

func (h *Server) getExport(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		e, err := h.sim.lookupExport(t, r.PathValue("export"))
		if err != nil {
			return err
		}
		if e.running() {
			w.Header().Set("Retry-After", strconv.Itoa(int(h.sim.retryAfter(e)/time.Second)))
		}
		writeJSON(w, 200, h.sim.exportJSON(t, e))
		return nil
	})
}

func (h *Server) getExportFile(w http.ResponseWriter, r *http.Request) error {
	var f *os.File
	var size int64
	err := h.withTSS(r, func(t *simTSS) (err error) {
		f, size, err = h.sim.exportFile(t, r.PathValue("export"))
		return err
	})
	if err != nil {
		return err
	}
	defer f.Close()
	// Streamed outside the simulator's lock: a big TAR does not stop
	// signing.
	w.Header().Set("Content-Type", "application/x-tar")
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(200)
	io.Copy(w, f)
	return nil
}

func (h *Server) deleteExport(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		e, err := h.sim.cancelExport(t, r.PathValue("export"))
		if err != nil {
			return err
		}
		writeJSON(w, 200, h.sim.exportJSON(t, e))
		return nil
	})
}

// --- in-process Exporter (the default TSS) ---

var _ tse.Exporter = (*Simulator)(nil)

// StartExport triggers an export of the default TSS.
func (s *Simulator) StartExport(ctx context.Context, exportID string, f tse.ExportFilter) (tse.Export, error) {
	if f.StartSignatureCounter < 0 || f.EndSignatureCounter < 0 || f.MaximumRecords < 0 {
		return tse.Export{}, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "negative export filter")
	}
	flt := simExportFilter{StartCounter: uint64(f.StartSignatureCounter), EndCounter: uint64(f.EndSignatureCounter),
		MaxRecords: f.MaximumRecords}
	if !f.StartDate.IsZero() {
		flt.StartDate = f.StartDate.Unix()
	}
	if !f.EndDate.IsZero() {
		flt.EndDate = f.EndDate.Unix()
	}
	if flt.EndCounter != 0 && flt.StartCounter > flt.EndCounter {
		return tse.Export{}, tse.NewError(400, "E_PARAMETER_MISMATCH", "start_signature_counter is after end_signature_counter")
	}
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.Export, error) {
		e, err := s.startExport(t, exportID, flt)
		if err != nil {
			return tse.Export{}, err
		}
		return s.exportView(e), nil
	})
}

// Export reads an export of the default TSS.
func (s *Simulator) Export(ctx context.Context, exportID string) (tse.Export, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.Export, error) {
		e, err := s.lookupExport(t, exportID)
		if err != nil {
			return tse.Export{}, err
		}
		return s.exportView(e), nil
	})
}

// DownloadExport copies a COMPLETED export's TAR to w.
func (s *Simulator) DownloadExport(ctx context.Context, exportID string, w io.Writer) (int64, error) {
	f, err := onDefaultTSS(ctx, s, func(t *simTSS) (*os.File, error) {
		f, _, err := s.exportFile(t, exportID)
		return f, err
	})
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return io.Copy(w, f)
}

// CancelExport cancels a PENDING or WORKING export of the default TSS.
func (s *Simulator) CancelExport(ctx context.Context, exportID string) error {
	_, err := onDefaultTSS(ctx, s, func(t *simTSS) (*simExport, error) {
		return s.cancelExport(t, exportID)
	})
	return err
}

// unixOrZero reads a stored unix time; 0 is no time (as the wire shows it).
func unixOrZero(s int64) time.Time {
	if s <= 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}
