package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/notify"
	"posbox/store"
)

// withNotifier gives the test server a real dispatcher whose webhooks go
// out over HTTP and whose email is unconfigured.
func (e *testEnv) withNotifier(tb testing.TB) *notify.Dispatcher {
	tb.Helper()
	ws, err := notify.NewWebhookSender(notify.WebhookConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	email, _ := notify.NewEmailSender(notify.EmailConfig{})
	d := notify.New(e.st, notify.Options{Senders: map[string]notify.Sender{store.ChannelWebhook: ws, store.ChannelEmail: email},
		Now: e.clock.Now, Jitter: func() float64 { return 1 }, Poll: 10 * time.Millisecond})
	cfg := e.cfg
	cfg.Notifier = d
	e.serve(tb, cfg)
	return d
}

// hookReceiver records webhook requests and answers with status.
type hookReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	hits   []*http.Request
	bodies [][]byte
	status int
}

func newHookReceiver(tb testing.TB, status int) *hookReceiver {
	h := &hookReceiver{status: status}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.hits, h.bodies = append(h.hits, r), append(h.bodies, b)
		h.mu.Unlock()
		w.WriteHeader(h.status)
	}))
	tb.Cleanup(h.Close)
	return h
}

func (h *hookReceiver) count() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.hits) }

