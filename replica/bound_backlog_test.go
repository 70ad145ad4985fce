package replica

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"posbox/internal/poll"
)

func TestBacklogLimitIsTheCapOrHalfTheFreeSpace(t *testing.T) {
	for _, c := range []struct{ max, used, free, want int64 }{
		{0, 0, -1, DefaultBacklogMax},           // free space not known
		{100 << 20, 0, 10 << 30, 100 << 20},     // the cap
		{0, 0, 1 << 30, 512 << 20},              // half the free space
		{0, 300 << 20, 100 << 20, 200 << 20},    // the backlog counts as free
		{1 << 30, 10 << 20, 10 << 20, 10 << 20}, // a nearly full disk
	} {
		if got := backlogLimit(c.max, c.used, c.free); got != c.want {
			t.Errorf("backlogLimit(%d, %d, %d) = %d, want %d", c.max, c.used, c.free, got, c.want)
		}
	}
}

// awayFolder makes a file:// replica's folder unreachable (a NAS not
// mounted: a plain file where the folder was, which stops root as well)
// and returns what brings it back.
func awayFolder(t *testing.T, repDir string) (back func()) {
	t.Helper()
	if err := os.Rename(repDir, repDir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(repDir, []byte("not mounted"), 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := os.Remove(repDir); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(repDir+".away", repDir); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBacklogOverItsBoundIsGivenUp: the replica stays away and the
// backlog outgrows a tiny bound: every write still succeeds, the backlog
// is given up (status), the WAL stays small, and once the replica is back
// a complete copy goes up: a restore equals the database, nothing doubled.
func TestBacklogOverItsBoundIsGivenUp(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, BacklogMax: 64 << 10,
		BacklogCheck: 20 * time.Millisecond, RejoinAfter: 20 * time.Millisecond})
	insert(t, db, 0, 50)
	waitReplicated(t, r)

	back := awayFolder(t, repDir)
	next := 50
	poll.Until(t, 60*time.Second, "the backlog to be given up", func() bool {
		insert(t, db, next, next+10) // the writer goes on
		next += 10
		st := r.Status()
		return !st.BacklogGivenUpAt.IsZero() && st.BacklogGivenUpBytes > 64<<10 && st.BacklogLimit == 64<<10 &&
			strings.Contains(st.LastError, "given up")
	})
	insert(t, db, next, next+2000) // sales go on while the backlog is given up
	next += 2000
	if st := r.Status(); st.BacklogFiles != 0 || st.BacklogGivenUpAt.IsZero() {
		t.Errorf("status while given up: %+v", st)
	}
	if n := dirSize(filepath.Join(dir, ".posbox.db-litestream", "ltx")); n > 64<<10 {
		t.Errorf("%d bytes of LTX files kept after the backlog was given up", n)
	}
	if fi, err := os.Stat(dbPath + "-wal"); err == nil && fi.Size() > 8<<20 {
		t.Errorf("the WAL grew to %d bytes while replication was stopped", fi.Size())
	}

	back()
	insert(t, db, next, next+10)
	next += 10
	poll.Until(t, 60*time.Second, "the replica to be whole again", func() bool {
		st := r.Status()
		return st.BacklogGivenUpAt.IsZero() && st.LastError == ""
	})
	insert(t, db, next, next+1)
	waitReplicated(t, r)
	want := rows(t, dbPath)
	restoreEquals(t, "file://"+repDir, key, want)
	closeWithin(t, r)
}

// TestReplicaAwayUnderAStreamOfWrites: a writer commits without pause
// while the replica goes away and comes back: no write is refused, and
// after the catch-up the replica restores to exactly the database, every
// row once.
func TestReplicaAwayUnderAStreamOfWrites(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, BacklogCheck: 20 * time.Millisecond})
	var written atomic.Int64
	var failed atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := db.Exec(`INSERT INTO restaurants (id, name) VALUES (?, ?)`, i, secretName); err != nil {
				failed.Store(err)
				return
			}
			written.Store(int64(i + 1))
		}
	}()
	waitFor := func(n int64) {
		t.Helper()
		at := written.Load()
		poll.Until(t, 60*time.Second, "more writes", func() bool { return written.Load() >= at+n || failed.Load() != nil })
	}
	waitFor(100)
	poll.Until(t, 60*time.Second, "a first upload", func() bool { return !r.Status().ReplicatedAt.IsZero() })
	back := awayFolder(t, repDir)
	waitFor(500)
	poll.Until(t, 60*time.Second, "the status to show the replica away and a backlog", func() bool {
		st := r.Status()
		return st.LastError != "" && st.BacklogFiles > 0
	})
	back()
	waitFor(200)
	close(stop)
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatalf("a write was refused: %v", err)
	}
	waitReplicated(t, r)
	if st := r.Status(); !st.BacklogGivenUpAt.IsZero() {
		t.Fatalf("the backlog was given up under the default bound: %+v", st)
	}
	want := rows(t, dbPath)
	if !strings.HasPrefix(want, strconv.FormatInt(written.Load(), 10)+":") {
		t.Fatalf("database holds %.20s, %d written", want, written.Load())
	}
	restoreEquals(t, "file://"+repDir, key, want)
	closeWithin(t, r)
}
