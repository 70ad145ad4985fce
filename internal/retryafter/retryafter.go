// Package retryafter reads an HTTP Retry-After header. The fiskaly client
// (tse) and the webhook sender (notify) both honour it, so they read it
// alike. It imports nothing but the standard library.
package retryafter

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Parse reads Retry-After as delay-seconds or as an HTTP date, relative
// to now. It answers 0 for no header, a value it cannot read, a delay
// that is not positive and a date that is not after now: the caller then
// keeps its own backoff. There is no cap: a caller that needs one applies
// it.
func Parse(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
