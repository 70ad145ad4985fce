package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
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

// The notification settings are checked when the configuration loads, so
// a typo stops the start instead of failing every delivery later.
func TestNotificationConfig(t *testing.T) {
	load := func(t *testing.T, env map[string]string) error {
		for k, v := range env {
			t.Setenv("POSBOX_"+strings.ToUpper(k), v)
		}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		_, err := loadConfig(fs, []string{"--data-dir", t.TempDir()})
		return err
	}
	if err := load(t, nil); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	cfg := DefaultConfig()
	if cfg.Language != "de" || cfg.DailyReportTime != "06:00" || cfg.WebhookAllowedHosts != "external,private,loopback" {
		t.Fatalf("defaults %+v", cfg)
	}
	for _, bad := range []map[string]string{
		{"smtp_tls": "ssl"},
		{"smtp_host": "mail.example", "smtp_from": ""},
		{"sms_provider": "nexmo"},
		{"sms_provider": "twilio", "sms_account": "AC1"},
		{"webhook_allowed_hosts": "10.0.0.0/40"},
		{"language": "fr"},
		{"daily_report_time": "6:00"},
		{"daily_report_time": "25:00"},
	} {
		t.Run(strings.Join(notifyEnvKeys(bad), ","), func(t *testing.T) {
			if err := load(t, bad); err == nil {
				t.Fatalf("%v was accepted", bad)
			}
		})
	}
	if err := load(t, map[string]string{"smtp_host": "mail.example", "smtp_from": "kasse@x.example", "smtp_tls": "tls",
		"sms_provider": "generic", "sms_url": "http://192.168.1.9:8080/send", "language": "en", "daily_report_time": "23:30"}); err != nil {
		t.Fatalf("a good configuration: %v", err)
	}
}

func notifyEnvKeys(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// serve wires the dispatcher: a rule made over HTTP and an event posted
// over HTTP reach a webhook receiver, signed, with no other start step.
func TestServeDeliversWebhooks(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies [][]byte
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, b)
		mu.Unlock()
	}))
	defer rcv.Close()

	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	// The admin exists before the start (cheap bcrypt), so bootstrap skips
	// its cost-12 hash, which takes seconds under -race.
	pre, err := store.Open(context.Background(), cfg.DataDir, store.Options{BcryptCost: 4, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := pre.CreateRestaurant(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if err := pre.CreateUser(context.Background(), &store.User{RestaurantID: r.ID, Email: "admin@x.example", Name: "Ada", Role: store.RoleAdmin}, "password1"); err != nil {
		t.Fatal(err)
	}
	pre.Close()
	ctx, stop := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() { done <- serve(ctx, cfg, log, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	call := func(method, path, token string, body any) map[string]any {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, "http://"+addr+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, m)
		}
		return m
	}
	tok := call("POST", "/api/auth/login", "", map[string]any{"email": "admin@x.example", "password": "password1"})["access_token"].(string)
	setting := call("POST", "/api/notifications/settings", tok, map[string]any{"channel": "webhook", "event_type": "low_stock",
		"is_enabled": true, "destination": rcv.URL})["setting"].(map[string]any)
	call("POST", "/api/events", tok, map[string]any{"type": "low_stock", "data": map[string]any{"name": "Tomaten"}})

	poll.Wait(20*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("receiver got %d requests", len(got))
	}
	want, _ := notify.Sign(setting["secret"].(string), got[0].Header.Get("webhook-id"), got[0].Header.Get("webhook-timestamp"), bodies[0])
	if got[0].Header.Get("webhook-signature") != want {
		t.Fatal("bad signature")
	}
}
