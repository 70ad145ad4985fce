package notify

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"posbox/store"
)

// The Go reference test vector of the Standard Webhooks spec.
func TestSignStandardWebhooksVector(t *testing.T) {
	t.Parallel()
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
}

func TestWebhookDeliveredSignedAndLogged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t)
	rule := e.rule(t, store.ChannelWebhook, "new_order", rcv.URL+"/hook")
	other := e.rule(t, store.ChannelWebhook, "low_stock", rcv.URL+"/other") // another type: no delivery
	_ = other
	ev := e.event(t, "new_order", map[string]any{"order_number": 1042, "total_cents": 4580})
	d := e.webhookDispatcher(t)

	if n := runOnce(t, d); n != 1 {
		t.Fatalf("handled %d deliveries, want 1", n)
	}
	hits := rcv.got()
	if len(hits) != 1 {
		t.Fatalf("receiver got %d requests, want 1", len(hits))
	}
	h := hits[0]
	verify(t, h, rule.Secret)
	if ts := h.Header.Get("webhook-timestamp"); ts != strconv.FormatInt(e.clock.Now().Unix(), 10) {
		t.Fatalf("webhook-timestamp %q", ts)
	}
	if ct := h.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	body := mustJSON(t, h.Body)
	if body["type"] != "new_order" || body["timestamp"] != store.FormatTime(ev.CreatedAt) {
		t.Fatalf("body %s", h.Body)
	}
	if data := body["data"].(map[string]any); data["order_number"] != float64(1042) || len(body) != 3 {
		t.Fatalf("body %s", h.Body)
	}
	logs := e.logs(t)
	if len(logs) != 1 {
		t.Fatalf("%d logs, want 1", len(logs))
	}
	l := logs[0]
	if l.Status != store.LogDelivered || l.Error != nil || *l.SettingID != rule.ID || l.Attempt != 1 ||
		l.Channel != "webhook" || l.EventType != "new_order" || l.Destination != rule.Destination {
		t.Fatalf("log %+v", l)
	}
	if *l.Message != "Neue Bestellung #1042: 45,80 €" {
		t.Fatalf("message %q", *l.Message)
	}
	if ds := e.deliveries(t); len(ds) != 1 || ds[0].Status != store.DeliveryDelivered || ds[0].Attempts != 1 {
		t.Fatalf("deliveries %+v", ds[0])
	}
	// Nothing is sent twice.
	e.clock.Add(24 * time.Hour)
	if n := runOnce(t, d); n != 0 || len(rcv.got()) != 1 {
		t.Fatal("a delivered webhook was sent again")
	}
}

func TestWebhook503Then200IsTwoAttemptsOneDelivery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusServiceUnavailable, http.StatusOK)
	rule := e.rule(t, store.ChannelWebhook, "low_stock", rcv.URL)
	e.event(t, "low_stock", map[string]any{"name": "Tomaten"})
	d := e.webhookDispatcher(t)

	runOnce(t, d)
	logs := e.logs(t)
	if len(logs) != 1 || logs[0].Status != store.LogFailed || *logs[0].Error != "HTTP 503 - Service Unavailable" || !logs[0].Temporary {
		t.Fatalf("first attempt log %+v", logs[0])
	}
	del := e.deliveries(t)[0]
	if del.Status != store.DeliveryPending || !del.NextAttemptAt.Equal(e.clock.Now().Add(5*time.Second)) {
		t.Fatalf("after 503: %+v", del)
	}
	// Not due yet: nothing happens.
	e.clock.Add(4 * time.Second)
	if n := runOnce(t, d); n != 0 {
		t.Fatalf("retried %d too early", n)
	}
	e.clock.Add(time.Second)
	runOnce(t, d)
	hits := rcv.got()
	if len(hits) != 2 {
		t.Fatalf("receiver got %d requests, want 2", len(hits))
	}
	if hits[0].Header.Get("webhook-id") != hits[1].Header.Get("webhook-id") || hits[0].Header.Get("webhook-id") != del.WebhookID {
		t.Fatal("webhook-id changed between retries")
	}
	if hits[0].Header.Get("webhook-timestamp") == hits[1].Header.Get("webhook-timestamp") {
		t.Fatal("webhook-timestamp was not refreshed for the retry")
	}
	verify(t, hits[1], rule.Secret)
	logs = e.logs(t)
	if len(logs) != 2 || logs[0].Status != store.LogDelivered || logs[0].Attempt != 2 || logs[1].Attempt != 1 {
		t.Fatalf("logs %+v %+v", logs[0], logs[1])
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryDelivered || del.Attempts != 2 {
		t.Fatalf("delivery %+v", del)
	}
}

func TestWebhookPermanentFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		want   string
	}{
		{"400", http.StatusBadRequest, "HTTP 400 - Bad Request"},
		{"404", http.StatusNotFound, "HTTP 404 - Not Found"},
		{"410", http.StatusGone, "HTTP 410 - Gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			rcv := newReceiver(t, tc.status)
			e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
			e.event(t, "new_order", map[string]any{})
			d := e.webhookDispatcher(t)
			runOnce(t, d)
			e.clock.Add(48 * time.Hour)
			runOnce(t, d)
			if n := len(rcv.got()); n != 1 {
				t.Fatalf("receiver got %d requests, want 1", n)
			}
			logs := e.logs(t)
			if len(logs) != 1 || *logs[0].Error != tc.want || logs[0].Temporary {
				t.Fatalf("logs %+v", logs)
			}
			if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed || *del.LastError != tc.want {
				t.Fatalf("delivery %+v", del)
			}
		})
	}
}

func TestWebhookRedirectIsAFailureAndNotFollowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	target := newReceiver(t)
	rcv := newReceiver(t, http.StatusFound)
	rcv.headers["Location"] = target.URL
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	e.event(t, "new_order", map[string]any{})
	runOnce(t, e.webhookDispatcher(t))
	if len(target.got()) != 0 {
		t.Fatal("the redirect was followed")
	}
	if l := e.logs(t)[0]; l.Status != store.LogFailed || *l.Error != "HTTP 302 - Found" {
		t.Fatalf("log %+v", l)
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed {
		t.Fatalf("a redirect is retried: %+v", del)
	}
}

func TestWebhookLinkLocalTargetRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.rule(t, store.ChannelWebhook, "new_order", "http://169.254.169.254/latest/meta-data")
	e.event(t, "new_order", map[string]any{})
	runOnce(t, e.webhookDispatcher(t))
	l := e.logs(t)[0]
	if l.Status != store.LogFailed || *l.Error != "blocked destination 169.254.169.254 (not allowed by webhook_allowed_hosts)" {
		t.Fatalf("log %+v", l)
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed {
		t.Fatalf("a blocked target is retried: %+v", del)
	}
}

// With an allow list of "external" only, a loopback receiver is refused
// on its resolved address, also when named "localhost".
func TestWebhookAllowListCheckedOnResolvedAddress(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	ws, err := NewWebhookSender(WebhookConfig{AllowedHosts: "external"})
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(rcv.Listener.Addr().String())
	for _, u := range []string{rcv.URL, "http://localhost:" + port + "/"} {
		err := ws.Send(context.Background(), Message{Destination: u, Body: []byte(`{}`), WebhookID: "msg_1", Now: time.Now()})
		f, ok := err.(*Failure)
		if !ok || f.Retryable || len(rcv.got()) != 0 {
			t.Fatalf("%s: err %v, hits %d", u, err, len(rcv.got()))
		}
	}
}

