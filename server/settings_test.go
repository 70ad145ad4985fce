package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/notify"
	"posbox/notify/smtptest"
	"posbox/store"
)

// runDispatcher runs d until the test ends.
func runDispatcher(tb testing.TB, d *notify.Dispatcher) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	tb.Cleanup(func() { stop(); <-done })
}

// Email settings saved through the API reach the running dispatcher
// without a restart: rule, event, mail in the box. The password goes in
// and never comes out (GET, PUT, the log), and a bad PUT changes nothing.
func TestEmailSettingsFromTheAPIDeliver(t *testing.T) {
	e := newTestEnv(t)
	d := e.withNotifier(t)
	runDispatcher(t, d)
	var logBuf bytes.Buffer
	h := LogRequests(slog.New(slog.NewTextHandler(&logBuf, nil)), e.h)
	put := func(body any) map[string]any {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("PUT", "/api/settings/email", bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+e.adminToken)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return map[string]any{"status": rec.Code, "body": rec.Body.String()}
	}

	// Not set up: GET says so, and an enabled email rule is refused.
	rec := e.do(t, "GET", "/api/settings/email", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	got := decodeJSON(t, rec)["email"].(map[string]any)
	if got["configured"] != false || got["source"] != "none" || got["host"] != nil || got["password_set"] != false {
		t.Fatalf("before: %v", got)
	}
	rule := map[string]any{"channel": "email", "event_type": "new_order", "is_enabled": true, "destination": "chefin@trattoria.example"}
	wantProblem(t, e.do(t, "POST", "/api/notifications/settings", rule, e.adminToken), http.StatusConflict, store.EChannelNotConfigured)

	mb := smtptest.Start(t, smtptest.Options{})
	const secret = "s3cr3t-Passw0rt"
	res := put(map[string]any{"host": "127.0.0.1", "port": mb.Port(), "from": "kasse@trattoria.example", "tls": "none", "password": secret})
	if res["status"] != http.StatusOK || strings.Contains(res["body"].(string), secret) {
		t.Fatalf("PUT: %v", res)
	}
	rec = e.do(t, "GET", "/api/settings/email", nil, e.adminToken)
	if strings.Contains(rec.Body.String(), secret) {
		t.Fatalf("GET shows the password: %s", rec.Body)
	}
	got = decodeJSON(t, rec)["email"].(map[string]any)
	if got["configured"] != true || got["source"] != "console" || got["host"] != "127.0.0.1" || got["port"] != float64(mb.Port()) ||
		got["password_set"] != true || got["tls"] != "none" || got["from"] != "kasse@trattoria.example" {
		t.Fatalf("after: %v", got)
	}

	// Bad input: 422 naming the fields, and the saved settings stay.
	for _, bad := range []map[string]any{
		{"host": "smtp://x", "from": "kasse@trattoria.example"},
		{"host": "127.0.0.1", "from": "Kasse <kasse@trattoria.example>"},
		{"host": "127.0.0.1", "from": "kasse@trattoria.example", "port": 0},
		{"host": "127.0.0.1", "from": "kasse@trattoria.example", "tls": "ssl"},
		{"from": "kasse@trattoria.example"},
	} {
		rec := e.do(t, "PUT", "/api/settings/email", bad, e.adminToken)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
	}
	if s, _ := e.st.EmailSettings(context.Background(), e.restaurant.ID); s.Host != "127.0.0.1" || s.Password != secret || s.Port != mb.Port() {
		t.Fatalf("a refused PUT changed the settings: %+v", s)
	}
	// A PUT without password keeps it.
	if res := put(map[string]any{"host": "127.0.0.1", "port": mb.Port(), "from": "kasse@trattoria.example", "tls": "none"}); res["status"] != http.StatusOK {
		t.Fatalf("PUT: %v", res)
	}
	if s, _ := e.st.EmailSettings(context.Background(), e.restaurant.ID); s.Password != secret {
		t.Fatal("a PUT without password dropped the saved one")
	}

	// Now the rule is accepted, and an event arrives as a mail.
	wantStatus(t, e.do(t, "POST", "/api/notifications/settings", rule, e.adminToken), http.StatusCreated)
	_, staff := e.staff(t, "Sam Staff")
	e.saleEventsByPOS(t)
	wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": "new_order", "data": map[string]any{"order_number": 1042, "total_cents": 4580}}, staff), http.StatusAccepted)
	poll.Until(t, 20*time.Second, "the mail", func() bool { return len(mb.Received()) == 1 })
	if m := mb.Received()[0]; strings.Join(m.To, ",") != "chefin@trattoria.example" || !strings.Contains(string(m.Data), "1042") {
		t.Fatalf("mail to %q: %q", m.To, m.Data)
	}
	// The test send of the settings page goes through the same settings.
	rec = e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "email", "destination": "test@trattoria.example"}, e.adminToken)
	if r := decodeJSON(t, rec)["result"].(map[string]any); r["success"] != true {
		t.Fatalf("test send %v", r)
	}
	poll.Until(t, 20*time.Second, "the test mail", func() bool { return len(mb.Received()) == 2 })
	if logs := e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken).Body.String(); strings.Contains(logs, secret) {
		t.Fatal("the notification log shows the password")
	}
	if strings.Contains(logBuf.String(), secret) {
		t.Fatal("the request log shows the password")
	}
	wantStatus(t, e.do(t, "GET", "/api/settings/email", nil, mustStaffToken(t, e)), http.StatusForbidden)
}

