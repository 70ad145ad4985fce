package backup

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"posbox/store"
	"posbox/tse"
)

// TestNightlyBackupRetention: one file per UTC day, named by date, the
// newest Keep kept, a second run the same day changes nothing, and files
// that are not nightly backups are left alone.
func TestNightlyBackupRetention(t *testing.T) {
	ctx := context.Background()
	log := quietLog()
	st, err := store.Open(ctx, t.TempDir(), store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "backups")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "before-upgrade.db"), []byte("mine"), 0o600)
	os.WriteFile(filepath.Join(dir, ".posbox-2026-01-01.db.ABCD.tmp"), []byte("crash"), 0o600)

	day := time.Date(2026, 11, 20, 2, 30, 0, 0, time.UTC)
	job := Nightly{Dir: dir, Keep: 3}
	for i := range 5 {
		path, err := job.Run(ctx, st, day.AddDate(0, 0, i), log)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "posbox-"+day.AddDate(0, 0, i).Format("2006-01-02")+".db"); path != want {
			t.Fatalf("path %s, want %s", path, want)
		}
	}
	// Same day again: kept, not replaced, not an error.
	if _, err := job.Run(ctx, st, day.AddDate(0, 0, 4).Add(time.Hour), log); err != nil {
		t.Fatal(err)
	}
	want := []string{"before-upgrade.db", "posbox-2026-11-22.db", "posbox-2026-11-23.db", "posbox-2026-11-24.db"}
	if names := dirNames(dir); !slices.Equal(names, want) {
		t.Fatalf("backup dir holds %v, want %v", names, want)
	}
	for _, n := range want[1:] {
		if err := store.CheckIntegrity(ctx, filepath.Join(dir, n)); err != nil {
			t.Error(n, err)
		}
	}
}

func dirNames(dir string) []string {
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestNightlyCompleteBackup: with a passphrase file the nightly job
// creates its missing folder and writes complete, encrypted backups
// (posbox-DATE.posbox-backup, mode 0600) that restore; database-only
// files from before the switch age out with them; a passphrase that
// cannot be read still leaves a database-only backup for the night.
func TestNightlyCompleteBackup(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	log := quietLog()
	dataDir := seedDataDir(t)
	st, err := store.Open(ctx, dataDir, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "nightly", "backups") // missing: the job creates it
	job := Nightly{Dir: dir, Keep: 3, DataDir: dataDir, PassphraseFile: passphraseFile(t, testPassphrase), Version: "1.2.3"}

	day := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	// Two nights of database-only backups before the switch.
	for i := range 2 {
		if _, err := (Nightly{Dir: dir, Keep: 3}).Run(ctx, st, day.AddDate(0, 0, i), log); err != nil {
			t.Fatal(err)
		}
	}
	for i := 2; i < 5; i++ {
		path, err := job.Run(ctx, st, day.AddDate(0, 0, i), log)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "posbox-"+day.AddDate(0, 0, i).Format(time.DateOnly)+".posbox-backup"); path != want {
			t.Fatalf("path %s, want %s", path, want)
		}
		wantMode(t, path, 0o600)
	}
	// The same night again: kept, not an error.
	if _, err := job.Run(ctx, st, day.AddDate(0, 0, 4).Add(time.Hour), log); err != nil {
		t.Fatal(err)
	}
	want := []string{"posbox-2026-11-22.posbox-backup", "posbox-2026-11-23.posbox-backup", "posbox-2026-11-24.posbox-backup"}
	if names := dirNames(dir); !slices.Equal(names, want) {
		t.Fatalf("backup dir holds %v, want %v", names, want)
	}
	wantMode(t, dir, 0o700)
	restored := filepath.Join(t.TempDir(), "restored")
	r, err := Restore(ctx, filepath.Join(dir, want[2]), restored, fixedPassphrase(testPassphrase))
	if err != nil {
		t.Fatal(err)
	}
	if r.Manifest.PosboxVersion != "1.2.3" || !r.Manifest.CreatedAt.Equal(day.AddDate(0, 0, 4)) {
		t.Errorf("manifest %+v", r.Manifest)
	}
	for _, name := range []string{store.FileName, jwtKeyFile, tse.SettingsFile, simJournal} {
		if _, err := os.Stat(filepath.Join(restored, name)); err != nil {
			t.Error(err)
		}
	}

	// The passphrase file is gone: the night still gets a backup.
	job.PassphraseFile = filepath.Join(t.TempDir(), "moved-away")
	path, err := job.Run(ctx, st, day.AddDate(0, 0, 5), log)
	if err == nil || !strings.Contains(err.Error(), "database-only backup instead") {
		t.Fatalf("missing passphrase file: %v", err)
	}
	if path != filepath.Join(dir, "posbox-2026-11-25.db") || store.CheckIntegrity(ctx, path) != nil {
		t.Fatalf("fallback backup %s", path)
	}
}

// Prune deletes only nightly backups beyond the newest keep, both kinds
// counted by date, and temporary files a crash left.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"posbox-2026-11-20.db", "posbox-2026-11-21.db", "posbox-2026-11-21.posbox-backup", "posbox-2026-11-22.posbox-backup",
		"posbox-latest.db", "posbox-2026-13-01.db", "other-2026-11-01.db", ".posbox-2026-11-23.posbox-backup.X1.tmp"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	if err := Prune(dir, 2); err != nil {
		t.Fatal(err)
	}
	want := []string{"other-2026-11-01.db", "posbox-2026-11-21.posbox-backup", "posbox-2026-11-22.posbox-backup", "posbox-2026-13-01.db", "posbox-latest.db"}
	if names := dirNames(dir); !slices.Equal(names, want) {
		t.Fatalf("left %v, want %v", names, want)
	}
}
