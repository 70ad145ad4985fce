package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"posbox/store"
)

// maxBody is the largest accepted request body.
const maxBody = 1 << 20

// checkBody holds every route to the contract's body rules, also the
// routes that read no body (clock-in, DELETE): a body that is not
// application/json is 415, one larger than 1 MiB is 413, and no handler
// can read more than 1 MiB. A body of unknown length (chunked) is read
// here, so a route that would not read it cannot act on a 413 body.
func checkBody(w http.ResponseWriter, r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil
	}
	if err := requireJSON(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	if r.ContentLength > maxBody {
		return errHTTP(eTooLarge, "the body is larger than 1 MiB")
	}
	if r.ContentLength < 0 {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			return decodeError(err)
		}
		if len(body) > maxBody {
			return errHTTP(eTooLarge, "the body is larger than 1 MiB")
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	return nil
}

// Draining a body the answer did not need: at most drainMax bytes within
// drainTime.
const (
	drainMax  = 16 << 20
	drainTime = 10 * time.Second
)

// drainBody reads what is left of a request body after the answer is
// written. Many clients (Python's urllib and requests among them) send
// the whole body before they read the answer; if the server closed the
// connection after the first 256 KiB, as net/http does with an unread
// body, they would see a broken pipe instead of the 413 or 401. So the
// rest is read and thrown away, bounded in bytes and time, and only then
// does the connection close.
func drainBody(w http.ResponseWriter, body io.Reader) {
	if body == nil || body == http.NoBody {
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(drainTime)) // not on a test recorder
	var one [1]byte
	if n, _ := body.Read(one[:]); n == 0 {
		return // read to its end: the usual case
	}
	_ = rc.Flush() // the answer goes out now, for clients that read while they send
	_, _ = io.Copy(io.Discard, io.LimitReader(body, drainMax))
}

// requireJSON is the one media-type rule: application/json, parameters
// allowed (415 otherwise).
func requireJSON(contentType string) error {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/json" {
		return errHTTP(eUnsupportedMedia, "Content-Type must be application/json")
	}
	return nil
}

// decode reads a strict JSON body into v: no unknown fields (400),
// well-formed (400), right types (422). An empty body decodes as {} when
// optional is true. route's checkBody has already bounded the body to
// 1 MiB (413); decode adds that an empty body sent with a Content-Type
// must still name JSON (415).
func decode(r *http.Request, v any, optional bool) error {
	if r.ContentLength == 0 && optional {
		return nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "" || r.ContentLength > 0 {
		if err := requireJSON(ct); err != nil {
			return err
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return decodeError(err)
	}
	// JSON text is UTF-8 (RFC 8259); encoding/json would pass invalid
	// bytes through raw members (event data) into webhook bodies.
	if !utf8.Valid(body) {
		return store.Invalid("body", store.FNotUTF8, "must be valid UTF-8")
	}
	switch trimmed := bytes.TrimSpace(body); {
	case len(trimmed) == 0 && optional, bytes.Equal(trimmed, []byte("null")) && optional:
		return nil
	case bytes.Equal(trimmed, []byte("null")):
		// null would decode as {} and pass for an empty update.
		return errHTTP(eMalformedJSON, "the body must be a JSON object, not null")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	err = dec.Decode(v)
	if err == nil {
		if _, err2 := dec.Token(); !errors.Is(err2, io.EOF) {
			var mbe *http.MaxBytesError
			if errors.As(err2, &mbe) {
				return errHTTP(eTooLarge, "the body is larger than 1 MiB")
			}
			return errHTTP(eMalformedJSON, "the body must hold exactly one JSON value")
		}
		return nil
	}
	return decodeError(err)
}

// decodeError turns a json error into the contract's codes.
func decodeError(err error) error {
	var mbe *http.MaxBytesError
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &mbe):
		return errHTTP(eTooLarge, "the body is larger than 1 MiB")
	case errors.As(err, &te):
		if te.Field == "" {
			return errHTTP(eMalformedJSON, "the body must be a JSON object")
		}
		return store.Invalid(te.Field, store.FWrongType, "must be "+article(jsonType(te.Type.Kind().String())), "type", jsonType(te.Type.Kind().String()))
	case errors.As(err, &se), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errHTTP(eMalformedJSON, "the body is not valid JSON")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json has no typed error for this.
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return errHTTP(eUnknownField, fmt.Sprintf("unknown field %q", name))
	}
	var ve *store.Error
	if errors.As(err, &ve) {
		return err
	}
	return errHTTP(eMalformedJSON, "the body is not valid JSON")
}

// jsonType names a Go kind the way a JSON author thinks of it.
func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int64", "int32", "uint", "uint64":
		return "integer" // also for 1.5: "a number" would not say what is wrong
	case "float64":
		return "number"
	case "slice", "array":
		return "array"
	case "struct", "map":
		return "object"
	}
	return kind
}

// article puts "a" or "an" before a JSON type name.
func article(name string) string {
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
