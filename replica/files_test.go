package replica

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/internal/poll"
)

const journal = "tse-sim/journal.jsonl"

// boxFiles writes a data dir's files beside its database: an archive
// file of over one big chunk, the simulator's journal of over one, keys,
// and files that do not go along (a backup, the recovery key).
func boxFiles(t *testing.T, dataDir string) {
	t.Helper()
	files := map[string][]byte{
		"archive/2026-01.tar":       randBytes(t, bigChunk+300<<10),
		journal:                     bytes.Repeat([]byte(`{"op":"sign","counter":1}`+"\n"), (bigChunk+100<<10)/26),
		"tse-sim/tss-1.key.pem":     []byte("-----BEGIN PRIVATE KEY-----\nsecret\n"),
		"tse.json":                  []byte(`{"tss_id":"x"}`),
		"jwt.key":                   randBytes(t, 32),
		"tls/cert.pem":              []byte("cert"),
		"backups/posbox-1.db":       []byte("not this"),
		KeyFile:                     []byte("not this either"),
		"tse-sim/" + secretName[:3]: []byte("empty"),
	}
	for rel, b := range files {
		p := filepath.Join(dataDir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func randBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// goesAlong is main's predicate in small: backup.Holds without the database.
func goesAlong(rel string) bool {
	return rel != "posbox.db" && !strings.HasPrefix(rel, "backups/") && rel != KeyFile && !strings.HasPrefix(rel, "posbox.db-")
}

// sums is the SHA-256 of every file under dir that goesAlong.
func sums(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if goesAlong(rel) && !strings.HasPrefix(rel, RestoredConfigDir+"/") {
			b, _ := os.ReadFile(p)
			s := sha256.Sum256(b)
			out[rel] = hex.EncodeToString(s[:])
		}
		return nil
	})
	return out
}

// objects lists the replica's blob and manifest objects in the server's folder.
func objects(t *testing.T, dir, kind string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(filepath.ToSlash(p), "/files/"+kind+"/") && !strings.Contains(p, tmpMark) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestFilesFile(t *testing.T) {
	dir := mounted(t, filepath.Join(t.TempDir(), "nas"))
	filesRoundTrip(t, target{url: "file://" + dir, dir: dir})
}

func TestFilesSFTP(t *testing.T) {
	tg, _ := sftpTarget(t)
	filesRoundTrip(t, tg)
}

func TestFilesS3(t *testing.T) {
	filesRoundTrip(t, s3Target(t))
}

// filesRoundTrip: the data dir's files go up encrypted and verified, an
// appended journal sends one new chunk, a restore rebuilds the data dir
// with every file's SHA-256, and a changed or missing object makes a
// restore fail, leaving the folder as it was.
func filesRoundTrip(t *testing.T, tg target) {
	ctx := context.Background()
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	conf := filepath.Join(t.TempDir(), "posbox.conf")
	os.WriteFile(conf, []byte("replica_url = "+tg.url+"\n"), 0o600)
	key := newKey(t)
	db := openDB(t, filepath.Join(dataDir, "posbox.db"))
	defer db.Close()
	r := start(t, filepath.Join(dataDir, "posbox.db"), tg.url, Options{Identity: key, CallTimeout: 10 * time.Second,
		DataDir: dataDir, Include: goesAlong, AppendOnly: func(rel string) bool { return rel == journal },
		ExtraFiles: map[string]string{"posbox.conf": conf}, FilesInterval: time.Hour})
	defer closeWithin(t, r)
	insert(t, db, 0, 20)
	waitReplicated(t, r)
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); st.FilesAt.IsZero() || st.FilesError != "" {
		t.Fatalf("status after the upload: %+v", st)
	}
	for _, p := range objects(t, tg.dir, "blobs") {
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(`"op":"sign"`)) || bytes.Contains(b, []byte("PRIVATE KEY")) {
			t.Fatalf("%s is not encrypted", p)
		}
	}

	// The journal appended: its new last chunk (at most 64 KiB) and
	// tse-sim's new tree go up, and a manifest of a few hundred bytes;
	// not the journal's 4 MiB chunk, not the other folders' trees.
	before := map[string]bool{}
	for _, p := range objects(t, tg.dir, "blobs") {
		before[p] = true
	}
	blobs, manifests := len(before), len(objects(t, tg.dir, "manifests"))
	f, _ := os.OpenFile(filepath.Join(dataDir, journal), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"sign","counter":2}` + "\n")
	f.Close()
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	if b, m := len(objects(t, tg.dir, "blobs")), len(objects(t, tg.dir, "manifests")); b != blobs+2 || m != manifests+1 {
		t.Fatalf("after appending a line: %d blobs (were %d), %d manifests (were %d): want two blobs and a manifest more", b, blobs, m, manifests)
	}
	var sent int64
	for _, p := range objects(t, tg.dir, "blobs") {
		if fi, _ := os.Stat(p); !before[p] {
			sent += fi.Size()
		}
	}
	if sent > smallChunk+8<<10 {
		t.Errorf("appending a line sent %d bytes of blobs", sent)
	}
	if err := r.SyncFiles(ctx); err != nil { // nothing changed: nothing uploaded
		t.Fatal(err)
	}
	if m := len(objects(t, tg.dir, "manifests")); m != manifests+1 {
		t.Fatalf("a scan without changes made a manifest")
	}

	want := sums(t, dataDir)
	restored := filepath.Join(t.TempDir(), "new-box")
	got, err := RestoreDataDir(ctx, tg.url, key, restored)
	if err != nil {
		t.Fatal(err)
	}
	if g := sums(t, restored); !equalMaps(g, want) {
		t.Fatalf("restored files differ:\n got %v\nwant %v", g, want)
	}
	if got.Files != len(want)+1 || len(got.Config) != 1 || got.ReplicatedThrough.IsZero() {
		t.Errorf("restore says %+v, want %d files and the config", got, len(want)+1)
	}
	if b, _ := os.ReadFile(filepath.Join(restored, RestoredConfigDir, "posbox.conf")); !strings.HasPrefix(string(b), "replica_url") {
		t.Errorf("config file restored as %q", b)
	}
	if rows(t, filepath.Join(restored, "posbox.db")) != rows(t, filepath.Join(dataDir, "posbox.db")) {
		t.Error("the restored database differs")
	}
	checkModes(t, restored)

	tamperedFails(t, tg, dataDir, key)
}

// tamperedFails: a blob changed on the replica, then one missing: the
// restore fails and the folder stays as it was (empty, or not there).
func tamperedFails(t *testing.T, tg target, dataDir string, key age.Identity) {
	t.Helper()
	ctx := context.Background()
	arch, _ := os.ReadFile(filepath.Join(dataDir, "archive/2026-01.tar"))
	var victim string
	for _, p := range objects(t, tg.dir, "blobs") {
		if strings.HasSuffix(p, blobKey(sumHex(arch[:bigChunk]))) {
			victim = p
		}
	}
	if victim == "" {
		t.Fatal("the archive's first chunk is not on the replica")
	}
	orig, _ := os.ReadFile(victim)
	changed := bytes.Clone(orig)
	changed[len(changed)-20] ^= 1
	os.WriteFile(victim, changed, 0o600)
	empty := t.TempDir()
	if _, err := RestoreDataDir(ctx, tg.url, key, empty); err == nil || !strings.Contains(err.Error(), "blobs/") {
		t.Fatalf("restore from a changed object: %v", err)
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 0 {
		t.Fatalf("a failed restore left %v", ents)
	}
	os.Remove(victim)
	gone := filepath.Join(t.TempDir(), "gone")
	if _, err := RestoreDataDir(ctx, tg.url, key, gone); err == nil || !strings.Contains(err.Error(), "blobs/") {
		t.Fatalf("restore with a missing object: %v", err)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Fatal("a failed restore left the folder it made")
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkModes: files 0600, folders 0700.
func checkModes(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v", p, fi.Mode().Perm())
		}
		return nil
	})
}

// TestFilesGarbageCollected: a journal appended to many times leaves,
// once the older ones are over keepAge old, the newest keepManifests
// manifests and only the blobs they name, every blob of the newest
// among them; a restore still rebuilds the newest.
func TestFilesGarbageCollected(t *testing.T) {
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
	for i := range 3 * keepManifests {
		f, _ := os.OpenFile(filepath.Join(dataDir, journal), os.O_APPEND|os.O_WRONLY, 0)
		f.Write(randBytes(t, 20<<10)) // every other append fills a small chunk
		f.Close()
		if i == 3*keepManifests-1 { // the collection's time has come, the others are over keepAge old
			r.files.u.lastGC = time.Time{}
			r.files.u.now = func() time.Time { return time.Now().Add(keepAge + time.Second) }
		}
		if err := r.SyncFiles(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if m := objects(t, dir, "manifests"); len(m) != keepManifests {
		t.Fatalf("%d manifests after the collection, want %d", len(m), keepManifests)
	}
	live := map[string]bool{}
	for k := range r.files.u.kept {
		m, err := readManifest(ctx, r.files.u.store, k, []age.Identity{key})
		if err != nil {
			t.Fatal(err)
		}
		_, refs, err := manifestFiles(ctx, r.files.u.store, []age.Identity{key}, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range refs {
			live[s] = true
		}
	}
	blobs := objects(t, dir, "blobs")
	for _, p := range blobs {
		if !live[blobSum(p)] {
			t.Errorf("%s is named by no kept manifest", filepath.Base(p))
		}
	}
	if len(blobs) != len(live) {
		t.Errorf("%d blobs for %d named", len(blobs), len(live))
	}
	want := sums(t, dataDir)
	restored := filepath.Join(t.TempDir(), "new-box")
	if _, err := RestoreDataDir(ctx, "file://"+dir, key, restored); err != nil {
		t.Fatal(err)
	}
	if g := sums(t, restored); !equalMaps(g, want) {
		t.Fatal("restored files differ after the collection")
	}
}

// TestFilesSFTPServerHangs: an SFTP server that stops answering fails
// the files' scan after the call timeout (the status says so), the box
// goes on, and once the server answers again the next scan puts
// everything up.
func TestFilesSFTPServerHangs(t *testing.T) {
	ctx := context.Background()
	tg, s := sftpTarget(t)
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	key := newKey(t)
	db := openDB(t, filepath.Join(dataDir, "posbox.db"))
	defer db.Close()
	r := start(t, filepath.Join(dataDir, "posbox.db"), tg.url, Options{Identity: key, CallTimeout: time.Second,
		DataDir: dataDir, Include: goesAlong, AppendOnly: func(rel string) bool { return rel == journal }, FilesInterval: time.Hour})
	insert(t, db, 0, 1)
	waitReplicated(t, r)
	if err := r.SyncFiles(ctx); err != nil {
		t.Fatal(err)
	}
	s.Pause()
	f, _ := os.OpenFile(filepath.Join(dataDir, journal), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"sign","counter":3}` + "\n")
	f.Close()
	if err := r.SyncFiles(ctx); err == nil || !strings.Contains(err.Error(), "not answering") {
		t.Fatalf("a scan against a hung server: %v", err)
	}
	if st := r.Status(); !strings.Contains(st.FilesError, "not answering") {
		t.Fatalf("status while the server hangs: %+v", st)
	}
	s.Resume()
	poll.Until(t, 60*time.Second, "a scan to succeed once the server answers", func() bool {
		return r.SyncFiles(ctx) == nil
	})
	if st := r.Status(); st.FilesError != "" {
		t.Fatalf("status after the server came back: %+v", st)
	}
	closeWithin(t, r)
	want := sums(t, dataDir)
	restored := filepath.Join(t.TempDir(), "new-box")
	if _, err := RestoreDataDir(ctx, tg.url, key, restored); err != nil {
		t.Fatal(err)
	}
	if g := sums(t, restored); !equalMaps(g, want) {
		t.Fatal("restored files differ")
	}
}

