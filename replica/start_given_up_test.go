package replica

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
)

// TestRestartWhileGivenUp: the backlog is given up, the box restarts
// (Litestream's local state is gone) after the WAL was restarted once,
// with the replica still away. The new run must not take Litestream's
// own way back (a hole on the replica): once the replica answers, a
// complete copy goes up and a restore holds every row given up.
func TestRestartWhileGivenUp(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE receipts (id INTEGER PRIMARY KEY, total INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	opts := Options{Identity: key, BacklogMax: 1, BacklogCheck: 20 * time.Millisecond, RejoinAfter: 20 * time.Millisecond}
	r := start(t, dbPath, "file://"+repDir, opts)
	insert(t, db, 0, 300)
	waitReplicated(t, r)

	back := awayFolder(t, repDir)
	for i := range 20 {
		if _, err := db.Exec(`INSERT INTO receipts (id, total) VALUES (?, ?)`, i, 100*i); err != nil {
			t.Fatal(err)
		}
	}
	poll.Until(t, 60*time.Second, "the backlog to be given up", func() bool { return !r.Status().BacklogGivenUpAt.IsZero() })
	closeWithin(t, r)
	var busy, logN, ckpt int
	if err := db.QueryRow(`PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &logN, &ckpt); err != nil || busy != 0 {
		t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	insert(t, db, 300, 301) // the WAL starts over: one short transaction, other pages

	r2, err := Start(context.Background(), dbPath, withURL(opts, "file://"+repDir))
	if err != nil {
		t.Fatalf("a start with the replica away must let the box sell: %v", err)
	}
	if st := r2.Status(); st.BacklogGivenUpAt.IsZero() || st.BacklogGivenUpReason != GivenUpRestart {
		t.Errorf("a start without Litestream's local state, the replica holding files, must begin given up: %+v", st)
	}
	back()
	poll.Until(t, 60*time.Second, "the replica to be whole again", func() bool {
		st := r2.Status()
		return st.BacklogGivenUpAt.IsZero() && st.LastError == ""
	})
	insert(t, db, 301, 302)
	waitReplicated(t, r2)
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
	closeWithin(t, r2)
}

func withURL(o Options, url string) Options {
	o.URL, o.SyncInterval = url, 50*time.Millisecond
	return o
}

// TestSyncDuringGiveUp: a backlog given up while a Sync is under way
// must not be closed under it: Sync would open the closed engine again,
// and its read transaction would keep SQLite from checkpointing for good.
func TestSyncDuringGiveUp(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: newKey(t), BacklogCheck: time.Hour, RejoinAfter: time.Hour})
	insert(t, db, 0, 50)
	waitReplicated(t, r)
	insert(t, db, 50, 60)
	given := make(chan struct{})
	r.syncGap = func() { // the backlog is given up right now, from the watcher
		go func() {
			defer close(given)
			r.giveUp(context.Background(), 1, GivenUpLimit, errors.New("test: given up"))
		}()
		poll.Until(t, 60*time.Second, "the give-up to finish or to wait for the Sync", func() bool {
			select {
			case <-given:
				return true
			default:
				return giveUpWaitsForALock()
			}
		})
	}
	r.Sync(context.Background())
	<-given
	var busy, logN, ckpt int
	if err := db.QueryRow(`PRAGMA wal_checkpoint(RESTART)`).Scan(&busy, &logN, &ckpt); err != nil || busy != 0 {
		t.Fatalf("a checkpoint after the backlog was given up: busy %d, %v", busy, err)
	}
	closeWithin(t, r)
}

// giveUpWaitsForALock reports whether a goroutine in giveUp waits for a
// lock.
func giveUpWaitsForALock() bool {
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "(*Replicator).giveUp(") && strings.Contains(g, "sync.(*RWMutex).Lock(") {
			return true
		}
	}
	return false
}

// TestGivenUpShowsTheLag: while the backlog is given up nothing waits
// locally, yet the replica is behind: the lag counts from its newest
// change, so monitoring is not told all is well.
func TestGivenUpShowsTheLag(t *testing.T) {
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: newKey(t), BacklogCheck: time.Hour, RejoinAfter: time.Hour})
	insert(t, db, 0, 50)
	waitReplicated(t, r)
	r.giveUp(context.Background(), 1, GivenUpLimit, errors.New("test: given up"))
	asked := time.Now()
	st := r.Status()
	if least := asked.Sub(st.ReplicatedThrough).Seconds(); st.LagSeconds < least || st.BacklogGivenUpAt.IsZero() || st.ReplicatedThrough.IsZero() {
		t.Errorf("given up: lag %.3f s, want at least %.3f s (since the replica's newest change)", st.LagSeconds, least)
	}
	closeWithin(t, r)
}
