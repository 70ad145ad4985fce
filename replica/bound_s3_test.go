package replica

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/internal/replicatest"
)

// TestS3ServerHangs: an S3 server that stops answering (frozen: its
// connections stay open, nothing comes back) is given up on by the
// engine, the writer goes on, the status says so, and once the server
// answers again uploads resume with the same replicator, no restart, and
// the replica restores to the database.
func TestS3ServerHangs(t *testing.T) {
	s := replicatest.S3(t)
	dir := t.TempDir()
	ak, sk := filepath.Join(dir, "s3.access"), filepath.Join(dir, "s3.secret")
	for f, v := range map[string]string{ak: s.AccessKey + "\n", sk: s.SecretKey + "\n"} {
		if err := os.WriteFile(f, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_CA_BUNDLE", os.Getenv("AWS_CA_BUNDLE")) // restored after the engine drops it
	u := s.URL + "&access-key-file=" + url.QueryEscape(ak) + "&secret-key-file=" + url.QueryEscape(sk)
	dbPath := filepath.Join(dir, "posbox.db")
	key := newKey(t)
	db := openDB(t, dbPath)
	defer db.Close()
	r := start(t, dbPath, u, Options{Identity: key, CallTimeout: time.Second})
	insert(t, db, 0, 50)
	waitReplicated(t, r)

	s.Pause()
	insert(t, db, 50, 100)
	poll.Until(t, 60*time.Second, "the status to show the server not answering and a backlog", func() bool {
		st := r.Status()
		return strings.Contains(st.LastError, "not answering") && st.BacklogFiles > 0
	})
	insert(t, db, 100, 120)
	s.Resume()
	insert(t, db, 120, 130)
	waitReplicated(t, r)
	restoreEquals(t, u, key, rows(t, dbPath))

	// A second hang, then back: the client is as good as new each time.
	s.Pause()
	insert(t, db, 130, 140)
	poll.Until(t, 60*time.Second, "the second hang in the status", func() bool {
		return strings.Contains(r.Status().LastError, "not answering")
	})
	s.Resume()
	waitReplicated(t, r)
	restoreEquals(t, u, key, rows(t, dbPath))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
