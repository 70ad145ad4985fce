package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"posbox/internal/poll"
)

// TestBackupDuringWrites copies the database while writers commit: every
// copy passes integrity_check and holds every row committed before the
// copy began.
func TestBackupDuringWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir, Options{BcryptCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := &Restaurant{Name: "Backup", Timezone: "Europe/Berlin"}
	if err := s.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	// A rule for the writers' type, so each event is stored (one no rule
	// wants is not written).
	notifyOn(t, s, r, "test.write")

	var committed atomic.Int64 // events acknowledged so far
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.PublishEvent(ctx, r.ID, "test.write", map[string]int{"w": w}); err != nil {
					t.Error(err)
					return
				}
				committed.Add(1)
			}
		}()
	}
	poll.Until(t, 10*time.Second, "the load under way", func() bool { return committed.Load() >= 20 })
	if err := os.Mkdir(filepath.Join(dir, "backups"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		before := committed.Load()
		dest := filepath.Join(dir, "backups", fmt.Sprintf("copy-%d.db", i))
		// Alternate the two entry points: the service's own store and the
		// CLI's separate read-only opening.
		if i%2 == 0 {
			err = s.Backup(ctx, dest)
		} else {
			err = BackupFile(ctx, s.Path(), dest)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckIntegrity(ctx, dest); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, dest, "events"); n < before {
			t.Errorf("backup %d holds %d events; %d were committed before it began", i, n, before)
		}
	}
	if committed.Load() == 0 {
		t.Fatal("no writes ran during the backups")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "backups", ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestBackupRefusesToOverwrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dest := filepath.Join(dir, "keep.db")
	if err := os.WriteFile(dest, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, dest); !errors.Is(err, ErrBackupExists) {
		t.Fatalf("got %v, want ErrBackupExists", err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "precious" {
		t.Fatalf("the existing file was changed: %q", b)
	}
}

func TestBackupFileMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	err := BackupFile(context.Background(), filepath.Join(dir, FileName), filepath.Join(dir, "b.db"))
	if err == nil {
		t.Fatal("backup of a missing database succeeded")
	}
	if _, serr := os.Stat(filepath.Join(dir, FileName)); serr == nil {
		t.Fatal("backup created an empty database")
	}
}

// TestBackupRefusesMissingFolder: a backup never creates its folder (a
// mistyped path, a USB stick that is not mounted); the error names it.
func TestBackupRefusesMissingFolder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	missing := filepath.Join(dir, "usb-stick", "posbox")
	for _, backup := range []func() error{
		func() error { return s.Backup(ctx, filepath.Join(missing, "b.db")) },
		func() error { return BackupFile(ctx, s.Path(), filepath.Join(missing, "b.db")) },
	} {
		err := backup()
		if !errors.Is(err, ErrNoFolder) || !strings.Contains(err.Error(), missing) {
			t.Fatalf("got %v, want ErrNoFolder naming %s", err, missing)
		}
		if _, err := os.Stat(filepath.Join(dir, "usb-stick")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the backup created a folder: %v", err)
		}
	}
}

// TestDatabaseAndBackupFilesArePrivate: posbox.db, its -wal and -shm, and
// every backup are mode 0600 with a umask of 0 and a data dir of mode
// 0777, and Open makes an older database's files 0600.
func TestDatabaseAndBackupFilesArePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes on Windows")
	}
	old, ok := setUmask(0)
	if !ok {
		t.Skip("no umask on " + runtime.GOOS)
	}
	defer setUmask(old)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	wantPrivate := func(paths ...string) {
		t.Helper()
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if m := fi.Mode().Perm(); m != 0o600 {
				t.Errorf("%s has mode %#o, want 0600", filepath.Base(p), m)
			}
		}
	}
	s, err := Open(ctx, dir, Options{BcryptCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateRestaurant(ctx, &Restaurant{Name: "Modes", Timezone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, FileName)
	wantPrivate(db, db+"-wal", db+"-shm") // open: the WAL files exist
	if err := s.Backup(ctx, filepath.Join(dir, "a.db")); err != nil {
		t.Fatal(err)
	}
	if err := BackupFile(ctx, db, filepath.Join(dir, "b.db")); err != nil {
		t.Fatal(err)
	}
	wantPrivate(filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"))
	s.Close()

	// A database an older posbox left readable by everyone.
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Chmod(p, 0o644) // the WAL files are gone after a clean close
	}
	s, err = Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateRestaurant(ctx, &Restaurant{Name: "Again", Timezone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	wantPrivate(db, db+"-wal", db+"-shm")
}

func countRows(tb testing.TB, path, table string) int64 {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkBackup copies a database of 20,000 events (about a month of a
// busy restaurant's activity): the time the nightly job and "posbox
// backup" take, during which writers carry on.
func BenchmarkBackup(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	s, err := Open(ctx, dir, Options{Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := &Restaurant{Name: "Bench", Timezone: "Europe/Berlin"}
	if err := s.CreateRestaurant(ctx, r); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		err := s.Write(ctx, func(tx *Tx) error {
			for j := 0; j < 1000; j++ {
				if _, err := InsertEvent(ctx, tx, r.ID, "sale.signed", map[string]any{"i": i*1000 + j, "total": "12.50", "items": []string{"Pizza", "Wasser"}}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if err := s.Backup(ctx, filepath.Join(dir, fmt.Sprintf("b%d.db", i))); err != nil {
			b.Fatal(err)
		}
	}
}

// The backup's check of its copy finds a damaged page: a copy whose
// table's pages were overwritten on the way to the disk is refused.
func TestCheckCopyFindsADamagedPage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "copy.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`PRAGMA journal_mode=DELETE`, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i, printf('row %08d', i) FROM n`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if err := CheckCopy(ctx, path); err != nil {
		t.Fatalf("the intact copy: %v", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Page 3 on is the table's b-tree; a run of garbage over two pages'
	// headers is what a torn write or a failing card leaves.
	if _, err := f.WriteAt([]byte(strings.Repeat("\xa5", 6000)), 3*4096+100); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := CheckCopy(ctx, path); err == nil {
		t.Fatal("the damaged copy passed its check")
	}
}
