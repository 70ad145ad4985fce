package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/backup"
	"posbox/fiscal/archive"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
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
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(dataDir, tse.SimDir), Now: clock.Now})
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
	job := backup.Nightly{Dir: dir, Keep: 1, DataDir: dataDir, PassphraseFile: passphraseFile(t, testPassphrase)}
	day := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	var last string
	for i := range 3 { // keep = 1: two nights are pruned, the archive is not
		if last, err = job.Run(ctx, st, day.AddDate(0, 0, i), log); err != nil {
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
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", job.PassphraseFile, last}, &out, &errOut); err != nil {
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
	// serve's start makes the restored files read-only in the background.
	workCtx, stopWork := context.WithCancel(ctx)
	var workers sync.WaitGroup
	if err := startArchive(workCtx, &workers, newScheduler(log), ra, rcfg, log); err != nil {
		t.Fatal(err)
	}
	stopWork()
	workers.Wait()
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

// posbox archive copy says what it copied and how to check the copy, and
// fails when a file could not be copied (archive.Copy is tested in
// fiscal/archive).
func TestArchiveCopyCommand(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	src := filepath.Join(dataDir, archiveTSEDir)
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, withSum := range map[string]bool{"ab_1-12.tar": true, "ab_13-40.tar": true, "ab_41-50.tar": false} {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(name), 0o400); err != nil {
			t.Fatal(err)
		}
		if withSum {
			sum, _ := archive.FileSHA256(p)
			if err := os.WriteFile(p+".sha256", []byte(sum+"  "+name+"\n"), 0o400); err != nil {
				t.Fatal(err)
			}
		}
	}
	stick := t.TempDir()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"archive", "copy", "--data-dir", dataDir, stick}, nil, &out, &errOut)
	if code == 0 || !strings.Contains(errOut.String(), "ab_41-50.tar: no .sha256") ||
		!strings.Contains(out.String(), "2 file(s) copied, 0 already there, from "+src+" to "+stick) ||
		!strings.Contains(out.String(), "check the copy: cd "+stick+" && sha256sum -c *.sha256") {
		t.Fatalf("exit %d: %s %s", code, out.String(), errOut.String())
	}
	var out2, errOut2 bytes.Buffer
	if code := run(ctx, []string{"archive", "copy", "--data-dir", dataDir, filepath.Join(stick, "missing")}, nil, &out2, &errOut2); code == 0 ||
		!strings.Contains(errOut2.String(), "must exist") {
		t.Fatalf("missing folder: exit %d: %s", code, errOut2.String())
	}
}

// serve builds the archive on the simulator and the API reaches it: the
// status carries the archive, the list answers, an export of today starts
// (202), the archive folder exists; a malformed tse_archive_time refuses
// the start.
func TestServeRunsTheTSEArchive(t *testing.T) {
	bin := buildPosbox(t)
	a := startAppliance(t, bin)
	tok := a.token(t)
	code, body, err := a.call("GET", "/api/tse/status", tok, "", nil)
	if err != nil || code != 200 || !strings.Contains(string(body), `"archive":{"last_archived_counter":0`) {
		t.Fatalf("status: %d %s %v", code, body, err)
	}
	if code, body, _ = a.call("GET", "/api/tse/archives", tok, "", nil); code != 200 || string(body) != "{\"archives\":[]}\n" {
		t.Fatalf("list: %d %s", code, body)
	}
	today := time.Now().In(mustLoc(t, "Europe/Berlin")).Format(time.DateOnly)
	if code, body, _ = a.call("POST", "/api/tse/archives", tok, `{"from":"`+today+`","to":"`+today+`"}`, nil); code != 202 ||
		!strings.Contains(string(body), `"kind":"dates"`) {
		t.Fatalf("export of dates: %d %s", code, body)
	}
	if fi, err := os.Stat(filepath.Join(a.dataDir, "archive", "tse")); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("archive folder: %v %v", fi, err)
	}

	var out, errOut bytes.Buffer
	t.Setenv("POSBOX_TSE_ARCHIVE_TIME", "4:30")
	if code := run(context.Background(), []string{"serve", "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0"},
		nil, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), `tse_archive_time: "4:30" is not HH:MM`) {
		t.Fatalf("a bad tse_archive_time started: exit %d: %s", code, errOut.String())
	}
}

func mustLoc(tb testing.TB, name string) *time.Location {
	tb.Helper()
	l, err := time.LoadLocation(name)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}
