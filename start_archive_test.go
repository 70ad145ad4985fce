package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/archive"
)

// The TSE archive is kept ten years: the nightly backups' retention never
// touches it, every complete backup carries it (the read-only TARs and
// their .sha256 files, not the temporary files of a running export), and
// a restore brings it back byte for byte, read-only again once posbox
// opens the archive.
func TestCompleteBackupKeepsTheTSEArchive(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	dataDir, _ := seedFullDataDir(t)
	clock := storetest.NewClock(time.Now().UTC().Add(time.Minute))
	st, err := store.Open(ctx, dataDir, store.Options{Logger: log, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Restaurants(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := tse.OpenSimulator(tse.SimConfig{Dir: filepath.Join(dataDir, tseSimDir), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	cfg := DefaultConfig()
	cfg.DataDir = dataDir
	a, err := openArchive(st, sim, rs[0].ID, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Dir() != filepath.Join(dataDir, "archive", "tse") {
		t.Fatalf("archive folder %s", a.Dir())
	}
	// The same archive with waits that move the test clock.
	b, err := archive.New(sim, sim, st, archive.Options{RestaurantID: rs[0].ID, Dir: a.Dir(), Logger: log,
		Sleep: func(ctx context.Context, d time.Duration) error { clock.Add(d); return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Run(ctx); err != nil {
		t.Fatal(err)
	}
	as, err := st.TSEArchives(ctx, rs[0].ID)
	if err != nil || len(as) != 1 || as[0].State != store.TSEArchiveArchived {
		t.Fatalf("archives %v %v", as, err)
	}
	tarPath := filepath.Join(a.Dir(), as[0].FileName)
	tarBytes, _ := os.ReadFile(tarPath)
	wantMode(t, tarPath, 0o400)
	// A temporary file of an export still running is no part of a backup.
	if err := os.WriteFile(filepath.Join(a.Dir(), ".7d0e8f7a-2b1c-4c3d-8e9f-0a1b2c3d4e5f.tar.tmp"), []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "backups")
	job := nightlyJob{dir: dir, keep: 1, dataDir: dataDir, passphraseFile: passphraseFile(t, testPassphrase)}
	day := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	var last string
	for i := range 3 { // keep = 1: two nights are pruned, the archive is not
		if last, err = nightlyBackup(ctx, st, job, day.AddDate(0, 0, i), log); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(tarPath); !bytes.Equal(got, tarBytes) {
		t.Fatal("the retention of the backups touched the archive")
	}
	entries, m := backupEntries(t, last, testPassphrase)
	rel := "archive/tse/" + as[0].FileName
	if !bytes.Equal(entries[rel], tarBytes) || len(entries[rel+".sha256"]) == 0 {
		t.Fatalf("the complete backup lacks %s or its .sha256 (manifest %d files)", rel, len(m.Files))
	}
	for name := range entries {
		if filepath.Ext(name) == ".tmp" {
			t.Fatalf("the backup holds the temporary %s", name)
		}
	}

	restored := filepath.Join(t.TempDir(), "restored")
	var out, errOut bytes.Buffer
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", job.passphraseFile, last}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	rst, err := store.Open(ctx, restored, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer rst.Close()
	ras, err := rst.TSEArchives(ctx, rs[0].ID)
	if err != nil || len(ras) != 1 || ras[0].SHA256 != as[0].SHA256 {
		t.Fatalf("restored archive rows %v %v", ras, err)
	}
	rcfg := cfg
	rcfg.DataDir = restored
	ra, err := openArchive(rst, sim, rs[0].ID, rcfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer ra.Close()
	f, err := ra.Open(ras[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := new(bytes.Buffer)
	if _, err := got.ReadFrom(f); err != nil || !bytes.Equal(got.Bytes(), tarBytes) {
		t.Fatalf("the restored TAR differs: %v", err)
	}
	wantMode(t, filepath.Join(restored, rel), 0o400)
	wantMode(t, filepath.Join(restored, rel+".sha256"), 0o400)
}
