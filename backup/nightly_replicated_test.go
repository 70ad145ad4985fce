package backup

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"posbox/store"
)

// With replication on, the nightly backup is a dated database-only copy
// even with a passphrase file set: no scrypt, the passphrase not even
// read (a missing file is no error), the newest Keep kept.
func TestNightlyReplicatedIsDatabaseOnly(t *testing.T) {
	ctx := context.Background()
	log := quietLog()
	dataDir := seedDataDir(t)
	st, err := store.Open(ctx, dataDir, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := filepath.Join(t.TempDir(), "backups")
	job := Nightly{Dir: dir, Keep: 2, DataDir: dataDir, PassphraseFile: filepath.Join(t.TempDir(), "no-such-passphrase"), Replicated: true}
	if job.Complete() {
		t.Fatal("a replicated box's nightly backup counts as complete")
	}
	day := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	for i := range 3 {
		path, err := job.Run(ctx, st, day.AddDate(0, 0, i), log)
		if err != nil {
			t.Fatalf("night %d: %v", i, err)
		}
		if err := store.CheckIntegrity(ctx, path); err != nil {
			t.Fatal(err)
		}
		wantMode(t, path, 0o600)
	}
	if got, want := dirNames(dir), []string{"posbox-2026-11-21.db", "posbox-2026-11-22.db"}; !slices.Equal(got, want) {
		t.Fatalf("backup dir holds %v, want %v", got, want)
	}
	job.Replicated = false
	if !job.Complete() {
		t.Fatal("without replication a passphrase file makes the backups complete")
	}
}
