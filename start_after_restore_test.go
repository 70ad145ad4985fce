package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"posbox/fiscal/afterrestore"
	"posbox/internal/poll"
	"posbox/replica"
	"posbox/store"
	"posbox/tse"
)

// runServe starts serve on cfg and returns its address and a stop that
// waits for it.
func runServe(t *testing.T, cfg Config) (addr string, stop func()) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- serve(ctx, cfg, quiet, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatal(err)
	}
	return addr, func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// apiCall sends one request and decodes the JSON answer.
func apiCall(t *testing.T, addr, method, path, token string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, "http://"+addr+path, r)
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
	return resp.StatusCode, m
}

// copyDir copies a folder of plain files and folders (the simulator's
// state), as the restore brings it along.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The drill with real parts: a box replicating to a folder sells two
// sales; the replica as it stood then is restored into a fresh data dir;
// the box sells one more and dies. The restored box (same simulator
// state, the restore's marker) starts, compares with the TSE, and GET
// /api/tse/after-restore lists exactly the lost sale with its amounts;
// the marker is gone.
func TestServeAfterRestoreListsTheLostSale(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	repDir := filepath.Join(t.TempDir(), "nas")
	cfg.ReplicaURL = "file://" + repDir
	if err := os.MkdirAll(repDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	pre, err := store.Open(ctx, cfg.DataDir, store.Options{BcryptCost: 4, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := pre.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := pre.CreateUser(ctx, &store.User{RestaurantID: r.ID, Email: "admin@x.example", Name: "Ada", Role: store.RoleAdmin}, "password1"); err != nil {
		t.Fatal(err)
	}
	pre.Close()

	addr, stop := runServe(t, cfg)
	login := func(addr string) string {
		_, m := apiCall(t, addr, "POST", "/api/auth/login", "", map[string]any{"email": "admin@x.example", "password": "password1"})
		return m["access_token"].(string)
	}
	tok := login(addr)
	sell := func(amount string) string {
		code, m := apiCall(t, addr, "POST", "/api/tse/transactions", tok, json.RawMessage(`{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
			"amounts_per_vat_rate":[{"vat_rate":"REDUCED_1","amount":`+amount+`}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":`+amount+`}]}`))
		if code != http.StatusCreated {
			t.Fatalf("sale: %d %v", code, m)
		}
		return m["transaction"].(map[string]any)["id"].(string)
	}
	kept := []string{sell("4.50"), sell("12.90")}

	// The replica as it stands once both sales are on it: the new box's database.
	key, err := replica.LoadKey(filepath.Join(cfg.DataDir, replica.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	restored, n := "", 0
	poll.Until(t, 30*time.Second, "both sales to reach the replica", func() bool {
		n++
		dir := filepath.Join(t.TempDir(), strconv.Itoa(n))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if replica.Restore(ctx, cfg.ReplicaURL, key, filepath.Join(dir, store.FileName)) != nil {
			return false
		}
		st, err := store.Open(ctx, dir, store.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for _, id := range kept {
			if tx, err := st.TSETransaction(ctx, r.ID, id); err != nil || tx.State != tse.TxFinished {
				return false
			}
		}
		restored = dir
		return true
	})
	lost := sell("7.99")
	stop() // the card dies; the TSE (the simulator's state) lives on
	copyDir(t, filepath.Join(cfg.DataDir, tse.SimDir), filepath.Join(restored, tse.SimDir))
	if err := afterrestore.MarkRestored(restored, time.Time{}); err != nil {
		t.Fatal(err)
	}

	cfg2 := cfg
	cfg2.DataDir, cfg2.ReplicaURL = restored, ""
	if err := cfg2.finish(); err != nil {
		t.Fatal(err)
	}
	addr, stop = runServe(t, cfg2)
	defer stop()
	tok = login(addr)
	var got map[string]any
	poll.Until(t, 30*time.Second, "the comparison with the TSE", func() bool {
		_, m := apiCall(t, addr, "GET", "/api/tse/after-restore", tok, nil)
		got, _ = m["after_restore"].(map[string]any)
		return got != nil && got["state"] == "done"
	})
	missing := got["missing"].([]any)
	if len(missing) != 1 || got["open"] != float64(1) {
		t.Fatalf("missing after the restore: %v", got)
	}
	m := missing[0].(map[string]any)
	vat := m["amounts_per_vat_rate"].([]any)
	pay := m["amounts_per_payment_type"].([]any)
	if m["id"] != lost || m["number"] != float64(3) || m["client_serial"] != "KASSE-01" || m["receipt_kind"] != "Beleg" ||
		len(vat) != 1 || vat[0].(map[string]any)["vat_rate"] != "REDUCED_1" || vat[0].(map[string]any)["amount"] != 7.99 ||
		len(pay) != 1 || pay[0].(map[string]any)["payment_type"] != "CASH" || pay[0].(map[string]any)["amount"] != 7.99 {
		t.Fatalf("the lost sale: %v", m)
	}
	if _, err := os.Stat(filepath.Join(restored, afterrestore.MarkerFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the restore's marker is still there: %v", err)
	}
}
