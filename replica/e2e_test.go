package replica

import (
	"bytes"
	"context"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/internal/poll"
	"posbox/internal/replicatest"
)

// target is a real replica server as a test drives it.
type target struct {
	url  string // with the key files the engine takes
	dir  string // the server's folder on disk
	away func() // the target unreachable
	back func()
}

func sftpTarget(t testing.TB) (target, *replicatest.SFTPServer) {
	s := replicatest.SFTP(t)
	u := s.URL + "?key=" + url.QueryEscape(s.KeyPath) + "&host-key=" + url.QueryEscape(s.HostKey)
	return target{url: u, dir: s.Dir, away: s.Stop, back: s.Start}, s
}

// s3Target hands the credentials over as files, as an appliance keeps them.
func s3Target(t *testing.T) target {
	s := replicatest.S3(t)
	dir := t.TempDir()
	ak, sk := filepath.Join(dir, "s3.access"), filepath.Join(dir, "s3.secret")
	for f, v := range map[string]string{ak: s.AccessKey + "\n", sk: s.SecretKey + "\n"} {
		if err := os.WriteFile(f, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	t.Setenv("AWS_CA_BUNDLE", os.Getenv("AWS_CA_BUNDLE")) // restored after the engine drops it
	u := s.URL + "&access-key-file=" + url.QueryEscape(ak) + "&secret-key-file=" + url.QueryEscape(sk)
	return target{url: u, dir: s.Dir, away: s.Stop, back: s.Start}
}

// waitReplicated waits until the status shows everything committed
// before it was called on the replica.
func waitReplicated(t *testing.T, r *Replicator) {
	t.Helper()
	committed := time.Now()
	poll.Until(t, 60*time.Second, "the status to show the last write replicated", func() bool {
		st := r.Status()
		return !st.ReplicatedThrough.Before(committed.Truncate(time.Millisecond)) && st.LastError == "" && st.BacklogFiles == 0
	})
}

// assertEncrypted fails when an object in the server's folder shows a
// restaurant's name.
func assertEncrypted(t *testing.T, dir string) {
	t.Helper()
	objects := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ltx") {
			return err
		}
		b, _ := os.ReadFile(p)
		objects++
		if bytes.Contains(b, []byte(secretName)) {
			t.Errorf("%s shows a name in plaintext", p)
		}
		return nil
	})
	if objects == 0 {
		t.Fatalf("no LTX objects below %s", dir)
	}
}

// restoreEquals restores the replica at u into a fresh path and compares
// its rows with want (whose count starts it: nothing doubled, nothing lost).
func restoreEquals(t *testing.T, u string, key age.Identity, want string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "restored.db")
	if err := Restore(context.Background(), u, key, out); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if got := rows(t, out); got != want {
		t.Errorf("restored %.60s..., want %.60s...", got, want)
	}
}

func TestEndToEndSFTP(t *testing.T) {
	tg, _ := sftpTarget(t)
	endToEnd(t, tg)
}

func TestEndToEndS3(t *testing.T) {
	endToEnd(t, s3Target(t))
}

// endToEnd: writes replicate encrypted and restore; the target goes
// away while the writer goes on, the status shows it, and once back
// everything arrives once.
func endToEnd(t *testing.T, tg target) {
	dbPath := filepath.Join(t.TempDir(), "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, tg.url, Options{Identity: key, CallTimeout: 5 * time.Second})
	insert(t, db, 0, 100)
	waitReplicated(t, r)
	restoreEquals(t, tg.url, key, rows(t, dbPath))
	assertEncrypted(t, tg.dir)

	tg.away()
	insert(t, db, 100, 200) // fails the test on any error to the writer
	poll.Until(t, 60*time.Second, "the status to show the target away and a backlog", func() bool {
		st := r.Status()
		return st.LastError != "" && !st.ErrorSince.IsZero() && st.BacklogFiles > 0
	})
	tg.back()
	insert(t, db, 200, 210)
	waitReplicated(t, r)
	want := rows(t, dbPath)
	if !strings.HasPrefix(want, "210:") {
		t.Fatalf("database holds %.20s", want)
	}
	restoreEquals(t, tg.url, key, want)
	closeWithin(t, r)
}

// closeWithin closes r, failing the test if Close does not return while
// the box would still be allowed to stop. Its ctx is longer: the bound
// tested is the engine's own (shutdownSync, CallTimeout).
func closeWithin(t *testing.T, r *Replicator) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		done <- r.Close(ctx)
	}()
	closed := false
	poll.Until(t, 60*time.Second, "Close to return", func() bool {
		select {
		case <-done:
			closed = true
		default:
		}
		return closed
	})
}

// TestSFTPServerHangs: an SFTP server that stops answering (frozen, or
// packets dropped) blocks Litestream's client forever; the engine gives
// the call up, the writer goes on, the status says so, replication
// resumes once the server answers, and Close at shutdown returns while
// it hangs.
func TestSFTPServerHangs(t *testing.T) {
	tg, s := sftpTarget(t)
	dbPath := filepath.Join(t.TempDir(), "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, tg.url, Options{Identity: key, CallTimeout: time.Second})
	insert(t, db, 0, 50)
	waitReplicated(t, r)

	s.Pause()
	insert(t, db, 50, 100)
	poll.Until(t, 60*time.Second, "the status to show the server not answering and a backlog", func() bool {
		st := r.Status()
		return strings.Contains(st.LastError, "not answering") && st.BacklogFiles > 0
	})
	s.Resume()
	insert(t, db, 100, 110)
	waitReplicated(t, r)
	restoreEquals(t, tg.url, key, rows(t, dbPath))

	s.Pause()
	insert(t, db, 110, 120)
	closeWithin(t, r)
	s.Resume()
	out := filepath.Join(t.TempDir(), "restored.db")
	if err := Restore(context.Background(), tg.url, key, out); err != nil {
		t.Fatalf("restore after the hang: %v", err)
	}
	if got := rows(t, out); !strings.HasPrefix(got, "110:") && !strings.HasPrefix(got, "120:") {
		t.Errorf("restored %.20s, want the 110 rows replicated before (or all 120)", got)
	}
}
