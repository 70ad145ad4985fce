package tsesim_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

// A journal written before the simulator signed TR-03151 log messages
// (no log_v, no system log signatures, transaction signatures over the
// old "|"-joined data) still exports a TAR that verifies, and its old
// signatures still pass VerifyTx.
func TestExportOfAnOldJournal(t *testing.T) {
	dir := t.TempDir()
	clk := simtest.NewClock()
	s := simtest.Open(t, dir, clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	simtest.Sell(t, s, tse.NewUUID4())
	pub := s.PublicKey()
	key := tsesim.DefaultKey(s)
	s.Close()

	// Rewrite the journal as the old simulator wrote it.
	path := filepath.Join(dir, tsesim.JournalFile)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var oldTxs []tse.Tx
	sc := bufio.NewScanner(bytes.NewReader(old))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec tsesim.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		rec.LogV, rec.Event, rec.EventData, rec.LogSig, rec.CACert = 0, "", nil, nil, nil
		if rec.Tx != nil {
			if rec.Tx.Signature.Value, err = tsesim.SignPlain(key, tse.LegacySignedData(*rec.Tx)); err != nil {
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
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatalf("old signature: %v", err)
		}
		if m, _ := tse.TxLogMessage(tx); m.Verify(pub) == nil {
			t.Fatal("an old signature passed as a log message signature: the test rewrote nothing")
		}
	}

	s2 := simtest.Open(t, dir, clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	raw := simtest.ExportAll(t, s2)
	rep, err := tsetar.Verify(bytes.NewReader(raw), tsetar.Options{FirstCounter: 1, LastCounter: oldTxs[len(oldTxs)-1].Signature.Counter})
	if err != nil || rep.Transactions != 2 || len(rep.Certificates) != 1 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}
