package replica

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// TestFilesGCKeepsWhatARestoreReads: a restore of a running box reads
// the newest manifest, then its files, while the box appends to the
// journal, scans every 2 s and collects: the manifest and every blob it
// names stay for keepAge; after that they go.
func TestFilesGCKeepsWhatARestoreReads(t *testing.T) {
	ctx := context.Background()
	dir := mounted(t, filepath.Join(t.TempDir(), "nas"))
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	key := newKey(t)
	clock := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	u := &fileUploader{store: &fileObjects{root: dir}, recips: []age.Recipient{key.Recipient()}, ids: []age.Identity{key},
		dataDir: dataDir, include: goesAlong, appendOnly: func(rel string) bool { return rel == journal },
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), now: func() time.Time { return clock }}
	scan := func() {
		t.Helper()
		f, _ := os.OpenFile(filepath.Join(dataDir, journal), os.O_APPEND|os.O_WRONLY, 0)
		f.Write(randBytes(t, 20<<10)) // every other append fills a small chunk
		f.Close()
		clock = clock.Add(2 * time.Second)
		u.lastGC = time.Time{} // every scan collects
		if err := u.sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	scan()
	m, _, err := newestManifest(ctx, u.store, u.ids)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := manifestFiles(ctx, u.store, u.ids, m)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 * keepManifests { // the restore reads the archive meanwhile
		scan()
	}
	restoring := t.TempDir()
	for _, e := range files {
		if err := restoreFile(ctx, u.store, u.ids, restoring, e); err != nil {
			t.Fatalf("a restore begun %v ago lost a file to the collection: %v", 3*keepManifests*2*time.Second, err)
		}
	}
	if n := len(objects(t, dir, "manifests")); n != 1+3*keepManifests {
		t.Errorf("%d manifests within %v, want all %d", n, keepAge, 1+3*keepManifests)
	}

	clock = clock.Add(keepAge)
	scan()
	if n := len(objects(t, dir, "manifests")); n != keepManifests {
		t.Errorf("%d manifests an hour later, want %d", n, keepManifests)
	}
	var j fileEntry
	for _, e := range files {
		if e.Path == journal {
			j = e
		}
	}
	err = restoreFile(ctx, u.store, u.ids, t.TempDir(), j)
	if err == nil || !strings.Contains(err.Error(), "blobs/") {
		t.Errorf("the journal of a manifest collected an hour later: %v, want its tail chunk gone", err)
	}
}

// TestFilesDatabaseNotHeldBack: writes that do not touch the journal
// (clock-ins, voids), replicated, then a scan: a restore brings them
// all, although the files did not change (the heartbeat not yet due).
func TestFilesDatabaseNotHeldBack(t *testing.T) {
	ctx := context.Background()
	dir := mounted(t, filepath.Join(t.TempDir(), "nas"))
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	key := newKey(t)
	db := openDB(t, filepath.Join(dataDir, "posbox.db"))
	defer db.Close()
	// As main's allow-list: not Litestream's folder beside the database,
	// which changes with every write.
	include := func(rel string) bool { return goesAlong(rel) && !strings.HasPrefix(rel, ".") }
	r := start(t, filepath.Join(dataDir, "posbox.db"), "file://"+dir, Options{Identity: key,
		DataDir: dataDir, Include: include, AppendOnly: func(rel string) bool { return rel == journal }, FilesInterval: time.Hour})
	defer closeWithin(t, r)
	insert(t, db, 0, 1)
	waitReplicated(t, r)
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	insert(t, db, 1, 21)
	waitReplicated(t, r)
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(t.TempDir(), "new-box")
	got, err := RestoreDataDir(ctx, "file://"+dir, key, restored)
	if err != nil {
		t.Fatal(err)
	}
	if got.HeldBack.IsZero() {
		t.Error("a data dir with the journal restored without holding the database back")
	}
	if g, w := rows(t, filepath.Join(restored, "posbox.db")), rows(t, filepath.Join(dataDir, "posbox.db")); g != w {
		t.Errorf("restored rows %.40s..., the box has %.40s...: writes the replica held were held back", g, w)
	}
	if got.RecoveryKey != key.Recipient().String() {
		t.Errorf("the manifest names the recovery key %q, want the box's", got.RecoveryKey)
	}
}
