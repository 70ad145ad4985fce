package replica

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"

	"posbox/internal/poll"
)

// followRows reads the follower's copy as HQ does: read-only, inside Read.
func followRows(t *testing.T, f *Follower) string {
	t.Helper()
	var s string
	err := f.Read(func(path string) error {
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
		if err != nil {
			return err
		}
		defer db.Close()
		return db.QueryRow(`SELECT count(*) || ':' || group_concat(id || '=' || name, ',') FROM (SELECT * FROM restaurants ORDER BY id)`).Scan(&s)
	})
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

func TestFollowKeepsACopyCurrentWithHQsKey(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	key, hq := newKey(t), newKey(t)

	// Before the box replicated anything: an error, no copy, no crash.
	copyPath := filepath.Join(dir, "hq", "box.db")
	os.MkdirAll(filepath.Dir(copyPath), 0o700)
	f, err := Follow(ctx, "file://"+repDir, []age.Identity{hq}, copyPath, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the follower to report the empty replica", func() bool { return f.Status().LastError != "" })
	if st := f.Status(); st.Ready {
		t.Fatalf("ready without a replica: %+v", st)
	}

	db := openDB(t, dbPath)
	r := start(t, dbPath, "file://"+repDir, Options{Identity: key, Recipients: []age.Recipient{hq.Recipient()}})
	defer r.Close(ctx)
	insert(t, db, 0, 50)
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	want := rows(t, dbPath)
	poll.Until(t, 60*time.Second, "the copy to hold the first 50 rows", func() bool { return followRows(t, f) == want })

	insert(t, db, 50, 60)
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	want = rows(t, dbPath)
	poll.Until(t, 30*time.Second, "the copy to hold the next rows", func() bool { return followRows(t, f) == want })
	poll.Until(t, 30*time.Second, "the status to clear and date the copy", func() bool {
		st := f.Status()
		return st.Ready && st.LastError == "" && !st.ReplicatedAt.IsZero() && !st.CheckedAt.IsZero()
	})
	if st := f.Status(); time.Since(st.ReplicatedAt) > time.Minute || st.ReplicatedAt.After(time.Now()) {
		t.Errorf("replicated at %v, want the last write's time", st.ReplicatedAt)
	}

	// A restart of HQ resumes the copy from its sidecar, dated again.
	cancel()
	<-f.Done()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	f2, err := Follow(ctx2, "file://"+repDir, []age.Identity{hq}, copyPath, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	insert(t, db, 60, 65)
	r.Sync(ctx2)
	want = rows(t, dbPath)
	poll.Until(t, 30*time.Second, "the resumed copy to follow", func() bool { return followRows(t, f2) == want })
	poll.Until(t, 30*time.Second, "the resumed copy to be dated", func() bool { return !f2.Status().ReplicatedAt.IsZero() })
	cancel2()
	<-f2.Done()

	// A copy the replica does not continue (its sidecar ahead of the
	// replica, as after the box was replaced) is restored fresh.
	if err := litestream.WriteTXIDFile(copyPath, 1<<40); err != nil {
		t.Fatal(err)
	}
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	f3, err := Follow(ctx3, "file://"+repDir, []age.Identity{hq}, copyPath, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the stale copy to be restored fresh", func() bool { return followRows(t, f3) == want })
	cancel3()
	<-f3.Done()
	db.Close()
}

func TestFollowWithAStrangersKeySaysSo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	dbPath := filepath.Join(dir, "posbox.db")
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, "file://"+repDir, Options{Identity: newKey(t)})
	defer r.Close(ctx)
	insert(t, db, 0, 5)
	r.Sync(ctx)
	f, err := Follow(ctx, "file://"+repDir, []age.Identity{newKey(t)}, filepath.Join(dir, "copy.db"), 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 30*time.Second, "the wrong key to show", func() bool {
		return strings.Contains(f.Status().LastError, "the key does not open")
	})
	if err := f.Read(func(string) error { return nil }); err != ErrNotReady {
		t.Errorf("Read without a copy: %v", err)
	}
}

// Over SFTP (a real sshd): HQ's copy follows; the server going away shows
// as an error with the copy still readable as it was; back, it catches up
// and the error clears.
func TestFollowOverSFTPAwayAndBack(t *testing.T) {
	tg, _ := sftpTarget(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "posbox.db")
	key, hq := newKey(t), newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, tg.url, Options{Identity: key, Recipients: []age.Recipient{hq.Recipient()}, CallTimeout: 5 * time.Second})
	defer r.Close(ctx)
	insert(t, db, 0, 20)
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	f, err := Follow(ctx, tg.url, []age.Identity{hq}, filepath.Join(dir, "hq.db"), 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	want := rows(t, dbPath)
	poll.Until(t, 60*time.Second, "the copy over SFTP", func() bool { return followRows(t, f) == want })

	tg.away()
	poll.Until(t, 60*time.Second, "the follower to report the server away", func() bool { return f.Status().LastError != "" })
	if got := followRows(t, f); got != want {
		t.Errorf("the copy while the server is away: %.60s, want %.60s", got, want)
	}
	tg.back()
	insert(t, db, 20, 30)
	poll.Until(t, 60*time.Second, "the box to upload again", func() bool { return r.Sync(ctx) == nil })
	want = rows(t, dbPath)
	poll.Until(t, 60*time.Second, "the copy to catch up and the error to clear", func() bool {
		return followRows(t, f) == want && f.Status().LastError == ""
	})
}

// A box replaced by a new one that replicates into the same, emptied
// folder starts over at transaction 1: Litestream's follow would wait
// for ever for transactions after the copy's; the follower notices the
// copy stuck ahead of the replica and restores it fresh.
func TestFollowRestoresFreshWhenTheBoxStartsOver(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	repDir := mounted(t, filepath.Join(dir, "replica"))
	key, hq := newKey(t), newKey(t)
	old := filepath.Join(dir, "old.db")
	db := openDB(t, old)
	r := start(t, old, "file://"+repDir, Options{Identity: key, Recipients: []age.Recipient{hq.Recipient()}})
	for i := range 20 {
		insert(t, db, i, i+1) // one transaction each: the old box is well ahead
	}
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	f, err := Follow(ctx, "file://"+repDir, []age.Identity{hq}, filepath.Join(dir, "hq.db"), 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	want := rows(t, old)
	poll.Until(t, 30*time.Second, "the copy of the old box", func() bool { return followRows(t, f) == want })
	r.Close(ctx)
	db.Close()

	entries, _ := os.ReadDir(repDir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(repDir, e.Name()))
	}
	fresh := filepath.Join(dir, "new.db")
	db2 := openDB(t, fresh)
	defer db2.Close()
	r2 := start(t, fresh, "file://"+repDir, Options{Identity: key, Recipients: []age.Recipient{hq.Recipient()}})
	defer r2.Close(ctx)
	insert(t, db2, 100, 103)
	if err := r2.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	want = rows(t, fresh)
	poll.Until(t, 60*time.Second, "the copy of the new box", func() bool { return followRows(t, f) == want })
}