// lossyStore is a target that keeps only the first half of what it is
// sent (a full disk that truncates, a broken proxy) and says it kept it.
type lossyStore struct{ objectStore }

func (l lossyStore) Put(ctx context.Context, key string, r io.Reader) error {
	b, _ := io.ReadAll(r)
	return l.objectStore.Put(ctx, key, bytes.NewReader(b[:len(b)/2]))
}

// TestFilesVerifiedAfterUpload: an object that does not read back as
// sent fails the scan, the status shows it, and no manifest names it.
func TestFilesVerifiedAfterUpload(t *testing.T) {
	dir := mounted(t, filepath.Join(t.TempDir(), "nas"))
	dataDir := t.TempDir()
	boxFiles(t, dataDir)
	key := newKey(t)
	u := &fileUploader{store: lossyStore{&fileObjects{root: dir}}, recips: []age.Recipient{key.Recipient()}, ids: []age.Identity{key},
		dataDir: dataDir, include: goesAlong, log: slog.New(slog.NewTextHandler(io.Discard, nil)), now: time.Now}
	err := u.sync(context.Background())
	u.record(err)
	if err == nil || !strings.Contains(err.Error(), "verify") {
		t.Fatalf("a scan whose upload reads back wrong: %v", err)
	}
	var st Status
	u.status(&st)
	if st.FilesError == "" || !st.FilesAt.IsZero() || st.FilesErrorSince.IsZero() {
		t.Fatalf("status: %+v", st)
	}
	if m := objects(t, dir, "manifests"); len(m) != 0 {
		t.Fatalf("a manifest was written: %v", m)
	}
}
