package replica

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"

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
			strings.Contains(st.LastError, "given up") && st.BacklogGivenUpReason == GivenUpLimit
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

// The copy of the replica's newest file keeps its transaction and every
// page, and names no WAL position, so that Litestream's next file can
// only be a complete copy (bound_backlog.go, seedFromReplica).
func TestUnpositionedCopyKeepsThePages(t *testing.T) {
	var src bytes.Buffer
	enc, err := ltx.NewEncoder(&src)
	if err != nil {
		t.Fatal(err)
	}
	h := ltx.Header{Version: ltx.Version, Flags: ltx.HeaderFlagNoChecksum, PageSize: 4096, Commit: 3, MinTXID: 7, MaxTXID: 7,
		Timestamp: 1764147600000, WALOffset: 8272, WALSize: 8240, WALSalt1: 11, WALSalt2: 22}
	if err := enc.EncodeHeader(h); err != nil {
		t.Fatal(err)
	}
	pages := map[uint32][]byte{1: bytes.Repeat([]byte{1}, 4096), 3: bytes.Repeat([]byte{3}, 4096)}
	for _, pg := range []uint32{1, 3} {
		if err := enc.EncodePage(ltx.PageHeader{Pgno: pg}, pages[pg]); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ltx.FormatFilename(7, 7))
	if err := writeUnpositioned(path, &src); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := ltx.NewDecoder(f)
	if err := dec.DecodeHeader(); err != nil {
		t.Fatal(err)
	}
	got := dec.Header()
	if got.MinTXID != 7 || got.MaxTXID != 7 || got.Commit != 3 || got.WALOffset != litestream.WALHeaderSize || got.WALSize != 0 || got.WALSalt1 != 0 || got.WALSalt2 != 0 {
		t.Fatalf("header %+v", got)
	}
	buf := make([]byte, 4096)
	n := 0
	for {
		var ph ltx.PageHeader
		if err := dec.DecodePage(&ph, buf); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf, pages[ph.Pgno]) {
			t.Errorf("page %d differs", ph.Pgno)
		}
		n++
	}
	if err := dec.Close(); err != nil || n != 2 {
		t.Fatalf("%d pages, close: %v", n, err)
	}
}

// TestGivenUpAcrossOneWALRestart is the case Litestream's own way back
// gets wrong: the changes given up were checkpointed, the WAL restarted
// once and is shorter than before, so the frame where the replica's
// newest file ended is still in it; Litestream would go on from the new
// WAL's start, and changes on pages not written since (another table
// here) would be missing on the replica. The replica must restore to
// the database.
func TestGivenUpAcrossOneWALRestart(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE receipts (id INTEGER PRIMARY KEY, total INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, BacklogMax: 1,
		BacklogCheck: 20 * time.Millisecond, RejoinAfter: 20 * time.Millisecond})
	insert(t, db, 0, 300) // a few hundred frames, fewer than a checkpoint takes
	waitReplicated(t, r)

	back := awayFolder(t, repDir)
	for i := range 20 { // appended to the WAL after the replica's newest file
		if _, err := db.Exec(`INSERT INTO receipts (id, total) VALUES (?, ?)`, i, 100*i); err != nil {
			t.Fatal(err)
		}
	}
	poll.Until(t, 60*time.Second, "the backlog to be given up", func() bool { return !r.Status().BacklogGivenUpAt.IsZero() })
	var busy, logN, ckpt int
	if err := db.QueryRow(`PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &logN, &ckpt); err != nil || busy != 0 {
		t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	insert(t, db, 300, 301) // the WAL starts over: one short transaction, other pages
	back()
	poll.Until(t, 60*time.Second, "the replica to be whole again", func() bool {
		st := r.Status()
		return st.BacklogGivenUpAt.IsZero() && st.LastError == ""
	})
	insert(t, db, 301, 302)
	waitReplicated(t, r)
	out := filepath.Join(t.TempDir(), "restored.db")
	if err := Restore(context.Background(), "file://"+repDir, key, out); err != nil {
		t.Fatal(err)
	}
	if got, want := rows(t, out), rows(t, dbPath); got != want {
		t.Errorf("restored %.40s..., want %.40s...", got, want)
	}
	rdb, err := sql.Open("sqlite", "file:"+out+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	var n int
	if err := rdb.QueryRow(`SELECT count(*) FROM receipts`).Scan(&n); err != nil || n != 20 {
		t.Fatalf("the restored replica holds %d of the 20 receipts given up (%v)", n, err)
	}
	closeWithin(t, r)
}
