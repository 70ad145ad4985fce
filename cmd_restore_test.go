package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"

	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

const testPassphrase = "correct horse battery staple"

// fastScrypt makes the tests' backups cheap to encrypt; restores read
// the work factor from the file.
func fastScrypt(tb testing.TB) {
	old := backupWorkFactor
	backupWorkFactor = 10
	tb.Cleanup(func() { backupWorkFactor = old })
}

func passphraseFile(tb testing.TB, pass string) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "passphrase")
	if err := os.WriteFile(p, []byte(pass+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// seedFullDataDir is a data dir with every kind of file: a database with
// a restaurant, jwt.key, the first admin's password, fiskaly settings and
// an unfinished setup, the simulator's keys and journal after one signed
// sale, a fiscal archive (readable by all, as another tool might write
// it), and what a backup leaves out: logs, backups, temporary files.
func seedFullDataDir(tb testing.TB) (dataDir string, sale tse.Tx) {
	tb.Helper()
	ctx := context.Background()
	dataDir = filepath.Join(tb.TempDir(), "data")
	st, err := store.Open(ctx, dataDir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.CreateRestaurant(ctx, &store.Restaurant{Name: "Zur Sicherung", Timezone: "Europe/Berlin"}); err != nil {
		tb.Fatal(err)
	}
	st.Close()
	if _, err := loadJWTKey(dataDir); err != nil {
		tb.Fatal(err)
	}
	files := map[string]string{
		adminPasswordFile:                 "first-password\n",
		tseConfigFile:                     `{"provider":"fiskaly","url":"https://kassensichv-middleware.fiskaly.com/api/v2","api_key":"key","api_secret":"SECRET-API","tss_id":"3f1c6c52-7d2e-4b8e-9a57-6c3f3c2d1e0f","admin_puk":"PUK-123","admin_pin":"PIN-456"}` + "\n",
		tseSetupFile:                      `{"provider":"fiskaly","admin_puk":"PUK-789"}` + "\n",
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
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(dataDir, tseSimDir)})
	if err != nil {
		tb.Fatal(err)
	}
	defer sim.Close()
	return dataDir, simSale(tb, sim)
}

const testClientID = "5d0e8f7a-2b1c-4c3d-8e9f-0a1b2c3d4e5f"

// simSale signs one sale through p and returns its finishing revision.
func simSale(tb testing.TB, p tse.Provider) tse.Tx {
	tb.Helper()
	ctx := context.Background()
	if _, err := p.EnsureClient(ctx, testClientID, "KASSE-99"); err != nil {
		tb.Fatal(err)
	}
	receipt := &tse.Receipt{
		ReceiptType:           "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "12.50"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "12.50"}},
	}
	start, _ := tse.UpsertBody(tse.TxActive, testClientID, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, testClientID, receipt, nil)
	id := tse.NewUUID4()
	if _, err := p.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
		tb.Fatal(err)
	}
	tx, err := p.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish})
	if err != nil {
		tb.Fatal(err)
	}
	return tx
}

