package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"posbox/replica"
	"posbox/tse"
)

// drillMargin is the replication lag the drill allows: a sale
// acknowledged longer than this before the kill must be restored (the
// database goes up every second, the files every two, the database is
// restored as of the simulator journal's upload).
const drillMargin = 10 * time.Second

// drillSale is a sale as the drill reads it back.
type drillSale struct {
	ID               string  `json:"id"`
	Signed           bool    `json:"signed"`
	SignatureCounter *int64  `json:"signature_counter"`
	TSESerialNumber  *string `json:"tse_serial_number"`
	Source           string  `json:"source"` // reconciled: only the TSE's record came back
}

// ackedSale is a sale the box acknowledged, and when.
type ackedSale struct {
	id string
	at time.Time
}

// TestDrillKillUnderLoadAndRestore is the restore drill: the real binary
// serves with a file:// replica and the built-in simulator, sells under
// load, is killed with kill -9, "posbox restore --from" rebuilds its data
// dir into a fresh folder, and the box started there has every sale
// acknowledged longer than drillMargin before the kill, every file with
// its SHA-256, and signs the next sale with the same TSS, its signature
// counter above every one restored.
func TestDrillKillUnderLoadAndRestore(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("kills the appliance with SIGKILL")
	}
	bin := buildPosbox(t)
	nas := filepath.Join(t.TempDir(), "nas")
	if err := os.Mkdir(nas, 0o700); err != nil { // the share, mounted
		t.Fatal(err)
	}
	url := "file://" + nas
	t.Setenv("POSBOX_REPLICA_URL", url)
	old := startAppliance(t, bin)
	token := old.token(t)
	first := drillSign(t, old, token)

	acked := drillLoad(t, old, token, 4, 14*time.Second)
	killedAt := time.Now()
	old.cmd.Process.Kill()
	old.waitExit(t, 30*time.Second)

	fresh := filepath.Join(t.TempDir(), "fresh")
	start := time.Now()
	out, err := exec.Command(bin, "restore", "--from", url, "--key-file", filepath.Join(old.dataDir, replica.KeyFile), "--data-dir", fresh).CombinedOutput()
	if err != nil {
		t.Fatalf("posbox restore --from: %v\n%s", err, out)
	}
	took := time.Since(start)
	t.Logf("posbox restore --from %s (%.1f s):\n%s", url, took.Seconds(), out)
	drillCompareFiles(t, old.dataDir, fresh)
	newKey, _ := os.ReadFile(filepath.Join(fresh, replica.KeyFile))
	if oldKey, _ := os.ReadFile(filepath.Join(old.dataDir, replica.KeyFile)); len(oldKey) == 0 || !bytes.Equal(newKey, oldKey) {
		t.Error("the box's own recovery key was not copied into the new box")
	}

	t.Setenv("POSBOX_REPLICA_URL", "") // the restored box does not write to the old box's replica
	box := startApplianceIn(t, bin, fresh)
	restored, lost := 0, []ackedSale{}
	var maxCounter int64
	for _, s := range acked {
		code, body, err := box.call("GET", "/api/tse/transactions/"+s.id, token, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if code == http.StatusNotFound {
			lost = append(lost, s)
			continue
		}
		var res struct{ Transaction drillSale }
		if code != http.StatusOK || json.Unmarshal(body, &res) != nil {
			t.Fatalf("GET sale %s: %d %s", s.id, code, body)
		}
		if res.Transaction.Source == "reconciled" { // the sale is gone, the TSE's copy came back
			lost = append(lost, s)
			continue
		}
		restored++
		if c := res.Transaction.SignatureCounter; c != nil && *c > maxCounter {
			maxCounter = *c
		}
	}
	lag := time.Duration(0)
	if len(lost) > 0 {
		lag = killedAt.Sub(lost[0].at)
		for _, s := range lost {
			lag = max(lag, killedAt.Sub(s.at))
		}
	}
	if lag > drillMargin {
		t.Errorf("a sale acknowledged %.1f s before the kill is not restored (allowed: %s)", lag.Seconds(), drillMargin)
	}
	next := drillSign(t, box, token)
	if *next.TSESerialNumber != *first.TSESerialNumber {
		t.Errorf("the restored box signs with TSS %s, the old one signed with %s", *next.TSESerialNumber, *first.TSESerialNumber)
	}
	if *next.SignatureCounter <= maxCounter {
		t.Errorf("the next sale's signature counter %d does not continue above the highest restored, %d", *next.SignatureCounter, maxCounter)
	}
	missing := drillAfterRestore(t, box, token, lost)
	stopAppliance(t, box)
	objs, size := drillObjects(t, filepath.Join(nas, "files"))
	t.Logf("drill: %d sales acknowledged under load, killed with kill -9; restored %d (%d not: the last %.1f s before the kill, allowed %s); "+
		"restore took %.1f s; next sale signed by the same TSS with counter %d after %d; the comparison with the TSE listed %d signed sales to re-enter; the replica's files/ held %d objects, %s",
		len(acked), restored, len(lost), lag.Seconds(), drillMargin, took.Seconds(), *next.SignatureCounter, maxCounter, missing, objs, sizeText(size))
}

// drillSign posts one sale and waits until it is signed.
func drillSign(t *testing.T, a *appliance, token string) drillSale {
	t.Helper()
	v := applianceSale(t, a, token)
	code, body, err := a.call("GET", "/api/tse/transactions/"+v.ID, token, "", nil)
	var res struct{ Transaction drillSale }
	if err != nil || code != http.StatusOK || json.Unmarshal(body, &res) != nil {
		t.Fatalf("GET sale %s: %d %s %v", v.ID, code, body, err)
	}
	if s := res.Transaction; s.SignatureCounter == nil || s.TSESerialNumber == nil {
		t.Fatalf("signed sale without a counter or TSS: %s", body)
	}
	return res.Transaction
}

