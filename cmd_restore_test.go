package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"posbox/backup"
	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

const testPassphrase = "correct horse battery staple"

// fastScrypt makes the tests' backups cheap to encrypt; restores read
// the work factor from the file.
func fastScrypt(tb testing.TB) {
	old := backup.ScryptWorkFactor
	backup.ScryptWorkFactor = 10
	tb.Cleanup(func() { backup.ScryptWorkFactor = old })
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
		tse.SettingsFile:                  `{"provider":"fiskaly","url":"https://kassensichv-middleware.fiskaly.com/api/v2","api_key":"key","api_secret":"SECRET-API","tss_id":"3f1c6c52-7d2e-4b8e-9a57-6c3f3c2d1e0f","admin_puk":"PUK-123","admin_pin":"PIN-456"}` + "\n",
		tse.SetupFile:                     `{"provider":"fiskaly","admin_puk":"PUK-789"}` + "\n",
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
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(dataDir, tse.SimDir)})
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
func backupEntries(tb testing.TB, file, pass string) (map[string][]byte, *backup.Manifest) {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	got := map[string][]byte{}
	m, err := backup.Read(context.Background(), f, pass, func(rel string, _ time.Time, r io.Reader) error {
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
	dest := filepath.Join(t.TempDir(), "old-box"+backup.Ext)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", old.dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("backup of the running appliance: exit %d: %s", code, errOut.String())
	}
	stopAppliance(t, old)
	oldSim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(old.dataDir, tse.SimDir)})
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

	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(newDir, tse.SimDir)})
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
	id := res.Transaction.ID
	if !poll.Wait(30*time.Second, func() bool {
		code, body, err = a.call("GET", "/api/tse/transactions/"+id, token, "", nil)
		if err != nil || code != http.StatusOK {
			tb.Fatalf("read sale %s: %d %s %v", id, code, body, err)
		}
		json.Unmarshal(body, &res)
		return res.Transaction.Signed
	}) {
		tb.Fatalf("sale %s not signed: %s\n%s", id, body, a.logText())
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
		{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, filepath.Join(missing, "b"+backup.Ext)},
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
	t.Setenv(backup.PassphraseEnv, "")
	t.Setenv("POSBOX_BACKUP_PASSPHRASE_FILE", "")
	runBackup := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"backup", "--data-dir", dataDir}, args...), nil, &out, &errOut)
		return code, errOut.String()
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--complete", filepath.Join(dir, "a"+backup.Ext)}, backup.PassphraseEnv},
		{[]string{"--complete", "--passphrase-file", passphraseFile(t, "short-11chr"), filepath.Join(dir, "b"+backup.Ext)}, "at least 12"},
		{[]string{"--complete", "--passphrase-file", filepath.Join(dir, "none"), filepath.Join(dir, "c"+backup.Ext)}, "passphrase file"},
		{[]string{"--complete", "--passphrase", testPassphrase, filepath.Join(dir, "d"+backup.Ext)}, "not defined: -passphrase"},
		{[]string{"--passphrase-file", passphraseFile(t, testPassphrase), filepath.Join(dir, "e.db")}, "add --complete"},
	}
	for _, c := range cases {
		code, stderr := runBackup(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("backup %v: exit %d, stderr %q; want a failure saying %q", c.args, code, stderr, c.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Fatalf("failed backups left %v", left)
	}

	// From the environment.
	t.Setenv(backup.PassphraseEnv, "twelve chars")
	dest := filepath.Join(dir, "env"+backup.Ext)
	if code, stderr := runBackup("--complete", dest); code != 0 {
		t.Fatalf("passphrase from the environment: exit %d: %s", code, stderr)
	}
	restore := func(pass string) error {
		t.Setenv(backup.PassphraseEnv, pass)
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

// TestBackupAndRestoreCommands: what posbox backup and posbox restore say:
// the files a complete backup holds, the TSE it brings back, what a
// database alone lacks.
func TestBackupAndRestoreCommands(t *testing.T) {
	fastScrypt(t)
	ctx := context.Background()
	dataDir, _ := seedFullDataDir(t)
	pf := passphraseFile(t, testPassphrase)
	dest := filepath.Join(t.TempDir(), "box"+backup.Ext)
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "--complete", "--passphrase-file", pf, "--data-dir", dataDir, dest}, nil, &out, &errOut); code != 0 {
		t.Fatalf("posbox backup --complete: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "complete backup written and checked: "+dest+"\n  holds posbox.db, archive/ (1 file), initial-admin-password, jwt.key, tls/ (1 file), tse-setup.json, tse-sim/ (2 files), tse.json\n") ||
		errOut.Len() > 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
	restored := filepath.Join(t.TempDir(), "data")
	out.Reset()
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", pf, dest}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"restored " + dest + " (made ", " by posbox " + version + ") into " + restored + ":\n  posbox.db, archive/",
		"TSE: fiskaly TSS 3f1c6c52-7d2e-4b8e-9a57-6c3f3c2d1e0f at https://kassensichv-middleware.fiskaly.com/api/v2\n", "Start the service"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("restore output %q lacks %q", out.String(), s)
		}
	}
	if err := cmdRestore(ctx, []string{"--data-dir", restored, "--passphrase-file", pf, dest}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "never replaces a database") {
		t.Fatalf("restore over a database: %v", err)
	}

	plain := filepath.Join(t.TempDir(), "b.db")
	if code := run(ctx, []string{"backup", "--data-dir", dataDir, plain}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if err := cmdRestore(ctx, []string{"--data-dir", filepath.Join(t.TempDir(), "db-only"), plain}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "restored the database from "+plain) || !strings.Contains(errOut.String(), "holds the database only") || !strings.Contains(errOut.String(), "tse.json") {
		t.Errorf("database-only restore: stdout %q, stderr %q", out.String(), errOut.String())
	}
	// The files main's first start writes travel in a complete backup.
	for _, f := range []string{jwtKeyFile, adminPasswordFile} {
		if !backup.Holds(f) {
			t.Errorf("a complete backup lacks %s", f)
		}
	}
}