// backupEntries decrypts a complete backup and returns its files by path.
func backupEntries(tb testing.TB, file, pass string) (map[string][]byte, *backupManifest) {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	got := map[string][]byte{}
	m, err := readCompleteBackup(context.Background(), f, pass, func(rel string, _ time.Time, r io.Reader) error {
		b, err := io.ReadAll(r)
		got[rel] = b
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return got, m
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

// TestCompleteBackupRestoresEveryFile: "posbox backup --complete" holds
// the database and every secret of the data dir, encrypted, in a file of
// mode 0600; "posbox restore" checks it and puts each file back as it
// was, mode 0600 in folders of mode 0700, and refuses to do it twice.
func TestCompleteBackupRestoresEveryFile(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	pf := passphraseFile(t, testPassphrase)
	dest := filepath.Join(t.TempDir(), "box"+completeBackupExt)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("posbox backup --complete: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "complete backup written and checked") || strings.Contains(errOut.String(), "warning") {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
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
	leftovers, _ := filepath.Glob(filepath.Join(dataDir, ".posbox-snapshot-*"))
	if len(leftovers) > 0 {
		t.Errorf("snapshots left in the data dir: %v", leftovers)
	}

	got, m := backupEntries(t, dest, testPassphrase)
	var names []string
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	simKeys, _ := filepath.Glob(filepath.Join(dataDir, tseSimDir, "*.pem"))
	if len(simKeys) != 1 {
		t.Fatalf("simulator keys %v", simKeys)
	}
	want := []string{"archive/2026/11/dsfinvk-1.csv", "tls/cert.pem", adminPasswordFile, jwtKeyFile, store.FileName,
		tseConfigFile, tseSetupFile, tseSimDir + "/" + simJournal, tseSimDir + "/" + filepath.Base(simKeys[0])}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("the backup holds\n %v\nwant\n %v", names, want)
	}
	if m.Format != backupFormat || m.FormatVersion != 1 || m.PosboxVersion != version || time.Since(m.CreatedAt) > time.Minute || m.CreatedAt.Location() != time.UTC {
		t.Errorf("manifest %+v", m)
	}
	for _, f := range m.Files {
		sum := sha256.Sum256(got[f.Path])
		if f.SHA256 != hex.EncodeToString(sum[:]) || f.Size != int64(len(got[f.Path])) {
			t.Errorf("manifest entry %+v does not describe the file", f)
		}
	}

	restored := filepath.Join(t.TempDir(), "new-box", "data") // does not exist yet
	out.Reset()
	errOut.Reset()
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", pf, dest}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "TSE: fiskaly TSS 3f1c6c52-7d2e-4b8e-9a57-6c3f3c2d1e0f") {
		t.Errorf("restore output %q does not name the TSE", out.String())
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
	for _, dir := range []string{"", tseSimDir, archiveDir, "archive/2026", "archive/2026/11", backupTLSDir} {
		wantMode(t, filepath.Join(restored, dir), 0o700)
	}
	entries, _ := os.ReadDir(restored)
	var top []string
	for _, e := range entries {
		top = append(top, e.Name())
	}
	wantTop := []string{archiveDir, backupTLSDir, adminPasswordFile, jwtKeyFile, store.FileName, tseConfigFile, tseSetupFile, tseSimDir}
	slices.Sort(wantTop)
	if !slices.Equal(top, wantTop) {
		t.Errorf("restored data dir holds %v, want %v", top, wantTop)
	}
	if err := store.CheckIntegrity(ctx, filepath.Join(restored, store.FileName)); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, restored, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
	err = cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", pf, dest}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "never replaces a database") || !strings.Contains(err.Error(), "move the old data dir") {
		t.Fatalf("restore over a database: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(restored, jwtKeyFile)); !bytes.Equal(before, after) {
		t.Fatal("the refused restore changed jwt.key")
	}
}

// TestCompleteBackupRestoreKeepsTheTSS is the move to new hardware: the
// real binary serves and signs a sale with the built-in simulator, a
// complete backup is made while it runs, the old box stops, the backup
// is restored into an empty data dir, and the binary started there signs
// the next sale with the same TSS: number 2 after 1, signed by the same
// key, and the old box's access token still valid (jwt.key moved too).
func TestCompleteBackupRestoreKeepsTheTSS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stops the appliance with SIGTERM")
	}
	fastScrypt(t)
	ctx := context.Background()
	bin := buildPosbox(t)
	old := startAppliance(t, bin)
	token := old.token(t)
	first := applianceSale(t, old, token)
	if first.Number == nil || *first.Number != 1 {
		t.Fatalf("first sale: %+v", first)
	}

	pf := passphraseFile(t, testPassphrase)
	dest := filepath.Join(t.TempDir(), "old-box"+completeBackupExt)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", old.dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("backup of the running appliance: exit %d: %s", code, errOut.String())
	}
	stopAppliance(t, old)
	oldSim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(old.dataDir, tseSimDir)})
	if err != nil {
		t.Fatal(err)
	}
	tssID, pub := oldSim.TSSID(), oldSim.PublicKey()
	oldSim.Close()

	newDir := filepath.Join(t.TempDir(), "new-box")
	if err := os.Mkdir(newDir, 0o700); err != nil { // empty, as a package install leaves it
		t.Fatal(err)
	}
	if err := cmdRestore(ctx, []string{"--data-dir", newDir, "--passphrase-file", pf, dest}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "TSE: the built-in simulator") {
		t.Errorf("restore output %q", out.String())
	}
	box := startApplianceIn(t, bin, newDir)
	code, body, err := box.call("GET", "/api/tse/transactions/"+first.ID, token, "", nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("the old token or the first sale is gone after the restore: %d %s %v", code, body, err)
	}
	second := applianceSale(t, box, token)
	if second.Number == nil || *second.Number != 2 {
		t.Fatalf("the first sale after the restore has number %v, want 2", second.Number)
	}
	if second.TSESerialNumber == nil || first.TSESerialNumber == nil || *second.TSESerialNumber != *first.TSESerialNumber {
		t.Fatalf("TSE serial %v after the restore, %v before", second.TSESerialNumber, first.TSESerialNumber)
	}
	stopAppliance(t, box)

	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(newDir, tseSimDir)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if sim.TSSID() != tssID || !sim.PublicKey().Equal(pub) {
		t.Fatal("the restored simulator is another TSS")
	}
	for i, id := range []string{first.ID, second.ID} {
		tx, err := sim.Tx(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tx.Number != uint64(i+1) || tx.State != tse.TxFinished {
			t.Errorf("sale %d: number %d state %s", i+1, tx.Number, tx.State)
		}
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Errorf("sale %d does not verify with the TSS key: %v", i+1, err)
		}
	}
	// And the restored TSS signs on: the third sale is number 3.
	if third := simSale(t, sim); third.Number != 3 || tse.VerifyTx(pub, third) != nil {
		t.Errorf("third sale: number %d", third.Number)
	}
}