func TestNotificationSettingsCRUD(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": "new_order",
		"is_enabled": true, "destination": "http://192.168.1.50:8123/api/webhook/pos"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	hook := decodeJSON(t, rec)["setting"].(map[string]any)
	secret, _ := hook["secret"].(string)
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if !strings.HasPrefix(secret, "whsec_") || err != nil || len(key) < 24 || len(key) > 64 {
		t.Fatalf("secret %q", secret)
	}
	if hook["channel"] != "webhook" || hook["event_type"] != "new_order" || hook["is_enabled"] != true || hook["created_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("setting %v", hook)
	}
	rec = e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "email", "event_type": "daily_report",
		"is_enabled": false, "destination": "chef@trattoria.example"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	mail := decodeJSON(t, rec)["setting"].(map[string]any)
	if _, has := mail["secret"]; has {
		t.Fatalf("an email rule has a secret: %v", mail)
	}

	rec = e.do(t, "GET", "/api/notifications/settings", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if list := decodeJSON(t, rec)["settings"].([]any); len(list) != 2 || list[0].(map[string]any)["id"] != hook["id"] {
		t.Fatalf("list %v", list)
	}

	// Partial update: only is_enabled changes.
	e.clock.Add(time.Minute)
	rec = e.do(t, "PUT", "/api/notifications/settings/"+hook["id"].(string), map[string]any{"is_enabled": false}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	upd := decodeJSON(t, rec)["setting"].(map[string]any)
	if upd["is_enabled"] != false || upd["destination"] != hook["destination"] || upd["secret"] != secret || upd["updated_at"] != "2026-11-22T09:01:00.000Z" {
		t.Fatalf("updated %v", upd)
	}
	// A new channel must fit the destination; null is refused; nothing changes.
	wantFieldError(t, e.do(t, "PUT", "/api/notifications/settings/"+mail["id"].(string), map[string]any{"channel": "sms"}, e.adminToken), "destination")
	wantFieldError(t, e.do(t, "PUT", "/api/notifications/settings/"+mail["id"].(string), map[string]any{"destination": nil}, e.adminToken), "destination")
	rec = e.do(t, "PUT", "/api/notifications/settings/"+mail["id"].(string), map[string]any{"channel": "sms", "destination": "+4915112345678"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if s := decodeJSON(t, rec)["setting"].(map[string]any); s["channel"] != "sms" || s["destination"] != "+4915112345678" {
		t.Fatalf("updated %v", s)
	}

	// Delete: 204, then 404; bad and foreign ids are 404.
	rec = e.do(t, "DELETE", "/api/notifications/settings/"+mail["id"].(string), nil, e.adminToken)
	wantStatus(t, rec, http.StatusNoContent)
	if rec.Body.Len() != 0 {
		t.Fatal("204 with a body")
	}
	wantProblem(t, e.do(t, "DELETE", "/api/notifications/settings/"+mail["id"].(string), nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	wantProblem(t, e.do(t, "PUT", "/api/notifications/settings/not-a-uuid", map[string]any{}, e.adminToken), http.StatusNotFound, store.ENotFound)
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	_, otherAdmin := e.addUser(t, other.ID, "boss@other.local", "Boss", store.RoleAdmin)
	wantProblem(t, e.do(t, "DELETE", "/api/notifications/settings/"+hook["id"].(string), nil, otherAdmin), http.StatusNotFound, store.ENotFound)
	rec = e.do(t, "GET", "/api/notifications/settings", nil, otherAdmin)
	if list := decodeJSON(t, rec)["settings"].([]any); len(list) != 0 {
		t.Fatalf("another restaurant sees %v", list)
	}
}

func TestNotificationSettingValidation(t *testing.T) {
	e := newTestEnv(t)
	valid := func() map[string]any {
		return map[string]any{"channel": "email", "event_type": "new_order", "is_enabled": true, "destination": "a@b.example"}
	}
	for _, tc := range []struct {
		field string
		value any
	}{
		{"channel", nil}, {"channel", "fax"},
		{"event_type", nil}, {"event_type", "New-Order"}, {"event_type", "1order"}, {"event_type", strings.Repeat("a", 65)},
		{"is_enabled", nil}, {"is_enabled", "yes"},
		{"destination", nil}, {"destination", "Chef <a@b.example>"}, {"destination", 42},
	} {
		body := valid()
		if tc.value == nil {
			delete(body, tc.field)
		} else {
			body[tc.field] = tc.value
		}
		wantFieldError(t, e.do(t, "POST", "/api/notifications/settings", body, e.adminToken), tc.field)
	}
	for ch, bad := range map[string]string{"sms": "015112345678", "webhook": "ftp://host/x"} {
		wantFieldError(t, e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": ch, "event_type": "x",
			"is_enabled": true, "destination": bad}, e.adminToken), "destination")
	}
	wantFieldError(t, e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": "x",
		"is_enabled": true, "destination": "/relative"}, e.adminToken), "destination")
	body := valid()
	body["secret"] = "whsec_x"
	wantProblem(t, e.do(t, "POST", "/api/notifications/settings", body, e.adminToken), http.StatusBadRequest, eUnknownField)
	_, staff := e.staff(t, "Sam Staff")
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/notifications/settings"}, {"POST", "/api/notifications/settings"}, {"GET", "/api/notifications/logs"},
		{"POST", "/api/notifications/test"},
	} {
		wantProblem(t, e.do(t, r.method, r.path, valid(), staff), http.StatusForbidden, eForbidden)
		wantProblem(t, e.do(t, r.method, r.path, valid(), ""), http.StatusUnauthorized, eUnauthenticated)
	}
	rec := e.do(t, "GET", "/api/notifications/settings", nil, e.adminToken)
	if list := decodeJSON(t, rec)["settings"].([]any); len(list) != 0 {
		t.Fatalf("a bad request created %v", list)
	}
}

func TestNotificationLogsLimit(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	base := e.clock.Now()
	for i := 0; i < 210; i++ {
		msg := fmt.Sprintf("m%03d", i)
		if err := e.st.InsertNotificationLog(ctx, &store.NotificationLog{RestaurantID: e.restaurant.ID, Channel: "sms",
			EventType: "low_stock", Destination: "+4915112345678", Status: store.LogDelivered, Message: &msg, Attempt: 1,
			SentAt: base.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(q string) []any {
		rec := e.do(t, "GET", "/api/notifications/logs"+q, nil, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		return decodeJSON(t, rec)["logs"].([]any)
	}
	logs := get("")
	first := logs[0].(map[string]any)
	if len(logs) != 50 || first["message"] != "m209" || logs[49].(map[string]any)["message"] != "m160" {
		t.Fatalf("default: %d logs, first %v", len(logs), first)
	}
	for _, k := range []string{"id", "setting_id", "channel", "event_type", "destination", "status", "error", "message", "sent_at", "attempt"} {
		if _, ok := first[k]; !ok {
			t.Fatalf("log entry without %s: %v", k, first)
		}
	}
	if first["setting_id"] != nil || first["error"] != nil || first["attempt"] != 1.0 || first["sent_at"] != "2026-11-22T09:03:29.000Z" {
		t.Fatalf("entry %v", first)
	}
	if n := len(get("?limit=5")); n != 5 {
		t.Fatalf("limit=5: %d", n)
	}
	if n := len(get("?limit=200")); n != 200 {
		t.Fatalf("limit=200: %d", n)
	}
	if n := len(get("?limit=201")); n != 200 {
		t.Fatalf("limit=201 is not cut to 200: %d", n)
	}
	for _, bad := range []string{"abc", "0", "-1", "1.5", "", "1e2"} {
		wantFieldError(t, e.do(t, "GET", "/api/notifications/logs?limit="+bad, nil, e.adminToken), "limit")
	}
}

func TestNotificationTestEndpoint(t *testing.T) {
	e := newTestEnv(t)
	e.withNotifier(t)
	ok := newHookReceiver(t, http.StatusOK)
	down := newHookReceiver(t, http.StatusServiceUnavailable)

	rec := e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "webhook", "destination": ok.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	res := decodeJSON(t, rec)["result"].(map[string]any)
	if res["success"] != true || res["channel"] != "webhook" || res["destination"] != ok.URL ||
		res["message"] != "Testnachricht von posbox: Der Kanal funktioniert." || res["sent_at"] != "2026-11-22T09:00:00.000Z" || ok.count() != 1 {
		t.Fatalf("result %v", res)
	}
	if ok.hits[0].Header.Get("webhook-id") == "" || ok.hits[0].Header.Get("webhook-timestamp") == "" {
		t.Fatal("test webhook without Standard Webhooks headers")
	}

	rec = e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "webhook", "destination": down.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if res := decodeJSON(t, rec)["result"].(map[string]any); res["success"] != false || res["message"] != "HTTP 503 - Service Unavailable" {
		t.Fatalf("result %v", res)
	}
	if down.count() != 1 {
		t.Fatalf("a test send was retried: %d", down.count())
	}
	rec = e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "email", "destination": "chef@trattoria.example"}, e.adminToken)
	if res := decodeJSON(t, rec)["result"].(map[string]any); res["success"] != false || res["message"] != "email is not configured (set smtp_host)" {
		t.Fatalf("result %v", res)
	}

	// Logged like any delivery, with no rule and event type "test".
	logs := decodeJSON(t, e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken))["logs"].([]any)
	if len(logs) != 3 {
		t.Fatalf("%d logs, want 3", len(logs))
	}
	failed := logs[1].(map[string]any) // most recent first: email, 503, ok
	if failed["setting_id"] != nil || failed["event_type"] != "test" || failed["status"] != "failed" ||
		failed["error"] != "HTTP 503 - Service Unavailable" || failed["destination"] != down.URL {
		t.Fatalf("log %v", failed)
	}
	if l := logs[2].(map[string]any); l["status"] != "delivered" || l["error"] != nil {
		t.Fatalf("log %v", l)
	}

	wantFieldError(t, e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "pigeon", "destination": "x"}, e.adminToken), "channel")
	wantFieldError(t, e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "sms", "destination": "12345"}, e.adminToken), "destination")
	wantFieldError(t, e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "sms"}, e.adminToken), "destination")
	if n := len(decodeJSON(t, e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken))["logs"].([]any)); n != 3 {
		t.Fatalf("a refused test request was logged: %d", n)
	}
}

