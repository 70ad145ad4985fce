package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
)

// testEnv is a real store in a temp dir behind the real handler.
type testEnv struct {
	st         *store.Store
	srv        *Server
	h          http.Handler
	restaurant *store.Restaurant
	admin      *store.User
	adminToken string
	clock      *storetest.Clock
	cfg        Config // the server's, as last built by serve
}

var testKey = []byte("0123456789abcdef0123456789abcdef")

// newTestEnv opens a fresh appliance with one restaurant (Europe/Berlin)
// and its admin; the clock starts at 2026-11-22 09:00 UTC.
func newTestEnv(tb testing.TB) *testEnv {
	tb.Helper()
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(context.Background(), tb.TempDir(), store.Options{Now: clock.Now, Logger: log, BcryptCost: bcrypt.MinCost})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	e := &testEnv{st: st, clock: clock}
	e.serve(tb, Config{})
	e.seedRestaurant(tb)
	return e
}

// serve (re)builds the server on the env's store with cfg, as main does
// (a test hands it a notifier or a TSE this way).
func (e *testEnv) serve(tb testing.TB, cfg Config) {
	cfg.Version, cfg.JWTKey = "test", testKey
	e.cfg = cfg
	e.srv = New(e.st, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	e.h = e.srv.Handler()
	tb.Cleanup(e.srv.Close)
}

// seedRestaurant creates the test restaurant (Europe/Berlin) and its admin.
func (e *testEnv) seedRestaurant(tb testing.TB) {
	tb.Helper()
	e.restaurant = &store.Restaurant{Name: "Test", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), e.restaurant); err != nil {
		tb.Fatal(err)
	}
	e.admin, e.adminToken = e.addUser(tb, e.restaurant.ID, "admin@test.local", "Ada Admin", store.RoleAdmin)
}

// addUser creates a user (password "password1") and returns a token.
func (e *testEnv) addUser(tb testing.TB, restaurantID, email, name, role string) (*store.User, string) {
	tb.Helper()
	u := &store.User{RestaurantID: restaurantID, Email: email, Name: name, Role: role}
	if err := e.st.CreateUser(context.Background(), u, "password1"); err != nil {
		tb.Fatal(err)
	}
	tok, err := IssueToken(testKey, u, e.clock.Now(), time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	return u, tok
}

// staff adds a staff member of the test restaurant.
func (e *testEnv) staff(tb testing.TB, name string) (*store.User, string) {
	tb.Helper()
	email := strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@test.local"
	return e.addUser(tb, e.restaurant.ID, email, name, store.RoleStaff)
}

// do sends a request; body is JSON-encoded unless it is a string or nil.
func (e *testEnv) do(tb testing.TB, method, path string, body any, token string, headers ...string) *httptest.ResponseRecorder {
	tb.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			tb.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	e.checkOpenAPI(tb, req, body, rec) // openapi_test.go: the answer, and an accepted request, against server/openapi.json
	return rec
}

// storedEvents reads the test restaurant's events of one type, newest
// first, as the store keeps them.
func (e *testEnv) storedEvents(tb testing.TB, typ string) []*store.Event {
	tb.Helper()
	evs, err := e.st.Events(context.Background(), e.restaurant.ID, typ, 1000)
	if err != nil {
		tb.Fatal(err)
	}
	return evs
}

// saleEventsByPOS sets the test restaurant to take the events of sales
// from the POS (POST /api/events) instead of raising them itself.
func (e *testEnv) saleEventsByPOS(tb testing.TB) {
	tb.Helper()
	if _, err := e.st.UpdateRestaurantSettings(context.Background(), e.restaurant.ID,
		store.RestaurantSettings{SaleEventsBy: store.Field[string]{Set: true, Value: store.SaleEventsByPOS}}); err != nil {
		tb.Fatal(err)
	}
}

// notifyOn subscribes the test restaurant to each event type with an
// enabled webhook rule, so the events of those types are stored: one no
// enabled rule wants is not written (store.InsertEvent). The test servers
// run no dispatcher unless withNotifier gives them one, so the deliveries
// it queues stay pending. Call it before the action that raises them.
func (e *testEnv) notifyOn(tb testing.TB, types ...string) {
	tb.Helper()
	for _, typ := range types {
		n := &store.NotificationSetting{RestaurantID: e.restaurant.ID, Channel: store.ChannelWebhook, EventType: typ,
			Destination: "https://hooks.example.test/" + typ, IsEnabled: true}
		if err := e.st.CreateNotificationSetting(context.Background(), n); err != nil {
			tb.Fatal(err)
		}
	}
}

// decodeJSON reads a response body into a generic map.
func decodeJSON(tb testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	tb.Helper()
	var m map[string]any
	decodeInto(tb, rec.Body.Bytes(), &m)
	return m
}

// decodeInto reads JSON into v or fails the test.
func decodeInto(tb testing.TB, b []byte, v any) {
	tb.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("body %q: %v", b, err)
	}
}

// wantStatus fails unless the response has the status.
func wantStatus(tb testing.TB, rec *httptest.ResponseRecorder, status int) {
	tb.Helper()
	if rec.Code != status {
		tb.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body.String())
	}
}

// wantProblem fails unless the response is problem+json with status and code.
func wantProblem(tb testing.TB, rec *httptest.ResponseRecorder, status int, code string) map[string]any {
	tb.Helper()
	wantStatus(tb, rec, status)
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		tb.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	p := decodeJSON(tb, rec)
	if p["code"] != code {
		tb.Fatalf("code %v, want %s; body %s", p["code"], code, rec.Body.String())
	}
	if p["status"] != float64(status) || p["title"] != http.StatusText(status) || p["type"] != "about:blank" {
		tb.Fatalf("bad problem fields: %s", rec.Body.String())
	}
	return p
}

// wantFieldError fails unless a 422 names field.
func wantFieldError(tb testing.TB, rec *httptest.ResponseRecorder, field string) {
	tb.Helper()
	p := wantProblem(tb, rec, http.StatusUnprocessableEntity, store.EValidation)
	errs, _ := p["errors"].([]any)
	for _, e := range errs {
		if e.(map[string]any)["field"] == field {
			return
		}
	}
	tb.Fatalf("no field error for %q in %s", field, rec.Body.String())
}

// jsonKeys lists the keys of a JSON object in the order they were written.
func jsonKeys(tb testing.TB, raw []byte) []string {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		tb.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			tb.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			tb.Fatal(err)
		}
	}
	return keys
}
