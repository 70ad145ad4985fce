package backup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"posbox/store"
	"posbox/tse"
)

// TestCompleteBackupRestoresEveryFile: a complete backup holds the
// database and every secret of the data dir, encrypted, in a file of mode
// 0600; Restore checks it and puts each file back as it was, mode 0600
// in folders of mode 0700, and refuses to do it twice.
func TestCompleteBackupRestoresEveryFile(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir := seedDataDir(t)
	dest := writeBackup(t, dataDir)
	wantMode(t, dest, 0o600)
	raw, _ := os.ReadFile(dest)
	if !bytes.HasPrefix(raw, []byte("age-encryption.org/v1\n-> scrypt ")) {
		t.Fatalf("the backup does not start as a passphrase-encrypted age file: %q", raw[:40])
	}
	jwtKey, _ := os.ReadFile(filepath.Join(dataDir, jwtKeyFile))
	for _, secret := range [][]byte{jwtKey, []byte("SECRET-API"), []byte("PUK-123"), []byte("BEGIN EC PRIVATE KEY"), []byte("PRIVATE KEY")} {
		if bytes.Contains(raw, secret) {
			t.Fatalf("the backup holds %q in plain text", secret)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dataDir, ".posbox-snapshot-*")); len(leftovers) > 0 {
		t.Errorf("snapshots left in the data dir: %v", leftovers)
	}

	got, m := entries(t, dest, testPassphrase)
	var names []string
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"archive/2026/11/dsfinvk-1.csv", "tls/cert.pem", adminPasswordFile, jwtKeyFile, store.FileName,
		tse.SettingsFile, tse.SetupFile, simJournal, tse.SimDir + "/tss-1.pem"}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("the backup holds\n %v\nwant\n %v", names, want)
	}
	if m.Format != format || m.FormatVersion != 1 || m.PosboxVersion != "1.2.3" || m.PosboxBuild != "abc" ||
		time.Since(m.CreatedAt) > time.Minute || m.CreatedAt.Location() != time.UTC {
		t.Errorf("manifest %+v", m)
	}
	// The journal right after the database, before the simulator's keys.
	if i := slices.IndexFunc(m.Files, func(f File) bool { return f.Path == simJournal }); i < 0 || m.Files[0].Path != store.FileName ||
		slices.IndexFunc(m.Files, func(f File) bool { return f.Path == tse.SimDir+"/tss-1.pem" }) < i {
		t.Errorf("files in the order %v", m.Files)
	}
	for _, f := range m.Files {
		sum := sha256.Sum256(got[f.Path])
		if f.SHA256 != hex.EncodeToString(sum[:]) || f.Size != int64(len(got[f.Path])) {
			t.Errorf("manifest entry %+v does not describe the file", f)
		}
	}

	restored := filepath.Join(t.TempDir(), "new-box", "data") // does not exist yet
	r, err := Restore(ctx, dest, restored, fixedPassphrase(testPassphrase))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || !r.Simulator || r.DataDir != restored || len(r.Manifest.Files) != len(want) {
		t.Errorf("restored %+v", r)
	}
	for _, name := range want {
		p := filepath.Join(restored, filepath.FromSlash(name))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if name != store.FileName {
			if orig, _ := os.ReadFile(filepath.Join(dataDir, filepath.FromSlash(name))); !bytes.Equal(b, orig) {
				t.Errorf("%s differs from the original", name)
			}
		}
		wantMode(t, p, 0o600)
	}
	for _, dir := range []string{"", tse.SimDir, archiveDir, "archive/2026", "archive/2026/11", tlsDir} {
		wantMode(t, filepath.Join(restored, dir), 0o700)
	}
	dirEntries, _ := os.ReadDir(restored)
	var top []string
	for _, e := range dirEntries {
		top = append(top, e.Name())
	}
	wantTop := []string{archiveDir, tlsDir, adminPasswordFile, jwtKeyFile, store.FileName, tse.SettingsFile, tse.SetupFile, tse.SimDir}
	slices.Sort(wantTop)
	if !slices.Equal(top, wantTop) {
		t.Errorf("restored data dir holds %v, want %v", top, wantTop)
	}
	st, err := store.Open(ctx, restored, store.Options{Logger: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := st.Restaurants(ctx)
	st.Close()
	if err != nil || len(rs) != 1 || rs[0].Name != "Zur Sicherung" {
		t.Fatalf("restored restaurants %v %v", rs, err)
	}

	// A second restore into the same folder changes nothing.
	before, _ := os.ReadFile(filepath.Join(restored, jwtKeyFile))
	_, err = Restore(ctx, dest, restored, fixedPassphrase(testPassphrase))
	if err == nil || !strings.Contains(err.Error(), "never replaces a database") || !strings.Contains(err.Error(), "move the old data dir") {
		t.Fatalf("restore over a database: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(restored, jwtKeyFile)); !bytes.Equal(before, after) {
		t.Fatal("the refused restore changed jwt.key")
	}
}

// Write never replaces a file, wants a passphrase of 12 characters and
// the target's folder (a USB stick not mounted), and leaves nothing
// behind when it fails.
func TestWriteRefuses(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir := seedDataDir(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "old"+Ext)
	os.WriteFile(existing, []byte("older backup"), 0o600)
	dbPath := filepath.Join(dataDir, store.FileName)
	snapshot := func(ctx context.Context, snap string) error { return store.BackupFile(ctx, dbPath, snap) }
	for _, c := range []struct {
		dest, pass, want string
	}{
		{existing, testPassphrase, "already exists"},
		{filepath.Join(dir, "short"+Ext), "short-11chr", "at least 12"},
		{filepath.Join(dir, "media", "usb", "b"+Ext), testPassphrase, "does not exist"},
	} {
		_, err := Write(ctx, Complete{DataDir: dataDir, Dest: c.dest, Passphrase: c.pass, Now: time.Now(), Snapshot: snapshot})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.dest, err, c.want)
		}
	}
	if _, err := Write(ctx, Complete{DataDir: dataDir, Dest: existing, Passphrase: testPassphrase, Snapshot: snapshot}); !errors.Is(err, store.ErrBackupExists) {
		t.Errorf("over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "older backup" {
		t.Error("the existing file was overwritten")
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("failed backups left %v", left)
	}
	if snaps, _ := filepath.Glob(filepath.Join(dataDir, ".posbox-snapshot-*")); len(snaps) > 0 {
		t.Errorf("snapshots left: %v", snaps)
	}
}

// TestBackupRemovesStaleSnapshots: database snapshots a crashed complete
// backup left in the data dir go at the next one; a recent one (another
// backup running now) stays.
func TestBackupRemovesStaleSnapshots(t *testing.T) {
	fastScrypt(t)
	dataDir := seedDataDir(t)
	stale := []string{".posbox-snapshot-OLD1.db", "..posbox-snapshot-OLD2.db.ABCD1234.tmp"}
	fresh := ".posbox-snapshot-NOW1.db"
	for _, name := range append(slices.Clone(stale), fresh) {
		os.WriteFile(filepath.Join(dataDir, name), []byte("plain database"), 0o600)
	}
	old := time.Now().Add(-25 * time.Hour)
	for _, name := range stale {
		os.Chtimes(filepath.Join(dataDir, name), old, old)
	}
	writeBackup(t, dataDir)
	left, _ := filepath.Glob(filepath.Join(dataDir, "*posbox-snapshot-*"))
	if len(left) != 1 || filepath.Base(left[0]) != fresh {
		t.Errorf("snapshots left: %v, want only %s", left, fresh)
	}
}

// TestDescribeFiles: the summary line of a backup's files.
func TestDescribeFiles(t *testing.T) {
	got := DescribeFiles([]File{{Path: jwtKeyFile}, {Path: store.FileName}, {Path: "tse-sim/a"}, {Path: "tse-sim/b"}, {Path: "archive/x"}})
	if want := "posbox.db, archive/ (1 file), jwt.key, tse-sim/ (2 files)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestPassphraseSources: the --passphrase-file first, then the
// environment, then the setting's file; the file's first line (without
// a BOM or CR); a new backup's at least 12 characters.
func TestPassphraseSources(t *testing.T) {
	t.Setenv(PassphraseEnv, "")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	flagFile := write("flag", "\ufefffrom the flag file\r\nsecond line\n")
	setting := write("setting", "from the setting's file\n")
	if _, err := Passphrase("", "", false); !errors.Is(err, ErrNoPassphrase) {
		t.Errorf("no source: %v", err)
	}
	if p, err := Passphrase(flagFile, setting, true); err != nil || p != "from the flag file" {
		t.Errorf("flag file: %q %v", p, err)
	}
	if p, err := Passphrase("", setting, true); err != nil || p != "from the setting's file" {
		t.Errorf("setting's file: %q %v", p, err)
	}
	t.Setenv(PassphraseEnv, "from the environment")
	if p, err := Passphrase("", setting, true); err != nil || p != "from the environment" {
		t.Errorf("environment: %q %v", p, err)
	}
	if _, err := Passphrase(write("short", "short-11chr\n"), "", true); err == nil || !strings.Contains(err.Error(), "at least 12") {
		t.Errorf("short for a new backup: %v", err)
	}
	if p, err := Passphrase(write("short2", "short-11chr\n"), "", false); err != nil || p != "short-11chr" {
		t.Errorf("short for a restore: %q %v", p, err)
	}
	if _, err := Passphrase(write("empty", "\nsecond\n"), "", false); err == nil || !strings.Contains(err.Error(), "first line is empty") {
		t.Errorf("empty first line: %v", err)
	}
}
