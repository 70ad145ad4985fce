package tse

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"posbox/tse/tsetar"
)

func TestExportRanges(t *testing.T) {
	got := ExportRanges(0, 2_500_000, 0)
	want := []ExportFilter{{StartSignatureCounter: 1, EndSignatureCounter: 1_000_000},
		{StartSignatureCounter: 1_000_001, EndSignatureCounter: 2_000_000},
		{StartSignatureCounter: 2_000_001, EndSignatureCounter: 2_500_000}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("range %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if r := ExportRanges(7, 9, 2); len(r) != 2 || r[1].StartSignatureCounter != 9 || r[1].EndSignatureCounter != 9 {
		t.Fatalf("%+v", r)
	}
	if r := ExportRanges(10, 9, 0); len(r) != 0 {
		t.Fatalf("%+v", r)
	}
}

// A journal written before the simulator signed TR-03151 log messages
// (no log_v, no system log signatures, transaction signatures over the
// old "|"-joined data) still exports a TAR that verifies, and its old
// signatures still pass VerifyTx.
func TestExportOfAnOldJournal(t *testing.T) {
	dir := t.TempDir()
	clk := newTestClock()
	s := openSim(t, dir, clk, func(c *SimConfig) { c.ExportDelay = -1 })
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, testClient, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	sell(t, s, NewUUID4())
	pub := s.PublicKey()
	key := s.def.key
	s.Close()

	// Rewrite the journal as the old simulator wrote it.
	path := filepath.Join(dir, journalFile)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var oldTxs []Tx
	sc := bufio.NewScanner(bytes.NewReader(old))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		rec.LogV, rec.Event, rec.EventData, rec.LogSig, rec.CACert = 0, "", nil, nil, nil
		if rec.Tx != nil {
			if rec.Tx.Signature.Value, err = signPlain(key, LegacySignedData(*rec.Tx)); err != nil {
				t.Fatal(err)
			}
			oldTxs = append(oldTxs, *rec.Tx)
		}
		b, _ := json.Marshal(rec)
		out.Write(append(b, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tx := range oldTxs {
		if err := VerifyTx(pub, tx); err != nil {
			t.Fatalf("old signature: %v", err)
		}
		if m, _ := TxLogMessage(tx); m.Verify(pub) == nil {
			t.Fatal("an old signature passed as a log message signature: the test rewrote nothing")
		}
	}

	s2 := openSim(t, dir, clk, func(c *SimConfig) { c.ExportDelay = -1 })
	id := NewUUID4()
	if _, err := s2.StartExport(ctx, id, ExportFilter{}); err != nil {
		t.Fatal(err)
	}
	if e, err := s2.Export(ctx, id); err != nil || e.State != ExportCompleted {
		t.Fatalf("export: %+v %v", e, err)
	}
	var b bytes.Buffer
	if _, err := s2.DownloadExport(ctx, id, &b); err != nil {
		t.Fatal(err)
	}
	rep, err := tsetar.Verify(bytes.NewReader(b.Bytes()), tsetar.Options{FirstCounter: 1, LastCounter: oldTxs[len(oldTxs)-1].Signature.Counter})
	if err != nil || rep.Transactions != 2 || len(rep.Certificates) != 1 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}
