package replica

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
	_ "modernc.org/sqlite"

	"posbox/internal/poll"
)

const secretName = "Zur goldenen Gans"

// openDB opens a real SQLite database as posbox's store does (WAL, the
// modernc driver, pragmas in the DSN).
func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS restaurants (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return db
}

func insert(t testing.TB, db *sql.DB, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if _, err := db.Exec(`INSERT INTO restaurants (id, name) VALUES (?, ?)`, i, fmt.Sprintf("%s %d", secretName, i)); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
}

func rows(t testing.TB, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRow(`SELECT count(*) || ':' || group_concat(id || '=' || name, ',') FROM (SELECT * FROM restaurants ORDER BY id)`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// mounted makes the replica's folder, as a technician does once on the
// mounted share.
func mounted(t testing.TB, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func start(t testing.TB, dbPath, url string, opts Options) *Replicator {
	t.Helper()
	opts.URL = url
	if opts.SyncInterval == 0 {
		opts.SyncInterval = 50 * time.Millisecond
	}
	r, err := Start(context.Background(), dbPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReplicatesEncryptedAndRestores(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key, hq := newKey(t), newKey(t)
	db := openDB(t, dbPath)
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, Recipients: []age.Recipient{hq.Recipient()}})
	insert(t, db, 0, 200)
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	want := rows(t, dbPath)
	if st := r.Status(); st.ReplicatedAt.IsZero() || st.LastError != "" || st.BacklogFiles != 0 {
		t.Errorf("status after sync: %+v", st)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	db.Close()

	objects := 0
	filepath.WalkDir(repDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		objects++
		if !bytes.HasPrefix(b[stubSize:], []byte(ageMagic)) || bytes.Contains(b, []byte(secretName)) {
			t.Errorf("%s is not stub + age file, or shows a name", p)
		}
		return nil
	})
	if objects == 0 {
		t.Fatal("nothing on the replica")
	}
	for name, id := range map[string]*age.X25519Identity{"box key": key, "HQ key": hq} {
		out := filepath.Join(dir, "restored-"+strings.ReplaceAll(name, " ", "-")+".db")
		if err := Restore(ctx, "file://"+repDir, id, out); err != nil {
			t.Fatalf("restore with the %s: %v", name, err)
		}
		if got := rows(t, out); got != want {
			t.Errorf("restored with the %s: %.80s..., want %.80s...", name, got, want)
		}
	}
	err := Restore(ctx, "file://"+repDir, newKey(t), filepath.Join(dir, "stranger.db"))
	if err == nil || !strings.Contains(err.Error(), "the key does not open") {
		t.Errorf("restore with a stranger's key: %v", err)
	}
	if err := Restore(ctx, "file://"+repDir, key, dbPath); err == nil {
		t.Error("restore over an existing database succeeded")
	}
}

// TestTargetAwayAndBack: the replica's folder goes away (an unmounted
// NAS: a plain file where the folder was, which stops root as well as
// anyone), the writer goes on, the status shows the error and a backlog;
// once back, everything arrives once.
func TestTargetAwayAndBack(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key})
	insert(t, db, 0, 50)
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repDir, repDir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(repDir, []byte("not mounted"), 0o600); err != nil {
		t.Fatal(err)
	}
	insert(t, db, 50, 150) // fails the test on any error to the writer
	poll.Until(t, 30*time.Second, "the status to show the failed uploads and a backlog", func() bool {
		st := r.Status()
		return st.LastError != "" && !st.ErrorSince.IsZero() && st.BacklogFiles > 0 && st.BacklogBytes > 0 && st.LagSeconds >= 0
	})
	if err := os.Remove(repDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repDir+".away", repDir); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 60*time.Second, "the backlog to be uploaded", func() bool {
		st := r.Status()
		return st.LastError == "" && st.BacklogFiles == 0
	})
	want := rows(t, dbPath)
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "restored.db")
	if err := Restore(ctx, "file://"+repDir, key, out); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, out); got != want || !strings.HasPrefix(got, "150:") {
		t.Errorf("restored %.60s..., want %.60s...", got, want)
	}
}

