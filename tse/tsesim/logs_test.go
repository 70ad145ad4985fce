package tsesim_test

import (
	"archive/tar"
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

// systemLogs parses the TAR's system log messages by operation.
func systemLogs(t testing.TB, b []byte) map[string][]*tsetar.LogMessage {
	t.Helper()
	out := map[string][]*tsetar.LogMessage{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(hdr.Name, "_Log-Sys_") {
			continue
		}
		der, _ := io.ReadAll(tr)
		m, err := tsetar.ParseLogMessage(der)
		if err != nil {
			t.Fatalf("%s: %v", hdr.Name, err)
		}
		out[m.EventType] = append(out[m.EventType], m)
	}
}

// Finding: the system logs of the admin PIN (unblockUser), the admin
// logout (logOut) and personalisation (updateDevice) carried only the
// userId: no unblockResult, logOutCause or oldVersion, which TR-03151
// makes mandatory and a third-party checker aborts on. A decommissioning
// (disableSecureElement) carried a string where TR-03151 has the time of
// deactivation.
func TestSimSystemLogsCarryTheirMandatoryFields(t *testing.T) {
	clk := simtest.NewClock()
	s := simtest.Open(t, t.TempDir(), clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	clk.Add(90 * time.Second)
	if err := s.SetState(tse.TSSDisabled); err != nil {
		t.Fatal(err)
	}
	b := simtest.ExportAll(t, s)
	if _, err := tsetar.Verify(bytes.NewReader(b), tsetar.Options{PublicKey: s.PublicKey(), FirstCounter: 1}); err != nil {
		t.Fatalf("verify: %v", err)
	}
	logs := systemLogs(t, b)
	want := map[string]string{
		"unblockUser": "810561646d696e820100", // admin, ok
		"logOut":      "810561646d696e820100", // admin, by the user
	}
	for ev, data := range want {
		if len(logs[ev]) != 1 || hex.EncodeToString(logs[ev][0].SystemOperationData) != data {
			t.Fatalf("%s: %v", ev, logs[ev])
		}
	}
	up := logs["updateDevice"]
	if len(up) != 1 || tsetar.CheckSystemOperationData("updateDevice", up[0].SystemOperationData) != nil ||
		!bytes.Contains(up[0].SystemOperationData, []byte("posbox simulator")) {
		t.Fatalf("updateDevice: %v", up)
	}
	off := logs["disableSecureElement"]
	if len(off) != 1 {
		t.Fatalf("disableSecureElement: %v", off)
	}
	d := off[0].SystemOperationData
	var at int64
	for _, c := range d[2:] {
		at = at<<8 | int64(c)
	}
	if d[0] != 0x81 || int(d[1]) != len(d)-2 || at != off[0].LogTime.Unix() || at != clk.Now().Unix() {
		t.Fatalf("disableSecureElement: timeOfDeactivation %x, want unix time %d", d, clk.Now().Unix())
	}
}

// A journal written before the fix holds those system logs signed over
// the incomplete data. Its export carries the complete data, freshly
// signed, with the same counters and times, and verifies.
func TestSimExportCompletesOldSystemLogs(t *testing.T) {
	dir := t.TempDir()
	clk := simtest.NewClock()
	s := simtest.Open(t, dir, clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	key, serial := tsesim.DefaultKey(s), s.PublicKey()
	s.Close()
	sum, _ := hex.DecodeString(tse.SerialNumber(serial))

	path := filepath.Join(dir, tsesim.JournalFile)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rewritten := 0
	sc := bufio.NewScanner(bytes.NewReader(old))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec tsesim.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		switch rec.Event {
		case "unblockUser", "logOut", "updateDevice": // as the old simulator wrote them
			rec.EventData = []byte("\x81\x05admin")
			m := &tsetar.LogMessage{Kind: tsetar.KindSystem, SerialNumber: sum, SignatureAlgorithm: tsetar.OIDECDSAPlainSHA256,
				SignatureCounter: rec.Counter, LogTime: clk.Now(), EventType: rec.Event, SystemOperationData: rec.EventData}
			if err := m.Sign(key); err != nil {
				t.Fatal(err)
			}
			rec.LogSig = m.SignatureValue
			rewritten++
		}
		b, _ := json.Marshal(rec)
		out.Write(append(b, '\n'))
	}
	if rewritten != 3 {
		t.Fatalf("rewrote %d system logs, want 3", rewritten)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	s2 := simtest.Open(t, dir, clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	b := simtest.ExportAll(t, s2)
	rep, err := tsetar.Verify(bytes.NewReader(b), tsetar.Options{PublicKey: serial, FirstCounter: 1, LastCounter: 5})
	if err != nil || rep.Count != 5 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	if d := systemLogs(t, b)["unblockUser"][0].SystemOperationData; !bytes.Equal(d, tsetar.UnblockUserData("admin", tsetar.UnblockOK)) {
		t.Fatalf("unblockUser data %x", d)
	}
}
