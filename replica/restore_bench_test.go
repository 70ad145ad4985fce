package replica

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkRestoreDataDir measures what a new box waits for: a whole data
// dir restored from a file:// replica, the database and the archive
// (issue 21's target: 1 GB and 2 GB in under 5 minutes). The data is
// incompressible, as a signed archive is; the database exists before
// replication starts, so Litestream's first upload is one snapshot, as
// on a box that switches replication on in its tenth year. Sizes in MB:
// POSBOX_BENCH_RESTORE_DB_MB (1024), POSBOX_BENCH_RESTORE_ARCHIVE_MB (2048).
//
//	go test ./replica -run '^$' -bench RestoreDataDir -benchtime=1x -timeout 30m
func BenchmarkRestoreDataDir(b *testing.B) {
	dbMB, archiveMB := envMB(b, "POSBOX_BENCH_RESTORE_DB_MB", 1024), envMB(b, "POSBOX_BENCH_RESTORE_ARCHIVE_MB", 2048)
	ctx := context.Background()
	dataDir := b.TempDir()
	dbPath := filepath.Join(dataDir, "posbox.db")
	fillDatabase(b, dbPath, dbMB)
	fillArchive(b, dataDir, archiveMB)
	nas := mounted(b, filepath.Join(b.TempDir(), "nas"))
	url := "file://" + nas
	key := newKey(b)

	db := openDB(b, dbPath)
	defer db.Close()
	began := time.Now()
	r := start(b, dbPath, url, Options{Identity: key, CallTimeout: time.Minute, DataDir: dataDir, Include: goesAlong, FilesInterval: time.Hour})
	if err := r.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	if err := r.SyncFiles(ctx); err != nil {
		b.Fatal(err)
	}
	uploaded := time.Since(began)
	if err := r.Close(ctx); err != nil {
		b.Fatal(err)
	}

	b.ResetTimer()
	var took time.Duration
	for i := 0; i < b.N; i++ {
		dest := filepath.Join(b.TempDir(), "fresh")
		t0 := time.Now()
		res, err := RestoreDataDir(ctx, url, key, dest)
		if err != nil {
			b.Fatal(err)
		}
		took = time.Since(t0)
		if res.Bytes < int64(archiveMB)<<20 {
			b.Fatalf("restored %d bytes of files, the archive alone is %d MB", res.Bytes, archiveMB)
		}
		st, err := os.Stat(filepath.Join(dest, "posbox.db"))
		if err != nil || st.Size() < int64(dbMB)<<20*9/10 {
			b.Fatalf("restored database: %v %v", st, err)
		}
		os.RemoveAll(dest)
	}
	b.StopTimer()
	b.ReportMetric(took.Seconds(), "restore-s")
	b.ReportMetric(float64(dbMB+archiveMB)/took.Seconds(), "restore-MB/s")
	b.ReportMetric(uploaded.Seconds(), "first-upload-s")
}

func envMB(b *testing.B, name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want a number of MB", name, v)
		}
		return n
	}
	return def
}

// fillDatabase grows a database to about mb MB of 4 KiB rows.
func fillDatabase(b *testing.B, path string, mb int) {
	b.Helper()
	db := openDB(b, path)
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE history (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	rng := rand.NewChaCha8([32]byte{1})
	row := make([]byte, 4096)
	rows := mb << 20 / len(row)
	for done := 0; done < rows; {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 2000 && done < rows; i, done = i+1, done+1 {
			rng.Read(row)
			if _, err := tx.Exec(`INSERT INTO history (data) VALUES (?)`, row); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	checkpoint(b, db)
}

func checkpoint(b *testing.B, db *sql.DB) {
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
}

// fillArchive writes mb MB of archive files of 64 MB each, as the
// monthly TSE exports of a busy restaurant's years.
func fillArchive(b *testing.B, dataDir string, mb int) {
	b.Helper()
	rng := rand.NewChaCha8([32]byte{2})
	for i := 0; mb > 0; i++ {
		n := min(mb, 64)
		p := filepath.Join(dataDir, "archive", fmt.Sprintf("%04d", 2017+i/12), fmt.Sprintf("export-%03d.tar", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.CopyN(f, rng, int64(n)<<20); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		mb -= n
	}
}
