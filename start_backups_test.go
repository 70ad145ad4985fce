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
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/server"
	"posbox/store"
	"posbox/tse"
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
	for len(ackedSoFar()) < 10 {
		runtime.Gosched()
	}
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

// TestNightlyBackupRetention: one file per UTC day, named by date, the
// newest backup_keep kept, a second run the same day changes nothing,
// and files that are not nightly backups are left alone.
func TestNightlyBackupRetention(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, t.TempDir(), store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "backups")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "before-upgrade.db"), []byte("mine"), 0o600)
	os.WriteFile(filepath.Join(dir, ".posbox-2026-01-01.db.ABCD.tmp"), []byte("crash"), 0o600)

	day := time.Date(2026, 11, 20, 2, 30, 0, 0, time.UTC)
	for i := range 5 {
		path, err := nightlyBackup(ctx, st, nightlyJob{dir: dir, keep: 3}, day.AddDate(0, 0, i), log)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "posbox-"+day.AddDate(0, 0, i).Format("2006-01-02")+".db"); path != want {
			t.Fatalf("path %s, want %s", path, want)
		}
	}
	// Same day again: kept, not replaced, not an error.
	if _, err := nightlyBackup(ctx, st, nightlyJob{dir: dir, keep: 3}, day.AddDate(0, 0, 4).Add(time.Hour), log); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"before-upgrade.db", "posbox-2026-11-22.db", "posbox-2026-11-23.db", "posbox-2026-11-24.db"}
	if !slices.Equal(names, want) {
		t.Fatalf("backup dir holds %v, want %v", names, want)
	}
	for _, n := range want[1:] {
		if err := store.CheckIntegrity(ctx, filepath.Join(dir, n)); err != nil {
			t.Error(n, err)
		}
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

// TestNightlyCompleteBackup: with a passphrase file the nightly job
// creates its missing folder and writes complete, encrypted backups
// (posbox-DATE.posbox-backup, mode 0600) that restore; database-only
// files from before the switch age out with them; a passphrase that
// cannot be read still leaves a database-only backup for the night.
func TestNightlyCompleteBackup(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dataDir, _ := seedFullDataDir(t)
	st, err := store.Open(ctx, dataDir, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "nightly", "backups") // missing: the job creates it
	job := nightlyJob{dir: dir, keep: 3, dataDir: dataDir, passphraseFile: passphraseFile(t, testPassphrase)}

	day := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	// Two nights of database-only backups before the switch.
	for i := range 2 {
		if _, err := nightlyBackup(ctx, st, nightlyJob{dir: dir, keep: 3}, day.AddDate(0, 0, i), log); err != nil {
			t.Fatal(err)
		}
	}
	for i := 2; i < 5; i++ {
		path, err := nightlyBackup(ctx, st, job, day.AddDate(0, 0, i), log)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "posbox-"+day.AddDate(0, 0, i).Format(time.DateOnly)+".posbox-backup"); path != want {
			t.Fatalf("path %s, want %s", path, want)
		}
		wantMode(t, path, 0o600)
	}
	// The same night again: kept, not an error.
	if _, err := nightlyBackup(ctx, st, job, day.AddDate(0, 0, 4).Add(time.Hour), log); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"posbox-2026-11-22.posbox-backup", "posbox-2026-11-23.posbox-backup", "posbox-2026-11-24.posbox-backup"}
	if !slices.Equal(names, want) {
		t.Fatalf("backup dir holds %v, want %v", names, want)
	}
	wantMode(t, dir, 0o700)
	restored := filepath.Join(t.TempDir(), "restored")
	var out, errOut bytes.Buffer
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", job.passphraseFile, filepath.Join(dir, want[2])}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{store.FileName, jwtKeyFile, tse.SettingsFile, tse.SimDir + "/" + simJournal} {
		if _, err := os.Stat(filepath.Join(restored, name)); err != nil {
			t.Error(err)
		}
	}

	// The passphrase file is gone: the night still gets a backup.
	job.passphraseFile = filepath.Join(t.TempDir(), "moved-away")
	path, err := nightlyBackup(ctx, st, job, day.AddDate(0, 0, 5), log)
	if err == nil || !strings.Contains(err.Error(), "database-only backup instead") {
		t.Fatalf("missing passphrase file: %v", err)
	}
	if path != filepath.Join(dir, "posbox-2026-11-25.db") || store.CheckIntegrity(ctx, path) != nil {
		t.Fatalf("fallback backup %s", path)
	}
}
