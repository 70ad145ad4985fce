package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/internal/poll"
	"posbox/replica"
	"posbox/store"
)

// replicatedBox is a box's data dir replicated, database and files, to
// a file:// replica encrypted to its recovery key and HQ's: the URL and
// the two key files.
func replicatedBox(t *testing.T) (url, boxKey, hqKey string) {
	t.Helper()
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	id, _, err := replica.LoadOrCreateKey(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	hqDir := t.TempDir()
	hq, _, err := replica.LoadOrCreateHQKey(hqDir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, dataDir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ExternalCheckpoints: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	nas := filepath.Join(t.TempDir(), "nas")
	if err := os.Mkdir(nas, 0o700); err != nil { // the NAS's folder, mounted
		t.Fatal(err)
	}
	url = "file://" + nas
	rep, err := replica.Start(ctx, st.Path(), replica.Options{URL: url, Identity: id, Recipients: []age.Recipient{hq.Recipient()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SyncInterval: 50 * time.Millisecond,
		DataDir: dataDir, Include: goesAlong, AppendOnly: appendOnly, FilesInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateRestaurant(ctx, &store.Restaurant{Name: "Zur Wiederkehr", Timezone: "Europe/Berlin"}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 60*time.Second, "the database on the replica", func() bool {
		s := rep.Status()
		return !s.ReplicatedThrough.IsZero() && s.BacklogFiles == 0
	})
	if err := rep.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rep.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return url, filepath.Join(dataDir, replica.KeyFile), filepath.Join(hqDir, replica.HQKeyFile)
}

// posbox restore --from with HQ's key (a recipient of the replica, not
// the box's recovery key): the restore works, but HQ's key is not put
// into the new box as its replica.key, and the output says why and what
// to do; with the box's own key it is.
func TestRestoreFromReplicaKeepsHQKeyOut(t *testing.T) {
	ctx := context.Background()
	url, boxKey, hqKey := replicatedBox(t)
	var out, errOut bytes.Buffer
	fresh := filepath.Join(t.TempDir(), "new-box")
	if err := cmdRestore(ctx, []string{"--from", url, "--key-file", hqKey, "--data-dir", fresh}, &out, &errOut); err != nil {
		t.Fatalf("restore with HQ's key: %v\n%s", err, errOut.String())
	}
	if !pathExists(filepath.Join(fresh, "jwt.key")) || !pathExists(filepath.Join(fresh, store.FileName)) {
		t.Fatal("the restore with HQ's key did not bring the data dir")
	}
	if pathExists(filepath.Join(fresh, replica.KeyFile)) {
		t.Fatal("HQ's key was copied into the new box as its recovery key")
	}
	for _, want := range []string{"NOT copied", "not the box's recovery key", "such as HQ's", "makes\n  a new recovery key"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	own := filepath.Join(t.TempDir(), "own")
	if err := cmdRestore(ctx, []string{"--from", url, "--key-file", boxKey, "--data-dir", own}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(own, replica.KeyFile))
	if w, _ := os.ReadFile(boxKey); !bytes.Equal(b, w) || strings.Contains(out.String(), "NOT copied") {
		t.Fatalf("the box's own key was not copied:\n%s", out.String())
	}
}

// A replica written before the manifest named the box's key: no key
// file is copied, as it cannot be told apart from HQ's.
func TestRestoreKeyOfAnOlderReplicaNotCopied(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(t.TempDir(), "some.key")
	os.WriteFile(keyFile, []byte("AGE-SECRET-KEY-1\n"), 0o600)
	note := copyRecoveryKey(keyFile, "age1x", &replica.RestoredDataDir{DataDir: dir})
	if pathExists(filepath.Join(dir, replica.KeyFile)) || !strings.Contains(note, "does not record the box's recovery key") {
		t.Fatalf("a replica without the box's key: %q", note)
	}
}