// TestMissingFolderIsNotMade: a file:// replica whose folder is missing
// (a NAS not mounted) is not created on the box's own disk; the status
// says why nothing is uploaded.
func TestMissingFolderIsNotMade(t *testing.T) {
	dir := t.TempDir()
	repDir := filepath.Join(dir, "mnt", "nas", "posbox")
	dbPath := filepath.Join(dir, "posbox.db")
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: newKey(t)})
	defer func() {
		// The last upload fails too; Close gives up when ctx ends.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		r.Close(ctx)
	}()
	insert(t, db, 0, 10)
	poll.Until(t, 30*time.Second, "the status to name the missing folder", func() bool {
		st := r.Status()
		// A first start: no local state, and the replica cannot be asked
		// whether it holds files: it waits given up (start_given_up.go).
		return strings.Contains(st.LastError, "is missing") && st.BacklogGivenUpReason == GivenUpRestart
	})
	if _, err := os.Stat(filepath.Join(dir, "mnt")); err == nil {
		t.Error("the replica's folder was created on the box")
	}
}

// TestStartsWithTheReplicaAway: a box that boots while its SFTP server
// cannot be reached starts anyway, its writes go on, and the status says
// why nothing is uploaded. (Until Litestream first reaches the replica it
// makes no LTX files: what waits is in the WAL, so no backlog shows.)
func TestStartsWithTheReplicaAway(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "posbox.db")
	db := openDB(t, dbPath)
	defer db.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	r := start(t, dbPath, "sftp://posbox@"+addr+"/replica", Options{Identity: newKey(t)})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		r.Close(ctx)
	}()
	insert(t, db, 0, 10)
	if st := r.Status(); !strings.Contains(st.LastError, "connection refused") || st.ErrorSince.IsZero() || !st.ReplicatedAt.IsZero() {
		t.Errorf("status %+v", st)
	}
}

// TestCompactedReplicaRestores: Litestream's compaction reads the
// encrypted L0 files back and writes merged ones (L1, the snapshot); a
// replica whose L0 files L1 covers are gone, as retention leaves it,
// still restores.
func TestCompactedReplicaRestores(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key})
	for i := range 5 {
		insert(t, db, i*300, (i+1)*300) // 1,500 rows over several L0 files
		if err := r.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, lvl := range []*litestream.CompactionLevel{levels[1], r.store.SnapshotLevel()} {
		// Too early: the store's own monitor compacted in this interval.
		if _, err := r.store.CompactDB(ctx, r.db, lvl); err != nil && !errors.Is(err, litestream.ErrCompactionTooEarly) {
			t.Fatalf("compact to level %d: %v", lvl.Level, err)
		}
	}
	want := rows(t, dbPath)
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Retention's part: the L0 files that L1 covers go.
	var l1Max ltx.TXID
	l1, err := os.ReadDir(filepath.Join(repDir, "ltx", "1"))
	if err != nil || len(l1) == 0 {
		t.Fatalf("no level 1 files: %v", err)
	}
	for _, e := range l1 {
		if _, maxTXID, err := ltx.ParseFilename(e.Name()); err == nil {
			l1Max = max(l1Max, maxTXID)
		}
	}
	l0, _ := os.ReadDir(filepath.Join(repDir, "ltx", "0"))
	removed := 0
	for _, e := range l0 {
		if _, maxTXID, err := ltx.ParseFilename(e.Name()); err == nil && maxTXID <= l1Max {
			removed++
			if err := os.Remove(filepath.Join(repDir, "ltx", "0", e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if removed == 0 {
		t.Fatal("L1 covers no L0 file")
	}
	out := filepath.Join(dir, "restored.db")
	if err := Restore(ctx, "file://"+repDir, key, out); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, out); got != want || !strings.HasPrefix(got, "1500:") {
		t.Errorf("restored %.40s..., want %.40s...", got, want)
	}
}
