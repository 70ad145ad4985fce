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

// hookStore runs hook once, before the first Get of key.
type hookStore struct {
	objectStore
	key  string
	hook func()
}

func (h *hookStore) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if key == h.key && h.hook != nil {
		hook := h.hook
		h.hook = nil
		hook()
	}
	return h.objectStore.Get(ctx, key)
}

// TestRestoreOfARunningBoxBeginsAgain: while a restore reads the archive,
// the box appends to its journal for over keepAge and collects what the
// restore's manifest named: the restore begins once more from the newest
// manifest and brings the box as it is now.
func TestRestoreOfARunningBoxBeginsAgain(t *testing.T) {
	ctx := context.Background()
	dir := mounted(t, filepath.Join(t.TempDir(), "nas"))
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	key := newKey(t)
	db := openDB(t, filepath.Join(dataDir, "posbox.db"))
	defer db.Close()
	r := start(t, filepath.Join(dataDir, "posbox.db"), "file://"+dir, Options{Identity: key,
		DataDir: dataDir, Include: goesAlong, AppendOnly: func(rel string) bool { return rel == journal }, FilesInterval: time.Hour})
	defer closeWithin(t, r)
	insert(t, db, 0, 1)
	waitReplicated(t, r)
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	arch, _ := os.ReadFile(filepath.Join(dataDir, "archive/2026-01.tar"))
	s := &hookStore{objectStore: &fileObjects{root: dir}, key: blobKey(sumHex(arch[:bigChunk])), hook: func() {
		r.files.u.now = func() time.Time { return time.Now().Add(keepAge + gcInterval) }
		for range keepManifests {
			f, _ := os.OpenFile(filepath.Join(dataDir, journal), os.O_APPEND|os.O_WRONLY, 0)
			f.Write(randBytes(t, 20<<10))
			f.Close()
			r.files.u.lastGC = time.Time{} // every scan collects
			if err := r.SyncFiles(ctx); err != nil {
				t.Error(err)
			}
		}
	}}
	restored := filepath.Join(t.TempDir(), "new-box")
	if _, err := restoreDataDir(ctx, s, "file://"+dir, key, restored); err != nil {
		t.Fatalf("a restore whose manifest the box collected meanwhile: %v", err)
	}
	if s.hook != nil {
		t.Fatal("the restore did not read the archive")
	}
	if g, w := sums(t, restored), sums(t, dataDir); !equalMaps(g, w) {
		t.Fatal("the restore brought other files than the box holds now")
	}
}
