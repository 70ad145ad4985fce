package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/internal/replicatest"
	"posbox/replica"
	"posbox/store"
)

// hqClient speaks to a running box or HQ over HTTP.
type hqClient struct {
	t     *testing.T
	addr  string
	token string
}

func (c *hqClient) call(method, path string, body any) map[string]any {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, "http://"+c.addr+path, r)
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	if resp.StatusCode >= 300 {
		c.t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, m)
	}
	return m
}

func (c *hqClient) login(email, password string) {
	c.token = c.call("POST", "/api/auth/login", map[string]any{"email": email, "password": password})["access_token"].(string)
}

// sell records a sale of the given gross amounts per VAT rate, paid cash.
func (c *hqClient) sell(vat map[string]string) {
	c.t.Helper()
	var lines []any
	var cents int64
	for rate, amt := range vat {
		lines = append(lines, map[string]any{"vat_rate": rate, "amount": json.Number(amt)})
		var whole, frac int64
		p, q, _ := strings.Cut(amt, ".")
		for _, d := range p {
			whole = whole*10 + int64(d-'0')
		}
		for _, d := range (q + "00")[:2] {
			frac = frac*10 + int64(d-'0')
		}
		cents += whole*100 + frac
	}
	total := json.Number(fmt.Sprintf("%d.%02d", cents/100, cents%100))
	c.call("POST", "/api/tse/transactions", map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": lines, "amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": total}}})
}

// startHQBox runs a real box (serve) with a restaurant and its admin,
// replicating to repURL encrypted to HQ's key as well.
func startHQBox(t *testing.T, name, repURL, hqPublic string) (*hqClient, func()) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	cfg.ReplicaURL, cfg.ReplicaRecipients = repURL, hqPublic
	if dir, ok := strings.CutPrefix(repURL, "file://"); ok {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pre, err := store.Open(context.Background(), cfg.DataDir, store.Options{BcryptCost: 4, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := &store.Restaurant{Name: name, Timezone: "Europe/Berlin"}
	if err := pre.CreateRestaurant(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if err := pre.CreateUser(context.Background(), &store.User{RestaurantID: r.ID, Email: "admin@x.example", Name: "Chef " + name, Role: store.RoleAdmin}, "password1"); err != nil {
		t.Fatal(err)
	}
	pre.Close()
	addr, stop := runUntilCleanup(t, func(ctx context.Context, ready chan<- string) error { return serve(ctx, cfg, quiet, ready) })
	c := &hqClient{t: t, addr: addr}
	c.login("admin@x.example", "password1")
	return c, stop
}

// runUntilCleanup runs a server until stop or the test's end and
// returns its address.
func runUntilCleanup(t *testing.T, run func(ctx context.Context, ready chan<- string) error) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- run(ctx, ready) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(stop)
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	return addr, stop
}

// objects fingerprints every file below dir: name, size, mode, time, content.
func objects(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, _ := d.Info()
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		out[p] = fi.Mode().String() + " " + fi.ModTime().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	return out
}

// Two real boxes replicate, one to a folder, one to a real SFTP server;
// HQ follows both and a third
// replica that does not answer: it lists both boxes with their sales per
// VAT rate and the chain's totals, the dead one as an error; a new sale
// shows at HQ; HQ changes nothing in the replicas.
func TestHQFollowsTwoBoxes(t *testing.T) {
	hqDir := t.TempDir()
	hqKey, _, err := replica.LoadOrCreateHQKey(hqDir)
	if err != nil {
		t.Fatal(err)
	}
	repA := filepath.Join(t.TempDir(), "nord")
	sftpd := replicatest.SFTP(t)
	repB := sftpd.Dir
	urlA := "file://" + repA
	urlB := sftpd.URL + "?key=" + url.QueryEscape(sftpd.KeyPath) + "&host-key=" + url.QueryEscape(sftpd.HostKey)
	a, stopA := startHQBox(t, "Trattoria Nord", urlA, hqKey.Recipient().String())
	b, stopB := startHQBox(t, "Trattoria Süd", urlB, hqKey.Recipient().String())
	a.sell(map[string]string{"NORMAL": "10.00"})
	a.sell(map[string]string{"NORMAL": "5.95", "REDUCED_1": "12.90"})
	b.sell(map[string]string{"REDUCED_1": "7.00"})
	a.call("POST", "/api/shifts/clock-in", nil)

	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.TLS = "127.0.0.1:0", hqDir, "off"
	cfg.HQFollow = listValue{urlA, urlB, "sftp://hq@127.0.0.1:1/posbox"}
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	addr, _ := runUntilCleanup(t, func(ctx context.Context, ready chan<- string) error { return serveHQ(ctx, cfg, quiet, ready) })
	hq := &hqClient{t: t, addr: addr}
	pw, err := os.ReadFile(filepath.Join(hqDir, adminPasswordFile))
	if err != nil {
		t.Fatalf("HQ's first admin: %v", err)
	}
	hq.login(cfg.AdminEmail, strings.TrimSpace(string(pw)))
	if h := hq.call("GET", "/api/health", nil); h["mode"] != "hq" {
		t.Fatalf("health: %v", h)
	}
	if r := hq.call("GET", "/api/restaurant", nil)["restaurant"].(map[string]any); r["name"] != hqName {
		t.Errorf("HQ's own record: %v", r)
	}

	type chain struct {
		Restaurants []map[string]any
		Totals      map[string]any
	}
	get := func() chain {
		var c chain
		raw, _ := json.Marshal(hq.call("GET", "/api/hq/restaurants", nil)["chain"])
		json.Unmarshal(raw, &c)
		return c
	}
	sales := func(m map[string]any) map[string]any {
		s, _ := m["sales"].(map[string]any)
		return s
	}
	var c chain
	poll.Until(t, 60*time.Second, "HQ to show both boxes' sales", func() bool {
		c = get()
		return len(c.Restaurants) == 3 && sales(c.Restaurants[0])["count"] == 2.0 && sales(c.Restaurants[1])["count"] == 1.0 &&
			c.Restaurants[2]["error_kind"] != nil
	})
	nord, sued, dead := c.Restaurants[0], c.Restaurants[1], c.Restaurants[2]
	if nord["name"] != "Trattoria Nord" || sales(nord)["gross"] != 28.85 || sued["name"] != "Trattoria Süd" || sales(sued)["gross"] != 7.0 {
		t.Errorf("restaurants: %v / %v", nord, sued)
	}
	wantVAT := func(where string, s map[string]any, want map[string]float64) {
		got := map[string]float64{}
		for _, v := range s["by_vat_rate"].([]any) {
			m := v.(map[string]any)
			got[m["vat_rate"].(string)] = m["gross"].(float64)
		}
		if len(got) != len(want) {
			t.Errorf("%s per VAT rate %v, want %v", where, got, want)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s %s = %v, want %v", where, k, got[k], w)
			}
		}
	}
	wantVAT("Nord", sales(nord), map[string]float64{"NORMAL": 15.95, "REDUCED_1": 12.9})
	wantVAT("chain", c.Totals["sales"].(map[string]any), map[string]float64{"NORMAL": 15.95, "REDUCED_1": 19.9})
	if c.Totals["sales"].(map[string]any)["gross"] != 35.85 || c.Totals["reporting"] != 2.0 || c.Totals["with_errors"] != 1.0 || c.Totals["clocked_in"] != 1.0 {
		t.Errorf("totals: %v", c.Totals)
	}
	if in := nord["clocked_in"].([]any); len(in) != 1 || in[0].(map[string]any)["user_name"] != "Chef Trattoria Nord" {
		t.Errorf("clocked in: %v", in)
	}
	if nord["replicated_at"] == nil || nord["lag_seconds"] == nil || nord["error"] != nil {
		t.Errorf("Nord's copy: replicated_at %v lag %v error %v", nord["replicated_at"], nord["lag_seconds"], nord["error"])
	}
	if dead["error_kind"] != "unreachable" || dead["name"] != nil || dead["sales"] != nil {
		t.Errorf("the dead replica: %v", dead)
	}

	// A new sale on a box shows at HQ.
	b.sell(map[string]string{"NORMAL": "2.50"})
	poll.Until(t, 30*time.Second, "the new sale to show at HQ", func() bool {
		c = get()
		return c.Totals["sales"].(map[string]any)["gross"] == 38.35
	})

	// HQ never writes to a box's replica: with the boxes stopped (their
	// last upload made), HQ polls both replicas again and no object
	// changed, none came or went.
	stopA()
	stopB()
	before := map[string]map[string]string{repA: objects(t, repA), repB: objects(t, repB)}
	mark := time.Now()
	poll.Until(t, 30*time.Second, "HQ to poll both replicas again", func() bool {
		c = get()
		for _, r := range c.Restaurants[:2] {
			s, _ := r["checked_at"].(string)
			at, _ := time.Parse(time.RFC3339Nano, s)
			if !at.After(mark) {
				return false
			}
		}
		return true
	})
	for dir, was := range before {
		if now := objects(t, dir); !maps.Equal(now, was) || len(now) == 0 {
			t.Errorf("the replica %s changed while HQ followed it (%d objects before, %d after)", dir, len(was), len(now))
		}
	}
}
