package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
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
	for committed.Load() < 20 { // the load is under way
		runtime.Gosched()
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