func TestPublishEvent(t *testing.T) {
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Staff")
	rule := &store.NotificationSetting{RestaurantID: e.restaurant.ID, Channel: "webhook", EventType: "pos.table.call", Destination: "http://10.0.0.9/", IsEnabled: true}
	if err := e.st.CreateNotificationSetting(context.Background(), rule); err != nil {
		t.Fatal(err)
	}
	// The refused ones' types too, so one that got through would be stored.
	e.notifyOn(t, "new_order", "x")
	rec := e.do(t, "POST", "/api/events", map[string]any{"type": "pos.table.call", "data": map[string]any{"table": 7}}, staff)
	wantStatus(t, rec, http.StatusAccepted)
	ev := decodeJSON(t, rec)["event"].(map[string]any)
	if ev["type"] != "pos.table.call" || !store.ValidID(ev["id"].(string)) || ev["created_at"] != "2026-11-22T09:00:00.000Z" || len(ev) != 3 {
		t.Fatalf("event %v", ev)
	}
	ds, _ := e.st.Deliveries(context.Background(), e.restaurant.ID, store.DeliveryPending)
	if len(ds) != 1 || ds[0].SettingID != rule.ID || ds[0].EventID != ev["id"] {
		t.Fatalf("deliveries %v", ds)
	}
	for _, body := range []map[string]any{
		{"data": map[string]any{}},
		{"type": "New Order", "data": map[string]any{}},
		{"type": "", "data": map[string]any{}},
	} {
		wantFieldError(t, e.do(t, "POST", "/api/events", body, staff), "type")
	}
	for _, body := range []map[string]any{
		{"type": "new_order"},
		{"type": "new_order", "data": nil},
		{"type": "new_order", "data": []int{1}},
		{"type": "new_order", "data": "x"},
	} {
		wantFieldError(t, e.do(t, "POST", "/api/events", body, staff), "data")
	}
	wantProblem(t, e.do(t, "POST", "/api/events", map[string]any{"type": "x", "data": map[string]any{}, "extra": 1}, staff), http.StatusBadRequest, eUnknownField)
	wantProblem(t, e.do(t, "POST", "/api/events", map[string]any{"type": "x", "data": map[string]any{}}, ""), http.StatusUnauthorized, eUnauthenticated)
	if evs, _ := e.st.Events(context.Background(), e.restaurant.ID, "", 10); len(evs) != 1 {
		t.Fatalf("a refused event was stored: %d events", len(evs))
	}
}

