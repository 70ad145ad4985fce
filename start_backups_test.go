package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/internal/poll"
	"posbox/server"
	"posbox/store"
)

// TestBackupCommandDuringHTTPWrites runs "posbox backup" against the data
// dir of a live appliance (the real store behind the real handler) while
// admins create users over HTTP: every backup passes integrity_check and
// holds every user whose 201 arrived before the backup began.
func TestBackupCommandDuringHTTPWrites(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, dataDir, store.Options{Logger: log, BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Load", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	admin := &store.User{RestaurantID: r.ID, Email: "admin@load.test", Name: "Admin", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, admin, "password1"); err != nil {
		t.Fatal(err)
	}
	key := bytes.Repeat([]byte("k"), 32)
	tok, err := server.IssueToken(key, admin, time.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(st, server.Config{Version: "test", JWTKey: key}, log)
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	var mu sync.Mutex
	var acked []string // emails whose creation was acknowledged
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				email := fmt.Sprintf("u%d-%d@load.test", w, i)
				body := fmt.Sprintf(`{"email":%q,"name":"Load","role":"staff","password":"password1"}`, email)
				req, _ := http.NewRequest("POST", hs.URL+"/api/users", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok)
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusCreated {
					t.Errorf("create user: %d", res.StatusCode)
					return
				}
				mu.Lock()
				acked = append(acked, email)
				mu.Unlock()
			}
		})
	}
	ackedSoFar := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(acked) }
	poll.Until(t, 30*time.Second, "10 users created", func() bool { return len(ackedSoFar()) >= 10 })
	for i := range 3 {
		before := ackedSoFar()
		dest := filepath.Join(t.TempDir(), fmt.Sprintf("backup-%d.db", i))
		var out, errOut bytes.Buffer
		if code := run(ctx, []string{"backup", "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
			t.Fatalf("posbox backup: exit %d: %s", code, errOut.String())
		}
		if err := store.CheckIntegrity(ctx, dest); err != nil {
			t.Fatal(err)
		}
		in := emailsIn(t, dest)
		for _, e := range before {
			if !in[e] {
				t.Fatalf("backup %d lacks %s, acknowledged before it began", i, e)
			}
		}
		// The copy opens as a working appliance database.
		copyDir := t.TempDir()
		if err := os.Rename(dest, filepath.Join(copyDir, store.FileName)); err != nil {
			t.Fatal(err)
		}
		restored, err := store.Open(ctx, copyDir, store.Options{Logger: log})
		if err != nil {
			t.Fatalf("restored backup does not open: %v", err)
		}
		if _, err := restored.UserByEmail(ctx, admin.Email); err != nil {
			t.Fatal(err)
		}
		restored.Close()
	}
}

func TestBackupCommandRefusesToOverwrite(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	st, err := store.Open(ctx, dataDir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	dest := filepath.Join(t.TempDir(), "b.db")
	os.WriteFile(dest, []byte("older backup"), 0o600)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "already exists") {
		t.Errorf("stderr %q does not say the file exists", errOut.String())
	}
	if b, _ := os.ReadFile(dest); string(b) != "older backup" {
		t.Error("the existing file was overwritten")
	}
	if code := run(ctx, []string{"backup", "--data-dir", dataDir}, nil, &out, &errOut); code != 1 {
		t.Errorf("backup without FILE: exit %d, want 1", code)
	}
}

func emailsIn(tb testing.TB, dbPath string) map[string]bool {
	tb.Helper()
	// Read-only through database/sql: store.Open would migrate the copy.
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbPath)+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT email FROM users")
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	got := map[string]bool{}
	for rows.Next() {
		var e string
		rows.Scan(&e)
		got[e] = true
	}
	return got
}

// TestNightlyBackupIsScheduled: serve's scheduler holds the nightly job
// at 03:00 UTC, and none with backup_keep = 0.
func TestNightlyBackupIsScheduled(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := DefaultConfig()
	sched := newScheduler(log)
	startBackups(context.Background(), sched, nil, cfg, log)
	entries := sched.Entries()
	if len(entries) != 1 {
		t.Fatalf("%d jobs, want 1", len(entries))
	}
	from := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if next := entries[0].Schedule.Next(from); !next.Equal(time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("next run %s, want 2026-11-24 03:00 UTC", next)
	}
	cfg.BackupKeep = 0
	off := newScheduler(log)
	startBackups(context.Background(), off, nil, cfg, log)
	if n := len(off.Entries()); n != 0 {
		t.Errorf("backup_keep = 0 scheduled %d jobs", n)
	}
}
