package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/boxtls"
	"posbox/store"
	"posbox/tse"
)

// backupDB writes a database-only backup of dataDir (a plain SQLite file).
func backupDB(tb testing.TB, dataDir string) string {
	tb.Helper()
	plain := filepath.Join(tb.TempDir(), "b.db")
	if err := store.BackupFile(context.Background(), filepath.Join(dataDir, store.FileName), plain); err != nil {
		tb.Fatal(err)
	}
	return plain
}

// TestRestorePassphrase: a complete backup asks for its passphrase (a
// database alone does not), and only the right one opens it.
func TestRestorePassphrase(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir := seedDataDir(t)
	dest := writeBackup(t, dataDir)
	_, err := Restore(ctx, dest, filepath.Join(t.TempDir(), "r"), func() (string, error) { return "", ErrNoPassphrase })
	if err == nil || !strings.Contains(err.Error(), "is a complete backup") || !strings.Contains(err.Error(), "--passphrase-file") {
		t.Errorf("restore without a passphrase: %v", err)
	}
	target := filepath.Join(t.TempDir(), "r")
	if _, err := Restore(ctx, dest, target, fixedPassphrase(testPassphrase+"!")); !errors.Is(err, ErrWrongPassphrase) {
		t.Errorf("restore with a wrong passphrase: %v", err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the refused restore left the data dir: %v", err)
	}
	asked := false
	r, err := Restore(ctx, backupDB(t, dataDir), target, func() (string, error) { asked = true; return "", ErrNoPassphrase })
	if err != nil || asked || r.Complete || r.Simulator || len(r.Manifest.Files) != 1 {
		t.Errorf("database-only restore: %+v %v (passphrase asked: %v)", r, err, asked)
	}
}

// TestRestoreRefusesOccupiedDataDir: a restore never replaces a database
// nor any file the backup brings, and changes nothing when it refuses.
func TestRestoreRefusesOccupiedDataDir(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir := seedDataDir(t)
	dest := writeBackup(t, dataDir)
	plain := backupDB(t, dataDir)
	listing := func(dir string) []string {
		var names []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			names = append(names, p)
			return nil
		})
		return names
	}

	// The old box's data dir itself, and one whose WAL file is left.
	walOnly := t.TempDir()
	os.WriteFile(filepath.Join(walOnly, store.FileName+"-wal"), []byte("wal"), 0o600)
	// A box's fresh data dir from a first start: no database (moved away)
	// but a jwt.key and simulator of its own.
	fresh := t.TempDir()
	os.WriteFile(filepath.Join(fresh, jwtKeyFile), bytes.Repeat([]byte("k"), 32), 0o600)
	os.MkdirAll(filepath.Join(fresh, tse.SimDir), 0o700)
	for _, c := range []struct {
		dir, file, want string
	}{
		{dataDir, dest, "posbox.db exists: a restore never replaces a database"},
		{dataDir, plain, "posbox.db exists: a restore never replaces a database"},
		{walOnly, dest, "posbox.db-wal exists"},
		{fresh, dest, "already holds jwt.key, tse-sim, which the backup brings"},
	} {
		before := listing(c.dir)
		_, err := Restore(ctx, c.file, c.dir, fixedPassphrase(testPassphrase))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("restore %s into %s: %v, want %q", filepath.Base(c.file), c.dir, err, c.want)
		}
		if after := listing(c.dir); !slices.Equal(before, after) {
			t.Errorf("the refused restore changed %s:\n%v\n%v", c.dir, before, after)
		}
	}

	// The database-only backup goes into the fresh dir, beside its keys.
	r, err := Restore(ctx, plain, fresh, fixedPassphrase(testPassphrase))
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete {
		t.Errorf("restored %+v", r)
	}
	wantMode(t, filepath.Join(fresh, store.FileName), 0o600)
	if err := store.CheckIntegrity(ctx, filepath.Join(fresh, store.FileName)); err != nil {
		t.Fatal(err)
	}
}

type craftEntry struct {
	name string
	data []byte
	typ  byte
}

// Where craftBackup puts the manifest: last, nowhere, or at an index.
const (
	manifestLast = -1
	manifestNone = -2
)

// craftBackup writes an encrypted archive of the given entries and a
// manifest describing them (changed by edit), as a damaged or malicious
// backup might be.
func craftBackup(tb testing.TB, entries []craftEntry, edit func(m *Manifest), manifestAt int) string {
	tb.Helper()
	m := &Manifest{Format: format, FormatVersion: formatVersion, PosboxVersion: "test", CreatedAt: time.Now().UTC()}
	for _, e := range entries {
		sum := sha256.Sum256(e.data)
		m.Files = append(m.Files, File{Path: e.name, Size: int64(len(e.data)), SHA256: hex.EncodeToString(sum[:])})
	}
	if edit != nil {
		edit(m)
	}
	mb, _ := json.Marshal(m)
	all := entries
	switch {
	case manifestAt == manifestLast:
		all = append(slices.Clone(entries), craftEntry{name: manifestName, data: mb})
	case manifestAt >= 0:
		all = slices.Insert(slices.Clone(entries), manifestAt, craftEntry{name: manifestName, data: mb})
	}
	var buf bytes.Buffer
	r, _ := age.NewScryptRecipient(testPassphrase)
	r.SetWorkFactor(10)
	enc, _ := age.Encrypt(&buf, r)
	gz := gzip.NewWriter(enc)
	tw := tar.NewWriter(gz)
	for _, e := range all {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Typeflag: typ, Name: e.name, Mode: 0o600, Size: int64(len(e.data)), ModTime: time.Now()}
		if typ == tar.TypeSymlink {
			hdr.Size, hdr.Linkname = 0, "/etc/passwd"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			tb.Fatal(err)
		}
		tw.Write(e.data)
	}
	tw.Close()
	gz.Close()
	enc.Close()
	p := filepath.Join(tb.TempDir(), "crafted"+Ext)
	os.WriteFile(p, buf.Bytes(), 0o600)
	return p
}