// drillLoad sells from workers registers at once for d and returns every
// sale acknowledged, with the time of its acknowledgement; the workers
// still run when it returns (the box is killed under load).
func drillLoad(t *testing.T, a *appliance, token string, workers int, d time.Duration) []ackedSale {
	t.Helper()
	var (
		mu    sync.Mutex
		acked []ackedSale
		stop  atomic.Bool
		fail  atomic.Value
	)
	for w := range workers {
		go func() {
			for i := 0; !stop.Load(); i++ {
				body := fmt.Sprintf(`{"client_serial":"KASSE-%02d","receipt_type":"RECEIPT",
					"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":%d.50}],
					"amounts_per_payment_type":[{"payment_type":"CASH","amount":%d.50}]}`, w+1, 10+i%50, 10+i%50)
				code, raw, err := a.call("POST", "/api/tse/transactions", token, body, nil)
				at := time.Now()
				if stop.Load() {
					return // the kill may cut any answer
				}
				if err != nil || (code != http.StatusCreated && code != http.StatusAccepted) {
					fail.CompareAndSwap(nil, fmt.Sprintf("sale: %d %s %v", code, raw, err))
					return
				}
				var res struct{ Transaction struct{ ID string } }
				json.Unmarshal(raw, &res)
				mu.Lock()
				acked = append(acked, ackedSale{res.Transaction.ID, at})
				mu.Unlock()
			}
		}()
	}
	time.Sleep(d)
	mu.Lock()
	out := append([]ackedSale(nil), acked...)
	mu.Unlock()
	stop.Store(true)
	if f := fail.Load(); f != nil {
		t.Fatalf("under load: %s", f)
	}
	return out
}

// drillCompareFiles: every file of the old data dir that goes along is
// restored with its SHA-256; the simulator's journal, still being
// appended at the kill, as a prefix of the old one.
func drillCompareFiles(t *testing.T, oldDir, newDir string) {
	t.Helper()
	n := 0
	filepath.WalkDir(oldDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(oldDir, p)
		rel = filepath.ToSlash(rel)
		if !goesAlong(rel) {
			return nil
		}
		was, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(newDir, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			t.Errorf("%s not restored: %v", rel, err)
		case appendOnly(rel):
			if len(got) == 0 || !bytes.HasPrefix(was, got) {
				t.Errorf("%s: the restored journal (%d bytes) is not a beginning of the old one (%d bytes)", rel, len(got), len(was))
			}
		case hexSum(got) != hexSum(was):
			t.Errorf("%s: SHA-256 %s restored, %s on the old box", rel, hexSum(got), hexSum(was))
		}
		n++
		return nil
	})
	if _, err := os.Stat(filepath.Join(newDir, tse.SimDir)); err != nil || n < 3 {
		t.Fatalf("%d files compared; the simulator's state: %v", n, err)
	}
	if !strings.Contains(filepath.ToSlash(newDir), "fresh") {
		t.Fatal("compared the wrong folder")
	}
}

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// drillObjects counts the objects under dir and their bytes.
func drillObjects(t *testing.T, dir string) (n int, size int64) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if fi, err := d.Info(); err == nil {
			n, size = n+1, size+fi.Size()
		}
		return nil
	})
	return n, size
}

// drillAfterRestore waits for the restored box's comparison with the TSE
// (the restore left its marker) and checks it: it lists no sale the box
// has, and every lost sale the TSE's list shows (the box mirrored it as
// reconciled) is on it, to be entered again. It returns how many it lists.
func drillAfterRestore(t *testing.T, box *appliance, token string, lost []ackedSale) int {
	t.Helper()
	var res struct {
		AfterRestore struct {
			State   string `json:"state"`
			Missing []struct {
				ID string `json:"id"`
			} `json:"missing"`
		} `json:"after_restore"`
	}
	// The TSE allows 20 list calls a minute (fiskaly's limit, which the
	// simulator keeps): with the reconciler's calls the comparison may
	// wait out one minute before it reads.
	deadline := time.Now().Add(150 * time.Second)
	for {
		code, body, err := box.call("GET", "/api/tse/after-restore", token, "", nil)
		if err != nil || code != http.StatusOK || json.Unmarshal(body, &res) != nil {
			t.Fatalf("GET /api/tse/after-restore: %d %s %v", code, body, err)
		}
		if res.AfterRestore.State == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the comparison with the TSE after the restore is still %q", res.AfterRestore.State)
		}
		time.Sleep(200 * time.Millisecond)
	}
	listed := map[string]bool{}
	for _, m := range res.AfterRestore.Missing {
		listed[m.ID] = true
		var got struct{ Transaction drillSale }
		code, body, err := box.call("GET", "/api/tse/transactions/"+m.ID, token, "", nil)
		if err == nil && code == http.StatusOK && json.Unmarshal(body, &got) == nil && got.Transaction.Source != "reconciled" {
			t.Errorf("the comparison lists %s as missing, but the restored box has it", m.ID)
		}
	}
	for _, s := range lost {
		var got struct{ Transaction drillSale }
		code, body, err := box.call("GET", "/api/tse/transactions/"+s.id, token, "", nil)
		if err == nil && code == http.StatusOK && json.Unmarshal(body, &got) == nil && got.Transaction.Source == "reconciled" && !listed[s.id] {
			t.Errorf("sale %s was lost and the TSE signed it, but the comparison does not list it", s.id)
		}
	}
	return len(res.AfterRestore.Missing)
}
