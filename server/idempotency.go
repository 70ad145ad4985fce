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
		return "", store.Invalid("Idempotency-Key", store.FTooLong, "must be at most 255 characters", "max", 255)
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