func mustStaffToken(t *testing.T, e *testEnv) string {
	_, tok := e.staff(t, "Kim Staff "+strconv.Itoa(int(time.Now().UnixNano()%1000)))
	return tok
}

// SMS settings saved through the API: a generic gateway on loopback gets
// the rule's SMS with the saved bearer token; the token is never shown.
func TestSMSSettingsFromTheAPIDeliver(t *testing.T) {
	e := newTestEnv(t)
	d := e.withNotifier(t)
	runDispatcher(t, d)
	gw := newHookReceiver(t, http.StatusOK)

	rule := map[string]any{"channel": "sms", "event_type": "low_stock", "is_enabled": true, "destination": "+4915112345678"}
	wantProblem(t, e.do(t, "POST", "/api/notifications/settings", rule, e.adminToken), http.StatusConflict, store.EChannelNotConfigured)
	// A disabled rule may be prepared; enabling it is refused while SMS is not set up.
	off := map[string]any{"channel": "sms", "event_type": "low_stock", "is_enabled": false, "destination": "+4915112345678"}
	rec := e.do(t, "POST", "/api/notifications/settings", off, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	id := decodeJSON(t, rec)["setting"].(map[string]any)["id"].(string)
	wantProblem(t, e.do(t, "PUT", "/api/notifications/settings/"+id, map[string]any{"is_enabled": true}, e.adminToken), http.StatusConflict, store.EChannelNotConfigured)
	// Changing the destination of the disabled rule is fine.
	wantStatus(t, e.do(t, "PUT", "/api/notifications/settings/"+id, map[string]any{"destination": "+4915199999999"}, e.adminToken), http.StatusOK)

	for _, bad := range []map[string]any{
		{"provider": "fax"}, {"provider": "generic"}, {"provider": "generic", "url": "ftp://x"},
		{"provider": "twilio", "account": "AC1", "from": "+49151"}, // no token
	} {
		wantStatus(t, e.do(t, "PUT", "/api/settings/sms", bad, e.adminToken), http.StatusUnprocessableEntity)
	}
	if _, err := e.st.SMSSettings(context.Background(), e.restaurant.ID); !store.IsNotFound(err) {
		t.Fatalf("a refused PUT saved settings: %v", err)
	}
	const token = "gw-T0ken-123"
	rec = e.do(t, "PUT", "/api/settings/sms", map[string]any{"provider": "generic", "url": gw.URL + "/send", "token": token, "from": "Trattoria"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if strings.Contains(rec.Body.String(), token) {
		t.Fatalf("PUT shows the token: %s", rec.Body)
	}
	got := decodeJSON(t, e.do(t, "GET", "/api/settings/sms", nil, e.adminToken))["sms"].(map[string]any)
	if got["configured"] != true || got["source"] != "console" || got["provider"] != "generic" || got["token_set"] != true || got["token"] != nil {
		t.Fatalf("GET %v", got)
	}
	wantStatus(t, e.do(t, "PUT", "/api/notifications/settings/"+id, map[string]any{"is_enabled": true}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": "low_stock", "data": map[string]any{"name": "Tomaten", "quantity_on_hand": 2.5, "unit": "kg", "threshold": 5}}, e.adminToken), http.StatusAccepted)
	poll.Until(t, 20*time.Second, "the SMS", func() bool { return gw.count() == 1 })
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if auth := gw.hits[0].Header.Get("Authorization"); auth != "Bearer "+token {
		t.Fatalf("Authorization %q", auth)
	}
	var sms map[string]string
	if json.Unmarshal(gw.bodies[0], &sms) != nil || sms["to"] != "+4915199999999" || sms["from"] != "Trattoria" || !strings.Contains(sms["text"], "Tomaten") {
		t.Fatalf("SMS %s", gw.bodies[0])
	}
}

// PATCH /api/restaurant changes the name (one line, 1-100 characters).
func TestRestaurantName(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "PATCH", "/api/restaurant", map[string]any{"name": "Trattoria Roma"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if n := decodeJSON(t, e.do(t, "GET", "/api/restaurant", nil, e.adminToken))["restaurant"].(map[string]any)["name"]; n != "Trattoria Roma" {
		t.Fatalf("name %v", n)
	}
	for _, bad := range []any{"", "  ", "a\nb", strings.Repeat("x", 101), nil} {
		wantFieldError(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"name": bad}, e.adminToken), "name")
	}
	if r, _ := e.st.Restaurant(context.Background(), e.restaurant.ID); r.Name != "Trattoria Roma" {
		t.Fatalf("a refused PATCH changed the name: %q", r.Name)
	}
}
