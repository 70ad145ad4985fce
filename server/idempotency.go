package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"

	"posbox/store"
)

// idempotencyKey reads the optional Idempotency-Key header of a POST that
// must not take effect twice ("" when absent).
func idempotencyKey(r *http.Request) (string, error) {
	key := r.Header.Get("Idempotency-Key")
	if len(key) > 255 {
		return "", store.Invalid("Idempotency-Key", "must be at most 255 characters")
	}
	return key, nil
}

// hashOf identifies a validated request for the reuse check: the sha256
// of its canonical JSON, so whitespace and member order do not matter but
// every value does.
func hashOf(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs of strings and numbers come here
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// renderJSON is the body writeJSON would send, kept as bytes so a replay
// answers byte for byte what the first request answered.
func renderJSON(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	return append(body, '\n'), err
}

// writeAnswer sends a rendered (or replayed) JSON answer.
func writeAnswer(w http.ResponseWriter, status int, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}