type saleView struct {
	ID              string  `json:"id"`
	Number          *int64  `json:"number"`
	Signed          bool    `json:"signed"`
	TSESerialNumber *string `json:"tse_serial_number"`
}

// applianceSale posts a sale and waits until it is signed.
func applianceSale(tb testing.TB, a *appliance, token string) saleView {
	tb.Helper()
	sale := `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":12.50}],
		"amounts_per_payment_type":[{"payment_type":"CASH","amount":12.50}]}`
	code, body, err := a.call("POST", "/api/tse/transactions", token, sale, nil)
	if err != nil || (code != http.StatusCreated && code != http.StatusAccepted) {
		tb.Fatalf("sale: %d %s %v", code, body, err)
	}
	var res struct {
		Transaction saleView `json:"transaction"`
	}
	json.Unmarshal(body, &res)
	deadline := time.Now().Add(30 * time.Second)
	for !res.Transaction.Signed {
		if time.Now().After(deadline) {
			tb.Fatalf("sale %s not signed: %s\n%s", res.Transaction.ID, body, a.logText())
		}
		time.Sleep(50 * time.Millisecond)
		id := res.Transaction.ID
		code, body, err = a.call("GET", "/api/tse/transactions/"+id, token, "", nil)
		if err != nil || code != http.StatusOK {
			tb.Fatalf("read sale %s: %d %s %v", id, code, body, err)
		}
		json.Unmarshal(body, &res)
	}
	return res.Transaction
}

func stopAppliance(tb testing.TB, a *appliance) {
	tb.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		tb.Fatal(err)
	}
	if err := a.waitExit(tb, 30*time.Second); err != nil {
		tb.Fatalf("stop: %v\n%s", err, a.logText())
	}
}

