package simtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// HTTP is the simulator served over real HTTP in the test's process
// (httptest), with a record of the grants POST /auth saw.
type HTTP struct {
	Sim *tsesim.Simulator
	Srv *tsesim.Server
	TS  *httptest.Server
	Clk *storetest.Clock

	mu     sync.Mutex
	grants []string // "key" or "refresh", with "!" appended when refused
}

// NewHTTP serves a new simulator (changed by mod) on a test clock; it
// stops with the test.
func NewHTTP(t testing.TB, mod ...func(*tsesim.Config)) *HTTP {
	t.Helper()
	clk := NewClock()
	sim := Open(t, t.TempDir(), clk, mod...)
	h := &HTTP{Sim: sim, Clk: clk, Srv: tsesim.NewServer(sim, Key, Secret)}
	h.TS = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v2/auth" {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			grant := "key"
			if bytes.Contains(b, []byte("refresh_token")) {
				grant = "refresh"
			}
			rec := httptest.NewRecorder()
			h.Srv.ServeHTTP(rec, r)
			if rec.Code != 200 {
				grant += "!"
			}
			h.mu.Lock()
			h.grants = append(h.grants, grant)
			h.mu.Unlock()
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		h.Srv.ServeHTTP(w, r)
	}))
	t.Cleanup(h.TS.Close)
	return h
}

// AuthGrants are the grants POST /auth saw, in order.
func (h *HTTP) AuthGrants() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.grants...)
}

// Client is a fiskaly client of the default TSS on the test clock (changed
// by mod); it closes with the test.
func (h *HTTP) Client(t testing.TB, mod ...func(*tse.FiskalyConfig)) *tse.Fiskaly {
	t.Helper()
	cfg := tse.FiskalyConfig{BaseURL: h.TS.URL, APIKey: Key, APISecret: Secret,
		TSSID: h.Sim.TSSID(), AdminPIN: tsesim.DefaultAdminPIN, Now: h.Clk.Now}
	for _, m := range mod {
		m(&cfg)
	}
	f, err := tse.NewFiskaly(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