// Defect: any staff login could post a tse_error or a daily_report and so
// send the owner a fake alarm. Events posbox raises itself are refused
// (422 event_type_reserved) and queue no delivery; the POS's contract
// types and its own "pos." names pass.
func TestPublishEventRefusesPosboxOwnTypes(t *testing.T) {
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Staff")
	ctx := context.Background()
	own := []string{store.EventShiftChange, store.EventClockIn, store.EventClockOut, store.EventDiscountExhausted,
		store.EventTSEError, store.EventTSERecovered, store.EventTSECertExpiring, store.EventDailyReport,
		store.EventLabourLawWarning, store.EventTimeEntryOpenTooLong, store.EventTest, "pos", "pos.", "table.call"}
	for _, typ := range own {
		rule := &store.NotificationSetting{RestaurantID: e.restaurant.ID, Channel: "webhook", EventType: typ, Destination: "http://10.0.0.9/", IsEnabled: true}
		if err := e.st.CreateNotificationSetting(ctx, rule); err != nil {
			t.Fatal(typ, err)
		}
		for _, tok := range []string{staff, e.adminToken} {
			rec := e.do(t, "POST", "/api/events", map[string]any{"type": typ, "data": map[string]any{"message": "TSE ausgefallen"}}, tok)
			p := wantProblem(t, rec, http.StatusUnprocessableEntity, store.EEventTypeReserved)
			if errs, _ := p["errors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["field"] != "type" {
				t.Fatalf("%s: errors %v", typ, p["errors"])
			}
		}
	}
	if ds, _ := e.st.Deliveries(ctx, e.restaurant.ID, store.DeliveryPending); len(ds) != 0 {
		t.Fatalf("a refused event queued %d deliveries", len(ds))
	}
	if evs, _ := e.st.Events(ctx, e.restaurant.ID, "", 10); len(evs) != 0 {
		t.Fatalf("a refused event was stored: %d events", len(evs))
	}
	for _, typ := range append(append([]string{}, store.POSEventTypes...), "pos.table.call", "pos.kitchen_ready") {
		want := http.StatusAccepted
		if store.IsSaleEventType(typ) {
			want = http.StatusOK // posbox raises it (tse_sale_events_test.go)
		}
		wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": typ, "data": map[string]any{}}, staff), want)
	}
}

