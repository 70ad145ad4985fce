package tse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"posbox/internal/retryafter"
)

// fiskaly SIGN DE v2 exports (docs/TSE.md, "TAR exports"): PUT triggers
// with query filters and body {}, GET polls, GET …/file streams the TAR,
// DELETE cancels.

var _ Exporter = (*Fiskaly)(nil)

const (
	// exportPollsPerMinute is fiskaly's limit on retrieveExport and
	// retrieveExportFile per export id.
	exportPollsPerMinute = 12
	// exportFileTimeout bounds one download; a million records are a
	// few hundred MB.
	exportFileTimeout = 30 * time.Minute
)

// exportWire is fiskaly's export object. Times are unix seconds.
type exportWire struct {
	ID                  string `json:"_id"`
	TSSID               string `json:"tss_id"`
	State               string `json:"state"`
	Exception           string `json:"exception"`
	TimeRequest         int64  `json:"time_request"`
	TimeStart           int64  `json:"time_start"`
	TimeEnd             int64  `json:"time_end"`
	TimeExpiration      int64  `json:"time_expiration"`
	TimeError           int64  `json:"time_error"`
	EstimatedCompletion int64  `json:"estimated_time_of_completion"`
}

func unixOrZero(s int64) time.Time {
	if s <= 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func (w exportWire) export(h http.Header, now time.Time) Export {
	e := Export{ID: w.ID, State: w.State, Exception: w.Exception,
		Requested: unixOrZero(w.TimeRequest), Started: unixOrZero(w.TimeStart),
		Ended: unixOrZero(w.TimeEnd), Expires: unixOrZero(w.TimeExpiration),
		EstimatedCompletion: unixOrZero(w.EstimatedCompletion)}
	if e.Ended.IsZero() {
		e.Ended = unixOrZero(w.TimeError)
	}
	if h != nil {
		e.RetryAfter = retryafter.Parse(h.Get("Retry-After"), now)
	}
	return e
}

// exportQuery is an ExportFilter as fiskaly's query parameters; numbers
// go as strings, dates as unix seconds.
func exportQuery(f ExportFilter) (url.Values, error) {
	v := url.Values{}
	if f.StartSignatureCounter < 0 || f.EndSignatureCounter < 0 || f.MaximumRecords < 0 {
		return nil, errors.New("negative export filter")
	}
	if f.EndSignatureCounter > 0 && f.StartSignatureCounter > f.EndSignatureCounter {
		return nil, fmt.Errorf("signature counters %d-%d are reversed", f.StartSignatureCounter, f.EndSignatureCounter)
	}
	if f.MaximumRecords > MaxExportRecords {
		return nil, fmt.Errorf("at most %d records per export", MaxExportRecords)
	}
	if f.StartSignatureCounter > 0 {
		v.Set("start_signature_counter", strconv.FormatInt(f.StartSignatureCounter, 10))
	}
	if f.EndSignatureCounter > 0 {
		v.Set("end_signature_counter", strconv.FormatInt(f.EndSignatureCounter, 10))
	}
	if !f.StartDate.IsZero() {
		v.Set("start_date", strconv.FormatInt(f.StartDate.Unix(), 10))
	}
	if !f.EndDate.IsZero() {
		v.Set("end_date", strconv.FormatInt(f.EndDate.Unix(), 10))
	}
	if f.MaximumRecords > 0 {
		v.Set("maximum_number_records", strconv.FormatInt(f.MaximumRecords, 10))
	}
	return v, nil
}

func (f *Fiskaly) exportPath(exportID string) string {
	return tssPath(f.cfg.TSSID) + "/export/" + url.PathEscape(exportID)
}

// StartExport triggers an export. A PUT of an id fiskaly already knows
// is answered by reading that export, so a restart can resume it.
func (f *Fiskaly) StartExport(ctx context.Context, exportID string, flt ExportFilter) (Export, error) {
	if !ValidUUID(exportID) {
		return Export{}, &Error{Class: TxPermanent, Code: "E_REQUEST", Message: "export id must be a UUID"}
	}
	q, err := exportQuery(flt)
	if err != nil {
		return Export{}, &Error{Class: TxPermanent, Code: "E_REQUEST", Message: err.Error()}
	}
	path := f.exportPath(exportID)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var w exportWire
	h, err := f.call(ctx, http.MethodPut, path, []byte("{}"), f.cfg.ReadTimeout, &w)
	if CodeOf(err) == "E_DUPLICATE_EXPORT" {
		return f.Export(ctx, exportID)
	}
	if err != nil {
		return Export{}, err
	}
	return w.export(h, f.cfg.Now()), nil
}

// Export reads an export's state; at most 12 a minute per export id
// (counted with DownloadExport), beyond that CodeExportPollLimit comes
// back without a request.
func (f *Fiskaly) Export(ctx context.Context, exportID string) (Export, error) {
	if err := f.polls.take(exportID, f.cfg.Now()); err != nil {
		return Export{}, err
	}
	var w exportWire
	h, err := f.call(ctx, http.MethodGet, f.exportPath(exportID), nil, f.cfg.ReadTimeout, &w)
	if err != nil {
		return Export{}, err
	}
	return w.export(h, f.cfg.Now()), nil
}

// CancelExport cancels a PENDING or WORKING export.
func (f *Fiskaly) CancelExport(ctx context.Context, exportID string) error {
	_, err := f.call(ctx, http.MethodDelete, f.exportPath(exportID), nil, f.cfg.ReadTimeout, nil)
	return err
}

// DownloadExport streams a COMPLETED export's TAR to w. Before it is
// completed fiskaly answers 404 CodeExportNotCompleted with Retry-After.
// Nothing is written to w unless the answer is 200.
func (f *Fiskaly) DownloadExport(ctx context.Context, exportID string, w io.Writer) (int64, error) {
	if err := f.polls.take(exportID, f.cfg.Now()); err != nil {
		return 0, err
	}
	path := f.exportPath(exportID) + "/file"
	tok, err := f.token(ctx, "")
	if err != nil {
		return 0, err
	}
	n, err := f.stream(ctx, path, tok, w)
	if tokenRefused(err) {
		if tok, err = f.token(ctx, tok); err != nil {
			return 0, err
		}
		return f.stream(ctx, path, tok, w)
	}
	return n, err
}

// stream is send for a download: the body goes to w as it arrives.
func (f *Fiskaly) stream(ctx context.Context, path, token string, w io.Writer) (int64, error) {
	sentID := NewUUID4()
	ctx, cancel := context.WithTimeout(ctx, exportFileTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+path, nil)
	if err != nil {
		return 0, &Error{Class: TxPermanent, Code: "E_REQUEST", Message: err.Error()}
	}
	req.Header.Set("Accept", "application/x-tar")
	req.Header.Set("request-id", sentID)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := f.hc.Do(req)
	if err != nil {
		e := NewTransportError(CodeNetwork, err.Error())
		var ne net.Error
		if ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout()) {
			e.Code = CodeTimeout
		}
		e.RequestID = sentID
		f.log.Warn("fiskaly unreachable", "method", "GET", "path", path, "code", e.Code, "err", err, "sent_request_id", sentID)
		return 0, e
	}
	defer resp.Body.Close()
	reqID := orDefault(resp.Header.Get("request-id"), sentID)
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := f.refusal(resp, data, reqID)
		f.log.Info("fiskaly export file not given", "path", path, "status", resp.StatusCode, "code", e.Code,
			"retry_after", e.RetryAfter, "request_id", reqID)
		return 0, e
	}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		code := CodeNetwork
		if ctx.Err() != nil {
			code = CodeTimeout
		}
		e := NewTransportError(code, fmt.Sprintf("export file broke off after %d bytes: %v", n, err))
		e.RequestID = reqID
		return n, e
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		e := NewTransportError(CodeNetwork, fmt.Sprintf("export file is %d bytes, the answer announced %d", n, resp.ContentLength))
		e.RequestID = reqID
		return n, e
	}
	return n, nil
}

// exportPolls keeps fiskaly's limit of 12 state or file requests a
// minute per export id on the client side.
type exportPolls struct {
	mu    sync.Mutex
	calls map[string][]time.Time
}

// take records a request for id now, or refuses it with the time until
// the oldest of the last twelve leaves the minute.
func (p *exportPolls) take(id string, now time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls == nil {
		p.calls = map[string][]time.Time{}
	}
	for k, ts := range p.calls { // forget ids not polled for a minute
		if len(ts) > 0 && now.Sub(ts[len(ts)-1]) >= time.Minute {
			delete(p.calls, k)
		}
	}
	ts := p.calls[id]
	for len(ts) > 0 && now.Sub(ts[0]) >= time.Minute {
		ts = ts[1:]
	}
	if len(ts) >= exportPollsPerMinute {
		wait := ts[0].Add(time.Minute).Sub(now)
		e := &Error{Class: RateLimited, Code: CodeExportPollLimit, RetryAfter: wait,
			Message: fmt.Sprintf("export %s: %d requests in the last minute (fiskaly allows %d)", id, len(ts), exportPollsPerMinute)}
		p.calls[id] = ts
		return e
	}
	p.calls[id] = append(ts, now)
	return nil
}
