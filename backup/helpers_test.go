package backup

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"posbox/store"
	"posbox/tse"
)

const testPassphrase = "correct horse battery staple"

// fastScrypt makes the tests' backups cheap to encrypt; restores read
// the work factor from the file.
func fastScrypt(tb testing.TB) {
	old := ScryptWorkFactor
	ScryptWorkFactor = 10
	tb.Cleanup(func() { ScryptWorkFactor = old })
}

func passphraseFile(tb testing.TB, pass string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "passphrase")
	if err := os.WriteFile(p, []byte(pass+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

func quietLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// seedDataDir is a data dir with every kind of file: a database with a
// restaurant, jwt.key, the first admin's password, fiskaly settings and
// an unfinished setup, the simulator's keys and journal (their content
// is no matter to a backup), a fiscal archive (readable by all, as
// another tool might write it), a generated certificate, and what a
// backup leaves out: logs, backups, temporary files.
func seedDataDir(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	dataDir := filepath.Join(tb.TempDir(), "data")
	st, err := store.Open(ctx, dataDir, store.Options{Logger: quietLog()})
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.CreateRestaurant(ctx, &store.Restaurant{Name: "Zur Sicherung", Timezone: "Europe/Berlin"}); err != nil {
		tb.Fatal(err)
	}
	st.Close()
	files := map[string]string{
		jwtKeyFile:                        string(bytes.Repeat([]byte("k"), 32)),
		adminPasswordFile:                 "first-password\n",
		tse.SettingsFile:                  `{"provider":"fiskaly","url":"https://kassensichv-middleware.fiskaly.com/api/v2","api_key":"key","api_secret":"SECRET-API","tss_id":"3f1c6c52-7d2e-4b8e-9a57-6c3f3c2d1e0f","admin_puk":"PUK-123","admin_pin":"PIN-456"}` + "\n",
		tse.SetupFile:                     `{"provider":"fiskaly","admin_puk":"PUK-789"}` + "\n",
		simJournal:                        `{"op":"tss"}` + "\n" + `{"op":"sign"}` + "\n",
		tse.SimDir + "/tss-1.pem":         "-----BEGIN EC PRIVATE KEY-----\n",
		"archive/2026/11/dsfinvk-1.csv":   "Z_KASSE_ID;Z_NR\nKASSE-01;1\n",
		"tls/cert.pem":                    "-----BEGIN CERTIFICATE-----\n",
		"archive/2026/11/.export.abc.tmp": "half written",
		"logs/posbox.log":                 "a log line\n",
		"backups/posbox-2026-11-22.db":    "an older backup",
	}
	for name, content := range files {
		p := filepath.Join(dataDir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dataDir
}

// writeBackup writes a complete backup of dataDir to a new file.
func writeBackup(tb testing.TB, dataDir string) string {
	tb.Helper()
	dest := filepath.Join(tb.TempDir(), "box"+Ext)
	dbPath := filepath.Join(dataDir, store.FileName)
	_, err := Write(context.Background(), Complete{
		DataDir: dataDir, Dest: dest, Passphrase: testPassphrase, Now: time.Now(), Version: "1.2.3", Build: "abc",
		Snapshot: func(ctx context.Context, snap string) error { return store.BackupFile(ctx, dbPath, snap) },
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dest
}

// entries decrypts a complete backup and returns its files by path.
func entries(tb testing.TB, file, pass string) (map[string][]byte, *Manifest) {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	got := map[string][]byte{}
	m, err := Read(context.Background(), f, pass, func(rel string, _ time.Time, r io.Reader) error {
		b, err := io.ReadAll(r)
		got[rel] = b
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return got, m
}

// fixedPassphrase is Restore's passphrase source in tests.
func fixedPassphrase(p string) func() (string, error) {
	return func() (string, error) { return p, nil }
}

func wantMode(tb testing.TB, p string, want fs.FileMode) {
	tb.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	fi, err := os.Stat(p)
	if err != nil {
		tb.Fatal(err)
	}
	if fi.Mode().Perm() != want {
		tb.Errorf("%s has mode %#o, want %#o", p, fi.Mode().Perm(), want)
	}
}