// TestRestoreRefusesDamagedBackups: a backup that is cut off, changed,
// or whose files do not match its manifest is refused before anything
// reaches the data dir.
func TestRestoreRefusesDamagedBackups(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir := seedDataDir(t)
	real := writeBackup(t, dataDir)
	raw, _ := os.ReadFile(real)
	db, _ := os.ReadFile(filepath.Join(dataDir, store.FileName))
	key := []byte("0123456789abcdef0123456789abcdef")
	good := []craftEntry{{name: store.FileName, data: db}, {name: jwtKeyFile, data: key}}

	cutOff := filepath.Join(t.TempDir(), "cut"+Ext)
	os.WriteFile(cutOff, raw[:len(raw)-100], 0o600)
	flipped := filepath.Join(t.TempDir(), "flipped"+Ext)
	changed := slices.Clone(raw)
	changed[len(changed)/2] ^= 1
	os.WriteFile(flipped, changed, 0o600)
	notABackup := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notABackup, []byte("hello"), 0o600)

	for _, c := range []struct {
		name, file, want string
	}{
		{"cut off", cutOff, "damaged or cut off"},
		{"one bit changed", flipped, "damaged or cut off"},
		{"not a backup", notABackup, "not a posbox backup"},
		{"checksum", craftBackup(t, good, func(m *Manifest) { m.Files[1].SHA256 = strings.Repeat("0", 64) }, manifestLast), "jwt.key does not match its SHA-256"},
		{"unlisted file", craftBackup(t, good, func(m *Manifest) { m.Files = m.Files[:1] }, manifestLast), "which its manifest does not list"},
		{"missing file", craftBackup(t, good, func(m *Manifest) {
			m.Files = append(m.Files, File{Path: tse.SettingsFile, Size: 1, SHA256: "00"})
		}, manifestLast), "lacks tse.json"},
		{"listed twice", craftBackup(t, good, func(m *Manifest) { m.Files = append(m.Files, m.Files[1]) }, manifestLast), "lists jwt.key twice"},
		{"no manifest", craftBackup(t, good, nil, manifestNone), "no manifest"},
		{"after the manifest", craftBackup(t, good, nil, 1), `holds "jwt.key" after its manifest`},
		{"newer format", craftBackup(t, good, func(m *Manifest) { m.FormatVersion = 2 }, manifestLast), "format version 2"},
		{"other format", craftBackup(t, good, func(m *Manifest) { m.Format = "tarball" }, manifestLast), `format is "tarball"`},
		{"escapes", craftBackup(t, append(slices.Clone(good), craftEntry{name: "../outside", data: key}), nil, manifestLast), "not a plain relative path"},
		{"absolute", craftBackup(t, append(slices.Clone(good), craftEntry{name: "/etc/cron.d/x", data: key}), nil, manifestLast), "not a plain relative path"},
		{"foreign file", craftBackup(t, append(slices.Clone(good), craftEntry{name: "backups/x.db", data: key}), nil, manifestLast), "not a file of a posbox data dir"},
		{"twice", craftBackup(t, append(slices.Clone(good), good[1]), nil, manifestLast), `holds "jwt.key" twice`},
		{"link", craftBackup(t, []craftEntry{good[0], {name: tse.SettingsFile, typ: tar.TypeSymlink}}, nil, manifestLast), "not a regular file"},
		{"no database", craftBackup(t, good[1:], nil, manifestLast), "holds no posbox.db"},
		{"broken database", craftBackup(t, []craftEntry{{name: store.FileName, data: db[:len(db)/2]}}, nil, manifestLast), "the database fails its check"},
	} {
		target := filepath.Join(t.TempDir(), "data")
		_, err := Restore(ctx, c.file, target, fixedPassphrase(testPassphrase))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if _, err := os.Stat(target); !os.IsNotExist(err) {
			t.Errorf("%s: the refused restore left the data dir: %v", c.name, err)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(target), "outside")); err == nil {
			t.Fatalf("%s: a file escaped the data dir", c.name)
		}
	}

	// An existing empty data dir stays empty.
	empty := t.TempDir()
	if _, err := Restore(ctx, cutOff, empty, fixedPassphrase(testPassphrase)); err == nil {
		t.Fatal("restored a cut-off backup")
	}
	if left, _ := os.ReadDir(empty); len(left) > 0 {
		t.Errorf("the refused restore left %v", left)
	}
}

// Holds names what a complete backup takes from the data dir.
func TestHolds(t *testing.T) {
	for p, want := range map[string]bool{
		store.FileName: true, jwtKeyFile: true, tse.SettingsFile: true, simJournal: true, "archive/tse/a.tar": true, "tls/key.pem": true,
		"logs/posbox.log": false, "archive": false, "archive/": false, "../jwt.key": false, "config.toml": false,
	} {
		if Holds(p) != want {
			t.Errorf("Holds(%q) = %v", p, !want)
		}
	}
	if tlsDir != boxtls.Dir {
		t.Errorf("a backup takes %s/, the generated certificate lives in %s/", tlsDir, boxtls.Dir)
	}
}