// TestBackupCommandRefusesMissingFolder: "posbox backup" does not create
// the target's folder (a mistyped path, a USB stick not mounted); the
// error names it.
func TestBackupCommandRefusesMissingFolder(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	missing := filepath.Join(t.TempDir(), "media", "usb")
	pf := passphraseFile(t, testPassphrase)
	for _, args := range [][]string{
		{"backup", "--data-dir", dataDir, filepath.Join(missing, "b.db")},
		{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, filepath.Join(missing, "b"+completeBackupExt)},
	} {
		var out, errOut bytes.Buffer
		if code := run(ctx, args, nil, &out, &errOut); code != 1 {
			t.Fatalf("%v: exit %d, want 1", args, code)
		}
		if !strings.Contains(errOut.String(), missing) || !strings.Contains(errOut.String(), "does not exist") {
			t.Errorf("%v: stderr %q does not name the missing folder", args, errOut.String())
		}
		if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
			t.Fatalf("%v created a folder: %v", args, err)
		}
	}
	if snaps, _ := filepath.Glob(filepath.Join(dataDir, ".posbox-snapshot-*")); len(snaps) > 0 {
		t.Errorf("snapshots left: %v", snaps)
	}
}

// TestBackupCommandWarnsDatabaseOnly: the plain backup still works as
// before and says what it lacks and how to make a complete one.
func TestBackupCommandWarnsDatabaseOnly(t *testing.T) {
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	dest := filepath.Join(t.TempDir(), "b.db")
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, s := range []string{"database only", "jwt.key", "tse.json", "tse-sim/", "posbox backup --complete --passphrase-file"} {
		if !strings.Contains(errOut.String(), s) {
			t.Errorf("warning %q lacks %q", errOut.String(), s)
		}
	}
	if err := store.CheckIntegrity(ctx, dest); err != nil {
		t.Fatal(err)
	}
	wantMode(t, dest, 0o600)
}

