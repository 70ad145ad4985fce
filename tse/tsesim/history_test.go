package tsesim_test

import (
	"context"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// TestHistory: sales signed as history verify with the TSS's key and
// carry QR codes; once the journal is told where the history ends, new
// transactions number on from there, also after a restart, and the
// simulator finds them by number.
func TestHistory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := tsesim.Open(tsesim.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	finish, _ := tse.UpsertBody(tse.TxFinished, simtest.ClientID, simtest.SampleReceipt(), nil)
	counter := s.Counter()
	start := time.Date(2020, 3, 1, 12, 0, 0, 0, time.UTC)
	for n := uint64(1); n <= 2; n++ {
		h := tsesim.HistorySale{TxID: tse.NewUUID4(), ClientID: simtest.ClientID, Number: n, Counter: counter + 1,
			Start: start, End: start.Add(time.Second), FinishBody: finish}
		r1, r2, err := s.SignHistory(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range []tse.Tx{r1, r2} {
			if err := tse.VerifyTx(s.PublicKey(), tx); err != nil {
				t.Errorf("history revision %d of %d: %v", tx.Revision, n, err)
			}
		}
		if r2.QRCodeData == "" || r2.Number != n || r2.Signature.Counter != counter+2 || r2.State != tse.TxFinished {
			t.Errorf("history sale %d: %+v", n, r2)
		}
		counter += 2
	}
	if err := s.ForgetHistory(counter, 2); err != nil {
		t.Fatal(err)
	}
	id := sell(t, s, 3, counter)
	s.Close()

	s, err = tsesim.Open(tsesim.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if tx, err := s.Tx(ctx, "3", 0); err != nil || tx.ID != id {
		t.Fatalf("transaction 3 after a restart: %+v %v", tx, err)
	}
	if _, err := s.Tx(ctx, "2", 0); err == nil {
		t.Error("a history transaction is found in the journal")
	}
	sell(t, s, 4, counter+1) // the sale before signed its start only
}

// sell signs a sale and checks its number and first signature counter.
func sell(t *testing.T, s *tsesim.Simulator, number, after uint64) string {
	t.Helper()
	ctx := context.Background()
	id := tse.NewUUID4()
	start, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, nil)
	tx, err := s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start})
	if err != nil || tx.Number != number || tx.Signature.Counter != after+1 {
		t.Fatalf("sale after the history: number %d counter %d (%v), want %d and %d", tx.Number, tx.Signature.Counter, err, number, after+1)
	}
	return id
}
