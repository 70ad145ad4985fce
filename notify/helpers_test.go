package notify

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"posbox/store"
	"posbox/store/storetest"
)

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// env is a real store in a temp dir with one restaurant (Europe/Berlin);
// the clock starts at 2026-11-22 09:00 UTC.
type env struct {
	dir   string
	st    *store.Store
	clock *storetest.Clock
	rest  *store.Restaurant
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), clock: storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))}
	e.open(t)
	e.rest = &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), e.rest); err != nil {
		t.Fatal(err)
	}
	return e
}

// open (re)opens the store on the same file, as a restart does.
func (e *env) open(t testing.TB) {
	t.Helper()
	st, err := store.Open(context.Background(), e.dir, store.Options{Now: e.clock.Now, Logger: discard, Synchronous: "NORMAL", BcryptCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	e.st = st
	t.Cleanup(func() { st.Close() })
}

// rule adds an enabled rule.
func (e *env) rule(t testing.TB, channel, eventType, dest string) *store.NotificationSetting {
	t.Helper()
	n := &store.NotificationSetting{RestaurantID: e.rest.ID, Channel: channel, EventType: eventType, Destination: dest, IsEnabled: true}
	if err := e.st.CreateNotificationSetting(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	return n
}

// event publishes an event as POST /api/events does.
func (e *env) event(t testing.TB, typ string, data any) *store.Event {
	t.Helper()
	ev, err := e.st.PublishEvent(context.Background(), e.rest.ID, typ, data)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// dispatcher has no jitter, so retry times are exact.
func (e *env) dispatcher(t testing.TB, senders map[string]Sender) *Dispatcher {
	t.Helper()
	return New(e.st, Options{Senders: senders, Now: e.clock.Now, Jitter: func() float64 { return 1 }, Logger: discard, Poll: 20 * time.Millisecond})
}

func (e *env) webhookDispatcher(t testing.TB) *Dispatcher {
	t.Helper()
	ws, err := NewWebhookSender(WebhookConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return e.dispatcher(t, map[string]Sender{store.ChannelWebhook: ws})
}

// runOnce sends what is due now and returns how many were handled.
func runOnce(t testing.TB, d *Dispatcher) int {
	t.Helper()
	n, err := d.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *env) logs(t testing.TB) []*store.NotificationLog {
	t.Helper()
	l, err := e.st.NotificationLogs(context.Background(), e.rest.ID, 200)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (e *env) deliveries(t testing.TB) []*store.Delivery {
	t.Helper()
	d, err := e.st.Deliveries(context.Background(), e.rest.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// hit is one request a receiver got.
type hit struct {
	Header http.Header
	Body   []byte
}

// receiver is an httptest webhook endpoint that answers from a script
// (the last status repeats) and records every request.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	hits    []hit
	script  []int
	headers map[string]string // extra response headers
	onHit   func(n int)       // called after each hit with the count
}

func newReceiver(t testing.TB, statuses ...int) *receiver {
	t.Helper()
	r := &receiver{script: statuses, headers: map[string]string{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.hits = append(r.hits, hit{req.Header.Clone(), body})
		n := len(r.hits)
		status := http.StatusOK
		if len(r.script) > 0 {
			status = r.script[min(n, len(r.script))-1]
		}
		for k, v := range r.headers {
			w.Header().Set(k, v)
		}
		onHit := r.onHit
		r.mu.Unlock()
		w.WriteHeader(status)
		if onHit != nil {
			onHit(n)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) got() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

// verify checks a request's Standard Webhooks signature with secret.
func verify(t testing.TB, h hit, secret string) {
	t.Helper()
	want, err := Sign(secret, h.Header.Get("webhook-id"), h.Header.Get("webhook-timestamp"), h.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Header.Get("webhook-signature"); got != want {
		t.Fatalf("webhook-signature %q, want %q", got, want)
	}
}

func mustJSON(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}