// TestCompleteBackupPassphrase: the passphrase comes from a file or the
// environment, never the command line, has at least 12 characters, and
// only it opens the backup.
func TestCompleteBackupPassphrase(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	dir := t.TempDir()
	t.Setenv(passphraseEnv, "")
	t.Setenv(passphraseFileEnv, "")
	backup := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"backup", "--data-dir", dataDir}, args...), nil, &out, &errOut)
		return code, errOut.String()
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--complete", filepath.Join(dir, "a"+completeBackupExt)}, passphraseEnv},
		{[]string{"--complete", "--passphrase-file", passphraseFile(t, "short-11chr"), filepath.Join(dir, "b"+completeBackupExt)}, "at least 12"},
		{[]string{"--complete", "--passphrase-file", filepath.Join(dir, "none"), filepath.Join(dir, "c"+completeBackupExt)}, "passphrase file"},
		{[]string{"--complete", "--passphrase", testPassphrase, filepath.Join(dir, "d"+completeBackupExt)}, "not defined: -passphrase"},
		{[]string{"--passphrase-file", passphraseFile(t, testPassphrase), filepath.Join(dir, "e.db")}, "add --complete"},
	}
	for _, c := range cases {
		code, stderr := backup(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("backup %v: exit %d, stderr %q; want a failure saying %q", c.args, code, stderr, c.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Fatalf("failed backups left %v", left)
	}

	// From the environment.
	t.Setenv(passphraseEnv, "twelve chars")
	dest := filepath.Join(dir, "env"+completeBackupExt)
	if code, stderr := backup("--complete", dest); code != 0 {
		t.Fatalf("passphrase from the environment: exit %d: %s", code, stderr)
	}
	restore := func(pass string) error {
		t.Setenv(passphraseEnv, pass)
		var out, errOut bytes.Buffer
		return cmdRestore(ctx, []string{"--data-dir", filepath.Join(t.TempDir(), "r"), dest}, &out, &errOut)
	}
	if err := restore(""); err == nil || !strings.Contains(err.Error(), "is a complete backup") || !strings.Contains(err.Error(), "--passphrase-file") {
		t.Errorf("restore without a passphrase: %v", err)
	}
	if err := restore("twelve chars!"); err == nil || !strings.Contains(err.Error(), "passphrase does not open") {
		t.Errorf("restore with a wrong passphrase: %v", err)
	}
	if err := restore("twelve chars"); err != nil {
		t.Errorf("restore with the passphrase: %v", err)
	}
}

// TestRestoreRefusesOccupiedDataDir: a restore never replaces a database
// nor any file the backup brings, and changes nothing when it refuses.
func TestRestoreRefusesOccupiedDataDir(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	pf := passphraseFile(t, testPassphrase)
	dest := filepath.Join(t.TempDir(), "b"+completeBackupExt)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	plain := filepath.Join(t.TempDir(), "b.db")
	if code := run(ctx, []string{"backup", "--data-dir", dataDir, plain}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
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
	os.MkdirAll(filepath.Join(fresh, tseSimDir), 0o700)
	for _, c := range []struct {
		dir, file, want string
	}{
		{dataDir, dest, "posbox.db exists: a restore never replaces a database"},
		{dataDir, plain, "posbox.db exists: a restore never replaces a database"},
		{walOnly, dest, "posbox.db-wal exists"},
		{fresh, dest, "already holds jwt.key, tse-sim, which the backup brings"},
	} {
		before := listing(c.dir)
		err := cmdRestore(ctx, []string{"--data-dir", c.dir, "--passphrase-file", pf, c.file}, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("restore %s into %s: %v, want %q", filepath.Base(c.file), c.dir, err, c.want)
		}
		if after := listing(c.dir); !slices.Equal(before, after) {
			t.Errorf("the refused restore changed %s:\n%v\n%v", c.dir, before, after)
		}
	}

	// The database-only backup goes into the fresh dir, beside its keys.
	errOut.Reset()
	if err := cmdRestore(ctx, []string{"--data-dir", fresh, plain}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "holds the database only") || !strings.Contains(errOut.String(), "tse.json") {
		t.Errorf("no warning about the missing secrets: %q", errOut.String())
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
func craftBackup(tb testing.TB, entries []craftEntry, edit func(m *backupManifest), manifestAt int) string {
	tb.Helper()
	m := &backupManifest{Format: backupFormat, FormatVersion: backupFormatVersion, PosboxVersion: "test", CreatedAt: time.Now().UTC()}
	for _, e := range entries {
		sum := sha256.Sum256(e.data)
		m.Files = append(m.Files, backupFile{Path: e.name, Size: int64(len(e.data)), SHA256: hex.EncodeToString(sum[:])})
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
	p := filepath.Join(tb.TempDir(), "crafted"+completeBackupExt)
	os.WriteFile(p, buf.Bytes(), 0o600)
	return p
}

// TestRestoreRefusesDamagedBackups: a backup that is cut off, changed,
// or whose files do not match its manifest is refused before anything
// reaches the data dir.
func TestRestoreRefusesDamagedBackups(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	pf := passphraseFile(t, testPassphrase)
	real := filepath.Join(t.TempDir(), "real"+completeBackupExt)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, real}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	raw, _ := os.ReadFile(real)
	db, _ := os.ReadFile(filepath.Join(dataDir, store.FileName))
	key := []byte("0123456789abcdef0123456789abcdef")
	good := []craftEntry{{name: store.FileName, data: db}, {name: jwtKeyFile, data: key}}

	cutOff := filepath.Join(t.TempDir(), "cut"+completeBackupExt)
	os.WriteFile(cutOff, raw[:len(raw)-100], 0o600)
	flipped := filepath.Join(t.TempDir(), "flipped"+completeBackupExt)
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
		{"checksum", craftBackup(t, good, func(m *backupManifest) { m.Files[1].SHA256 = strings.Repeat("0", 64) }, manifestLast), "jwt.key does not match its SHA-256"},
		{"unlisted file", craftBackup(t, good, func(m *backupManifest) { m.Files = m.Files[:1] }, manifestLast), "which its manifest does not list"},
		{"missing file", craftBackup(t, good, func(m *backupManifest) {
			m.Files = append(m.Files, backupFile{Path: tseConfigFile, Size: 1, SHA256: "00"})
		}, manifestLast), "lacks tse.json"},
		{"no manifest", craftBackup(t, good, nil, manifestNone), "no manifest"},
		{"after the manifest", craftBackup(t, good, nil, 1), `holds "jwt.key" after its manifest`},
		{"newer format", craftBackup(t, good, func(m *backupManifest) { m.FormatVersion = 2 }, manifestLast), "format version 2"},
		{"escapes", craftBackup(t, append(slices.Clone(good), craftEntry{name: "../outside", data: key}), nil, manifestLast), "not a plain relative path"},
		{"absolute", craftBackup(t, append(slices.Clone(good), craftEntry{name: "/etc/cron.d/x", data: key}), nil, manifestLast), "not a plain relative path"},
		{"foreign file", craftBackup(t, append(slices.Clone(good), craftEntry{name: "backups/x.db", data: key}), nil, manifestLast), "not a file of a posbox data dir"},
		{"link", craftBackup(t, []craftEntry{good[0], {name: tseConfigFile, typ: tar.TypeSymlink}}, nil, manifestLast), "not a regular file"},
		{"no database", craftBackup(t, good[1:], nil, manifestLast), "holds no posbox.db"},
		{"broken database", craftBackup(t, []craftEntry{{name: store.FileName, data: db[:len(db)/2]}}, nil, manifestLast), "the database fails its check"},
	} {
		target := filepath.Join(t.TempDir(), "data")
		err := cmdRestore(ctx, []string{"--data-dir", target, "--passphrase-file", pf, c.file}, &out, &errOut)
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
	if err := cmdRestore(ctx, []string{"--data-dir", empty, "--passphrase-file", pf, cutOff}, &out, &errOut); err == nil {
		t.Fatal("restored a cut-off backup")
	}
	if left, _ := os.ReadDir(empty); len(left) > 0 {
		t.Errorf("the refused restore left %v", left)
	}
}

// TestRestoreDescribeFiles: the summary line of a backup's files.
func TestRestoreDescribeFiles(t *testing.T) {
	got := describeFiles([]backupFile{{Path: jwtKeyFile}, {Path: store.FileName}, {Path: "tse-sim/a"}, {Path: "tse-sim/b"}, {Path: "archive/x"}})
	if want := "posbox.db, archive/ (1 file), jwt.key, tse-sim/ (2 files)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestBackupRemovesStaleSnapshots: database snapshots a crashed complete
// backup left in the data dir go at the next one; a recent one (another
// backup running now) stays.
func TestBackupRemovesStaleSnapshots(t *testing.T) {
	fastScrypt(t)
	dataDir, _ := seedFullDataDir(t)
	stale := []string{".posbox-snapshot-OLD1.db", "..posbox-snapshot-OLD2.db.ABCD1234.tmp"}
	fresh := ".posbox-snapshot-NOW1.db"
	for _, name := range append(slices.Clone(stale), fresh) {
		os.WriteFile(filepath.Join(dataDir, name), []byte("plain database"), 0o600)
	}
	old := time.Now().Add(-25 * time.Hour)
	for _, name := range stale {
		os.Chtimes(filepath.Join(dataDir, name), old, old)
	}
	var out, errOut bytes.Buffer
	dest := filepath.Join(t.TempDir(), "b"+completeBackupExt)
	if code := run(context.Background(), []string{"backup", "--complete", "--passphrase-file", passphraseFile(t, testPassphrase), "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	left, _ := filepath.Glob(filepath.Join(dataDir, "*posbox-snapshot-*"))
	if len(left) != 1 || filepath.Base(left[0]) != fresh {
		t.Errorf("snapshots left: %v, want only %s", left, fresh)
	}
}
