package tsesim

import (
	"net/http"
	"time"
)

// WithLatency answers every request d later, as a TSE across the internet
// does (posbox tse-sim --latency, for benchmarks); the wait ends early
// when the client gives up.
func WithLatency(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
		h.ServeHTTP(w, r)
	})
}
