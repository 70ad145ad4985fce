package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/internal/poll"
	"posbox/replica"
	"posbox/store"
)

// With replica_url set, serve makes the recovery key and replicates: a
// user created over HTTP is in a database restored from the replica.
func TestServeReplicatesTheDatabase(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	repDir := filepath.Join(t.TempDir(), "nas")
	cfg.ReplicaURL = "file://" + repDir
	if err := os.MkdirAll(repDir, 0o700); err != nil { // the NAS share, mounted
		t.Fatal(err)
	}
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pre, err := store.Open(context.Background(), cfg.DataDir, store.Options{BcryptCost: 4, Logger: quiet})
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
	go func() { done <- serve(ctx, cfg, quiet, ready) }()
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
	post := func(path, token string, body any) map[string]any {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", "http://"+addr+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v", path, resp.StatusCode, m)
		}
		return m
	}
	tok := post("/api/auth/login", "", map[string]any{"email": "admin@x.example", "password": "password1"})["access_token"].(string)
	post("/api/users", tok, map[string]any{"email": "bruno@x.example", "name": "Bruno", "role": store.RoleStaff, "password": "password2"})

	keyFile := filepath.Join(cfg.DataDir, replica.KeyFile)
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("recovery key: %v %v", fi, err)
	}
	key, err := replica.LoadKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	poll.Until(t, 30*time.Second, "the new user to reach the replica", func() bool {
		n++
		dir := filepath.Join(t.TempDir(), strconv.Itoa(n))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := replica.Restore(context.Background(), cfg.ReplicaURL, key, filepath.Join(dir, store.FileName)); err != nil {
			return false
		}
		st, err := store.Open(context.Background(), dir, store.Options{Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		u, err := st.UserByEmail(context.Background(), "bruno@x.example")
		return err == nil && u.Name == "Bruno"
	})

	// The admin sees it: on, where to, the recovery key's public half, uploaded.
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/replica", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct{ Replica map[string]any }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	st := got.Replica
	if st["enabled"] != true || st["url"] != cfg.ReplicaURL || st["public_key"] != key.Recipient().String() || st["replicated_at"] == nil || st["last_error"] != nil {
		t.Fatalf("GET /api/replica: %v", st)
	}
}

// Replication's settings are checked when the configuration loads.
func TestReplicaConfig(t *testing.T) {
	key, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, recipients string
		ok              bool
	}{
		{"", "", true},
		{"file:///mnt/nas/posbox", "", true},
		{"sftp://posbox@nas.local:22/posbox?key=/etc/posbox/id_ed25519", key.Recipient().String(), true},
		{"s3://bucket/box1?endpoint=https://s3.example&region=eu-central-1", "", true},
		{"ftp://nas/posbox", "", false},
		{"sftp://nas.local/posbox", "", false}, // no user
		{"file:///mnt/nas/posbox", "AGE-SECRET-KEY-1XYZ", false},
		{"", key.Recipient().String(), false},
	} {
		cfg := DefaultConfig()
		cfg.DataDir, cfg.ReplicaURL, cfg.ReplicaRecipients = t.TempDir(), c.url, c.recipients
		if err := cfg.finish(); (err == nil) != c.ok {
			t.Errorf("replica_url %q, replica_recipients %q: %v", c.url, c.recipients, err)
		}
	}
}