func TestHostListAllowed(t *testing.T) {
	t.Parallel()
	def, _ := ParseHostList("external,private,loopback")
	ext, _ := ParseHostList("external")
	all, _ := ParseHostList("*")
	custom, err := ParseHostList("10.1.0.0/16, *.corp.lan")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		list *HostList
		host string
		ip   string
		want bool
	}{
		{def, "x", "127.0.0.1", true},
		{def, "x", "::1", true},
		{def, "x", "192.168.1.20", true},
		{def, "x", "10.0.0.5", true},
		{def, "x", "93.184.216.34", true},
		{def, "x", "169.254.169.254", false}, // link-local: cloud metadata
		{def, "x", "fe80::1", false},
		{def, "x", "0.0.0.0", false},
		{def, "x", "::", false},
		{def, "x", "224.0.0.1", false},
		{def, "x", "255.255.255.255", false},
		{ext, "x", "127.0.0.1", false},
		{ext, "x", "192.168.1.20", false},
		{ext, "x", "100.64.0.1", false}, // CGNAT counts as private
		{ext, "x", "93.184.216.34", true},
		{all, "x", "10.0.0.1", true},
		{all, "x", "169.254.1.1", false}, // refused whatever the list says
		{custom, "x", "10.1.2.3", true},
		{custom, "x", "10.2.0.1", false},
		{custom, "kds.corp.lan", "192.168.5.5", true},
		{custom, "kds.other.lan", "192.168.5.5", false},
	} {
		if got := tc.list.Allowed(tc.host, net.ParseIP(tc.ip)); got != tc.want {
			t.Errorf("Allowed(%s, %s) = %v, want %v", tc.host, tc.ip, got, tc.want)
		}
	}
	if _, err := ParseHostList("10.0.0.0/99"); err == nil {
		t.Error("a bad CIDR was accepted")
	}
}

func TestWebhookRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusTooManyRequests, http.StatusOK)
	rcv.headers["Retry-After"] = "3600"
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	e.event(t, "new_order", map[string]any{})
	d := e.webhookDispatcher(t)
	start := e.clock.Now()
	runOnce(t, d)
	if del := e.deliveries(t)[0]; !del.NextAttemptAt.Equal(start.Add(time.Hour)) {
		t.Fatalf("next attempt %v, want %v", del.NextAttemptAt, start.Add(time.Hour))
	}
	e.clock.Add(59 * time.Minute)
	runOnce(t, d)
	if n := len(rcv.got()); n != 1 {
		t.Fatalf("retried before Retry-After: %d requests", n)
	}
	e.clock.Add(time.Minute)
	runOnce(t, d)
	if n := len(rcv.got()); n != 2 {
		t.Fatalf("%d requests after Retry-After, want 2", n)
	}
	if *e.logs(t)[1].Error != "HTTP 429 - Too Many Requests" {
		t.Fatalf("log %+v", e.logs(t)[1])
	}
}

// A receiver that stays down gets 8 attempts over about 20.6 hours, each
// its own log entry; then the delivery is failed for good.
func TestWebhookGivesUpAfterEightAttempts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusInternalServerError)
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	e.event(t, "new_order", map[string]any{})
	d := e.webhookDispatcher(t)
	start := e.clock.Now()
	for i := 0; i < 12; i++ { // jump to each due retry, a few more times than needed
		runOnce(t, d)
		if del := e.deliveries(t)[0]; del.Status == store.DeliveryPending {
			e.clock.Set(del.NextAttemptAt)
		}
	}
	if span := e.clock.Now().Sub(start); span < 20*time.Hour || span > 21*time.Hour {
		t.Fatalf("the last attempt came %v after the first, want about 20.6 h", span)
	}
	e.clock.Add(48 * time.Hour)
	runOnce(t, d)
	if n := len(rcv.got()); n != 8 {
		t.Fatalf("%d attempts, want 8", n)
	}
	logs := e.logs(t)
	if len(logs) != 8 || logs[0].Attempt != 8 || *logs[0].Error != "HTTP 500 - Internal Server Error" {
		t.Fatalf("logs: %d, newest %+v", len(logs), logs[0])
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed || del.Attempts != 8 {
		t.Fatalf("delivery %+v", del)
	}
}

func TestWebhookNetworkErrorIsRetried(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	e.rule(t, store.ChannelWebhook, "new_order", "http://"+addr+"/")
	e.event(t, "new_order", map[string]any{})
	runOnce(t, e.webhookDispatcher(t))
	l := e.logs(t)[0]
	if l.Status != store.LogFailed || !l.Temporary {
		t.Fatalf("log %+v", l)
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryPending {
		t.Fatalf("a network error is not retried: %+v", del)
	}
}
