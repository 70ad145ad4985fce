//go:build linux

package replica

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"posbox/internal/diskfree"
	"posbox/internal/poll"
)

// smallDisk mounts a file system of size (tmpfs) for the test: a card
// that can really fill up. Skips where mounting is not allowed.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("a small disk cannot be mounted here (tmpfs, needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// TestFullDiskNeverStopsASale: on a real 512 MB disk, the replica away,
// commits of incompressible data go on until the backlog reaches half of
// what is free; it is given up, every commit succeeds, the disk keeps
// room, and once the replica is back it holds the database again.
func TestFullDiskNeverStopsASale(t *testing.T) {
	disk := smallDisk(t, "512m")
	repDir := mounted(t, filepath.Join(t.TempDir(), "replica"))
	dbPath := filepath.Join(disk, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, BacklogCheck: 20 * time.Millisecond, RejoinAfter: 20 * time.Millisecond})
	insert(t, db, 0, 10)
	waitReplicated(t, r)

	back := awayFolder(t, repDir)
	// 2,000 rows of 4 KB (an 8 MB database) rewritten over and over: the
	// database stays small, every commit's pages pile up as backlog.
	buf := make([]byte, 4096)
	n := 0
	sell := func(mb int) { // mb MB of changes, 256 KB a commit
		t.Helper()
		for range mb * 4 {
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			for range 64 {
				rand.Read(buf)
				if _, err := tx.Exec(`INSERT OR REPLACE INTO blobs (id, b) VALUES (?, ?)`, n%2000, buf); err != nil {
					t.Fatalf("sale %d refused: %v", n, err)
				}
				n++
			}
			if err := tx.Commit(); err != nil {
				t.Fatalf("sale refused: %v", err)
			}
		}
	}
	for st := r.Status(); st.BacklogGivenUpAt.IsZero(); st = r.Status() {
		if n > 1000<<8 { // 1 GB
			t.Fatalf("1 GB written, the backlog never given up: %+v", st)
		}
		sell(1)
	}
	free, err := diskfree.Available(disk)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Status()
	wal, err := os.Stat(dbPath + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("given up after %d MB of changes: backlog %d MB, bound %d MB, %d MB free, WAL %d MB", n>>8, st.BacklogGivenUpBytes>>20, st.BacklogLimit>>20, free>>20, wal.Size()>>20)
	// Given up for the bound (half of what is free) or the floor (64 MB
	// free), with room to spare. The WAL takes much here: commits in a
	// tight loop on a RAM disk leave SQLite no pause to restart it, with
	// or without a replica (docs/REPLICATION.md, "Checkpoints").
	if st.BacklogLimit > 256<<20 || (st.BacklogGivenUpBytes < st.BacklogLimit && st.BacklogGivenUpReason != GivenUpDiskFull) || free < 32<<20 {
		t.Errorf("bound %d, given up %d, %d free: %s", st.BacklogLimit, st.BacklogGivenUpBytes, free, st.LastError)
	}
	sell(20) // sales go on while the replica is away
	insert(t, db, 10, 20)

	back()
	poll.Until(t, 2*time.Minute, "the replica to be whole again", func() bool {
		st := r.Status()
		return st.BacklogGivenUpAt.IsZero() && st.LastError == ""
	})
	insert(t, db, 20, 21)
	waitReplicated(t, r)
	restoreEquals(t, "file://"+repDir, key, rows(t, dbPath))
	closeWithin(t, r)
}