// End to end: an admin adds a webhook rule over the API, a terminal
// publishes an event, the running dispatcher (woken by the commit) posts
// a signed webhook that the receiver verifies with the API's secret.
func TestEventThroughAPIArrivesAsSignedWebhook(t *testing.T) {
	e := newTestEnv(t)
	d := e.withNotifier(t)
	rcv := newHookReceiver(t, http.StatusOK)
	rec := e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": "payment_received",
		"is_enabled": true, "destination": rcv.URL + "/pos"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	secret := decodeJSON(t, rec)["setting"].(map[string]any)["secret"].(string)

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	defer func() { stop(); <-done }()

	_, staff := e.staff(t, "Sam Staff")
	e.saleEventsByPOS(t)
	wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": "payment_received",
		"data": map[string]any{"order_number": 7, "amount_cents": 1990, "method": "cash"}}, staff), http.StatusAccepted)

	poll.Wait(20*time.Second, func() bool { return rcv.count() > 0 })
	if rcv.count() != 1 {
		t.Fatalf("receiver got %d requests", rcv.count())
	}
	req, body := rcv.hits[0], rcv.bodies[0]
	want, _ := notify.Sign(secret, req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"), body)
	if req.Header.Get("webhook-signature") != want || req.URL.Path != "/pos" {
		t.Fatalf("signature %q, want %q", req.Header.Get("webhook-signature"), want)
	}
	if !strings.Contains(string(body), `"type":"payment_received"`) || !strings.Contains(string(body), `"amount_cents":1990`) {
		t.Fatalf("body %s", body)
	}
	// The log shows it (the log is written right after the answer).
	var logs []any
	poll.Until(t, 20*time.Second, "the log entry", func() bool {
		logs = decodeJSON(t, e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken))["logs"].([]any)
		return len(logs) == 1
	})
	if l := logs[0].(map[string]any); l["status"] != "delivered" || l["message"] != "Zahlung #7: 19,90 € (cash)" {
		t.Fatalf("log %v", l)
	}
}

// The queue is visible: a webhook that failed with 503 is pending, with
// its next attempt and the reason.
func TestDeliveriesShowWhatIsStuckAndWhy(t *testing.T) {
	e := newTestEnv(t)
	d := e.withNotifier(t)
	rcv := newHookReceiver(t, http.StatusServiceUnavailable)
	rule := &store.NotificationSetting{RestaurantID: e.restaurant.ID, Channel: "webhook", EventType: "low_stock", Destination: rcv.URL, IsEnabled: true}
	if err := e.st.CreateNotificationSetting(context.Background(), rule); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": "low_stock", "data": map[string]any{}}, e.adminToken), http.StatusAccepted)
	if _, err := d.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec := e.do(t, "GET", "/api/notifications/deliveries?status=pending", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	list := decodeJSON(t, rec)["deliveries"].([]any)
	if len(list) != 1 {
		t.Fatalf("%d pending", len(list))
	}
	got := list[0].(map[string]any)
	if got["setting_id"] != rule.ID || got["event_type"] != "low_stock" || got["attempts"] != 1.0 ||
		got["last_error"] != "HTTP 503 - Service Unavailable" || got["next_attempt_at"] != "2026-11-22T09:00:05.000Z" {
		t.Fatalf("delivery %v", got)
	}
	if n := len(decodeJSON(t, e.do(t, "GET", "/api/notifications/deliveries?status=delivered", nil, e.adminToken))["deliveries"].([]any)); n != 0 {
		t.Fatalf("%d delivered", n)
	}
	wantFieldError(t, e.do(t, "GET", "/api/notifications/deliveries?status=stuck", nil, e.adminToken), "status")
	wantFieldError(t, e.do(t, "GET", "/api/notifications/deliveries?limit=0", nil, e.adminToken), "limit")
	_, staff := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "GET", "/api/notifications/deliveries", nil, staff), http.StatusForbidden, eForbidden)
}

// End to end from the time clock: a staff member's clock-in produces a
// signed clock_in webhook.
func TestClockInArrivesAsSignedWebhook(t *testing.T) {
	e := newTestEnv(t)
	d := e.withNotifier(t)
	_, staff := e.staff(t, "Sam Staff")
	rcv := newHookReceiver(t, http.StatusOK)
	rec := e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": "clock_in",
		"is_enabled": true, "destination": rcv.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	secret := decodeJSON(t, rec)["setting"].(map[string]any)["secret"].(string)
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, staff), http.StatusCreated)
	if _, err := d.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rcv.count() != 1 {
		t.Fatalf("receiver got %d requests", rcv.count())
	}
	req, body := rcv.hits[0], rcv.bodies[0]
	want, _ := notify.Sign(secret, req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"), body)
	if req.Header.Get("webhook-signature") != want || !strings.Contains(string(body), `"type":"clock_in"`) {
		t.Fatalf("webhook %v %s", req.Header, body)
	}
	logs := decodeJSON(t, e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken))["logs"].([]any)
	if l := logs[0].(map[string]any); l["status"] != "delivered" || !strings.HasPrefix(l["message"].(string), "Sam Staff hat eingestempelt") {
		t.Fatalf("log %v", l)
	}
}
