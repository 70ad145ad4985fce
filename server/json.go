package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"posbox/store"
)

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	body, err := renderJSON(v)
	if err != nil {
		return err
	}
	return writeAnswer(w, status, body)
}

// renderJSON is the body writeJSON sends, kept as bytes so that an
// Idempotency-Key replay answers byte for byte what the first request
// answered.
func renderJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	err := newEncoder(&b).Encode(v)
	return b.Bytes(), err
}

// writeAnswer sends a rendered (or replayed) JSON answer.
func writeAnswer(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// newEncoder writes JSON as a person reads it: "<token>" stays "<token>"
// (the API is not embedded in HTML, so there is nothing to escape for).
func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// envelope wraps a response under its contract key.
type envelope map[string]any

// ts renders an instant as the API shows it: UTC, milliseconds, Z.
func ts(t time.Time) string { return store.FormatTime(t) }

// tsPtr renders an optional instant; nil stays null.
func tsPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := ts(*t)
	return &s
}

// parseTimestamp reads a request timestamp: RFC 3339 with an offset or Z.
// A value without an offset is a field error.
func parseTimestamp(f *store.Fields, field, s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		f.Add(field, store.FNotTimestamp, "must be an RFC 3339 timestamp with an offset, e.g. 2026-11-22T09:15:00+01:00")
		return time.Time{}
	}
	return t.UTC()
}

// parseDate reads a local YYYY-MM-DD date.
func parseDate(f *store.Fields, field, s string) string {
	if _, err := time.Parse(store.DateFormat, s); err != nil {
		f.Add(field, store.FNotDate, "must be a date YYYY-MM-DD")
		return ""
	}
	return s
}

// parseLocalDate reads a stored YYYY-MM-DD date.
func parseLocalDate(s string) (time.Time, error) { return time.Parse(store.DateFormat, s) }
