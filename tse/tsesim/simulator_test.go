package tsesim_test

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

func TestSimSignsAVerifiableTransaction(t *testing.T) {
	clk := simtest.NewClock()
	s := simtest.Open(t, t.TempDir(), clk)
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	info, err := s.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State != tse.TSSInitialized || info.ID != s.TSSID() {
		t.Fatalf("TSS %s state %s, want the default TSS INITIALIZED", info.ID, info.State)
	}
	// The serial is the SHA-256 of the public key, and the certificate
	// carries that key and a year of validity.
	pub := s.PublicKey()
	raw, _ := base64.StdEncoding.DecodeString(info.PublicKey)
	sum := sha256.Sum256(raw)
	if len(raw) != 65 || raw[0] != 4 || info.SerialNumber != hex.EncodeToString(sum[:]) {
		t.Fatalf("public key %d bytes, serial %s: want 65-byte point and its SHA-256", len(raw), info.SerialNumber)
	}
	cert, err := x509.ParseCertificate(info.CertificateDER)
	if err != nil {
		t.Fatal(err)
	}
	if !cert.NotAfter.Equal(clk.Now().Add(365*24*time.Hour)) || !info.CertNotAfter.Equal(cert.NotAfter) {
		t.Fatalf("certificate NotAfter %s, info %s", cert.NotAfter, info.CertNotAfter)
	}
	if !pub.Equal(cert.PublicKey) {
		t.Fatal("certificate key is not the TSS key")
	}
	before := info.SignatureCounter
	if err := s.SelfTest(ctx); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.TSS(ctx); after.SignatureCounter != before {
		t.Fatal("the self-test consumed a signature counter")
	}

	clk.Add(5 * time.Second)
	start, fin := simtest.Sell(t, s, tse.NewUUID4())
	for _, tx := range []tse.Tx{start, fin} {
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatalf("revision %d: %v", tx.Revision, err)
		}
	}
	if start.Number != 1 || start.LogOperation != "Start" || start.TimeEnd != nil || start.QRCodeData != "" {
		t.Fatalf("start = %+v", start)
	}
	if fin.Number != 1 || fin.State != tse.TxFinished || fin.LogOperation != "Finish" || fin.TimeEnd == nil {
		t.Fatalf("finish = %+v", fin)
	}
	if fin.Signature.Counter <= start.Signature.Counter || start.Signature.Counter <= 1 {
		t.Fatalf("counters start %d finish %d: want increasing after the setup's system logs", start.Signature.Counter, fin.Signature.Counter)
	}
	if fin.ProcessData != "Beleg^21.42_0.00_0.00_0.00_0.00^21.42:Unbar" || fin.ProcessType != "Kassenbeleg-V1" {
		t.Fatalf("process data %q %q", fin.ProcessType, fin.ProcessData)
	}
	want := fmt.Sprintf("V0;KASSE-01;Kassenbeleg-V1;Beleg^21.42_0.00_0.00_0.00_0.00^21.42:Unbar;1;%d;2026-03-14T11:30:05.000Z;2026-03-14T11:30:05.000Z;ecdsa-plain-SHA256;unixTime;%s;%s",
		fin.Signature.Counter, fin.Signature.Value, info.PublicKey)
	if fin.QRCodeData != want {
		t.Fatalf("qr_code_data\n got %s\nwant %s", fin.QRCodeData, want)
	}
	// A tampered revision does not verify.
	bad := fin
	bad.ProcessData = strings.Replace(bad.ProcessData, "21.42", "2.14", 1)
	if err := tse.VerifyTx(pub, bad); err == nil {
		t.Fatal("a changed amount still verifies")
	}
}

func TestSimCountersSurviveRestart(t *testing.T) {
	dir, clk := t.TempDir(), simtest.NewClock()
	s := simtest.Open(t, dir, clk)
	if _, err := s.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	id, pub := s.TSSID(), s.PublicKey()
	var all []tse.Tx
	for range 3 {
		a, b := simtest.Sell(t, s, tse.NewUUID4())
		all = append(all, a, b)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "tss-"+id+".key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v, want mode 0600", fi, err)
	}
	s2 := simtest.Open(t, dir, clk)
	if s2.TSSID() != id || !s2.PublicKey().Equal(pub) {
		t.Fatal("reopen made another TSS")
	}
	for range 2 {
		a, b := simtest.Sell(t, s2, tse.NewUUID4())
		all = append(all, a, b)
	}
	for i, tx := range all {
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatal(err)
		}
		if want := uint64(i/2 + 1); tx.Number != want {
			t.Fatalf("revision %d: number %d, want %d (gap-free)", i, tx.Number, want)
		}
		if i > 0 && tx.Signature.Counter <= all[i-1].Signature.Counter {
			t.Fatalf("counter %d after %d", tx.Signature.Counter, all[i-1].Signature.Counter)
		}
	}
	info, _ := s2.TSS(context.Background())
	if info.TransactionCounter != 5 || info.SignatureCounter != all[len(all)-1].Signature.Counter || info.ActiveTransactions != 0 {
		t.Fatalf("info after restart: %+v", info)
	}
	// The first transaction reads back as it was signed.
	got, err := s2.Tx(context.Background(), all[0].ID, 0)
	if err != nil || got.QRCodeData != all[1].QRCodeData || got.LatestRevision != 2 {
		t.Fatalf("read back %+v %v", got, err)
	}
}

func TestSimCutsATornJournalTail(t *testing.T) {
	dir, clk := t.TempDir(), simtest.NewClock()
	s := simtest.Open(t, dir, clk)
	s.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01")
	_, fin := simtest.Sell(t, s, tse.NewUUID4())
	s.Close()
	// The process died halfway through writing a line.
	f, err := os.OpenFile(filepath.Join(dir, tsesim.JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"tx","tss":"`)
	f.Close()
	s2 := simtest.Open(t, dir, clk)
	start, _ := simtest.Sell(t, s2, tse.NewUUID4())
	if start.Number != 2 || start.Signature.Counter != fin.Signature.Counter+1 {
		t.Fatalf("after a torn tail: number %d counter %d (last %d)", start.Number, start.Signature.Counter, fin.Signature.Counter)
	}
	s2.Close()
	// Damage before the end is not silently dropped.
	j := filepath.Join(dir, tsesim.JournalFile)
	b, _ := os.ReadFile(j)
	os.WriteFile(j, append([]byte("garbage\n"), b...), 0o600)
	if _, err := tsesim.Open(tsesim.Config{Dir: dir, Now: clk.Now}); err == nil {
		t.Fatal("a damaged journal opened")
	}
}

func TestSimRevisionRules(t *testing.T) {
	s := simtest.Open(t, t.TempDir(), simtest.NewClock())
	ctx := context.Background()
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	id := tse.NewUUID4()
	r1 := tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}
	first, err := s.Upsert(ctx, r1)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Upsert(ctx, r1)
	if err != nil || again.Signature != first.Signature || again.Number != first.Number {
		t.Fatalf("resend answered %+v %v, want the first answer", again, err)
	}
	withMeta, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, map[string]string{"k": "v"})
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: withMeta})
	simtest.WantErr(t, err, tse.Reconcile, 409, "E_TX_UPSERT")
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 3, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.Reconcile, 400, "E_TX_UPSERT")
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 2, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.Reconcile, 404, "E_TX_NOT_FOUND")
	bad := simtest.SampleReceipt()
	bad.AmountsPerVATRate[0].Amount = "21.4"
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, bad)})
	simtest.WantErr(t, err, tse.TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, nil)})
	simtest.WantErr(t, err, tse.TxPermanent, 409, "E_TX_NO_TYPE_DEFINED")
	// None of the refused calls consumed a number or a counter.
	fin, err := s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	if err != nil || fin.Signature.Counter != first.Signature.Counter+1 {
		t.Fatalf("finish %+v %v", fin, err)
	}
	_, err = s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 3, Body: simtest.Body(t, tse.TxCancelled, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.Reconcile, 400, "E_TX_UPSERT")
	next, _ := simtest.Sell(t, s, tse.NewUUID4())
	if next.Number != 2 {
		t.Fatalf("next number %d, want 2", next.Number)
	}
	// Reading an old revision and a missing one.
	old, err := s.Tx(ctx, id, 1)
	if err != nil || old.Revision != 1 || old.LatestRevision != 2 {
		t.Fatalf("revision 1: %+v %v", old, err)
	}
	_, err = s.Tx(ctx, id, 5)
	simtest.WantErr(t, err, tse.Reconcile, 400, "E_TX_REVISION_NOT_FOUND")
}

func TestSimRefusesWhenTheTSSCannotSign(t *testing.T) {
	s := simtest.Open(t, t.TempDir(), simtest.NewClock(), func(c *tsesim.Config) { c.MaxActiveTx = 2 })
	ctx := context.Background()
	start := func() error {
		_, err := s.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
		return err
	}
	simtest.WantErr(t, start(), tse.TSSPermanent, 400, "E_CLIENT_NOT_FOUND")
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	for range 2 {
		if err := start(); err != nil {
			t.Fatalf("a start under the limit failed: %v", err)
		}
	}
	simtest.WantErr(t, start(), tse.TSSPermanent, 400, "E_TX_LIMIT_REACHED")

	if err := s.ExpireCertificate(); err != nil {
		t.Fatal(err)
	}
	simtest.WantErr(t, start(), tse.TSSPermanent, 423, "E_CERTIFICATE_EXPIRED")
	if err := s.SetState(tse.TSSDisabled); err != nil {
		t.Fatal(err)
	}
	simtest.WantErr(t, start(), tse.TSSPermanent, 400, "E_TSS_DISABLED")
	s.SetState(tse.TSSDefective)
	simtest.WantErr(t, start(), tse.TSSPermanent, 423, "E_TSS_DEFECTIVE")
	if info, _ := s.TSS(ctx); info.State != tse.TSSDefective || !info.CertNotAfter.Before(time.Now()) {
		t.Fatalf("info %s %s", info.State, info.CertNotAfter)
	}
}

func TestSimFaults(t *testing.T) {
	s := simtest.Open(t, t.TempDir(), simtest.NewClock())
	ctx := context.Background()
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")

	s.SetFault(tsesim.Fault{Offline: true})
	_, err := s.TSS(ctx)
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeNetwork)

	s.SetFault(tsesim.Fault{Latency: time.Hour})
	short, cancel := context.WithTimeout(ctx, time.Millisecond)
	_, err = s.TSS(short)
	cancel()
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeTimeout)

	s.SetFault(tsesim.Fault{RateLimited: 7 * time.Second})
	_, err = s.ListTx(ctx, tse.ListQuery{})
	if e := simtest.WantErr(t, err, tse.RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != 7*time.Second {
		t.Fatalf("Retry-After %s", e.RetryAfter)
	}

	s.SetFault(tsesim.Fault{FlakyEvery: 2})
	var failed []int
	for i := 1; i <= 4; i++ {
		if _, err := s.TSS(ctx); err != nil {
			simtest.WantErr(t, err, tse.Transient, 503, "E_TSS_LOCKED")
			failed = append(failed, i)
		}
	}
	if fmt.Sprint(failed) != "[2 4]" {
		t.Fatalf("flaky calls %v, want [2 4]", failed)
	}

	// Applied, then the answer is lost: a resend of the same bytes gets
	// the same transaction, not a second one.
	s.SetFault(tsesim.Fault{ApplyThenTimeout: 1})
	r1 := tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}
	_, err = s.Upsert(ctx, r1)
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeTimeout)
	got, err := s.Upsert(ctx, r1)
	if err != nil || got.Number != 1 {
		t.Fatalf("resend: %+v %v", got, err)
	}
	info, _ := s.TSS(ctx)
	if info.TransactionCounter != 1 || info.ActiveTransactions != 1 {
		t.Fatalf("after apply-then-timeout and resend: %d transactions, %d active", info.TransactionCounter, info.ActiveTransactions)
	}
	s.SetFault(tsesim.Fault{})
	if _, err := s.TSS(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestSimListTx(t *testing.T) {
	clk := simtest.NewClock()
	s := simtest.Open(t, t.TempDir(), clk)
	ctx := context.Background()
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	for range 3 {
		clk.Add(time.Second)
		simtest.Sell(t, s, tse.NewUUID4())
	}
	s.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})

	page, err := s.ListTx(ctx, tse.ListQuery{OrderBy: "number", Order: "desc", Limit: 2, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 || page.Data[0].Number != 3 || page.Data[1].Number != 2 {
		t.Fatalf("page %+v", page)
	}
	page, _ = s.ListTx(ctx, tse.ListQuery{States: []string{tse.TxActive}})
	if page.Count != 1 || page.Data[0].Number != 4 {
		t.Fatalf("ACTIVE page %+v", page)
	}
	_, err = s.ListTx(ctx, tse.ListQuery{Limit: 101})
	simtest.WantErr(t, err, tse.TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	// 20 calls a minute; three made above.
	for i := 3; i < 20; i++ {
		if _, err := s.ListTx(ctx, tse.ListQuery{}); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	_, err = s.ListTx(ctx, tse.ListQuery{})
	if e := simtest.WantErr(t, err, tse.RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != time.Minute {
		t.Fatalf("Retry-After %s", e.RetryAfter)
	}
	clk.Add(time.Minute)
	if _, err := s.ListTx(ctx, tse.ListQuery{}); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}

func TestSimConcurrentSalesKeepNumbersGapFree(t *testing.T) {
	s := simtest.Open(t, t.TempDir(), simtest.NewClock())
	s.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01")
	const n = 40
	var wg sync.WaitGroup
	txs := make(chan tse.Tx, 2*n)
	start, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, simtest.ClientID, simtest.SampleReceipt(), nil)
	for range n {
		wg.Go(func() {
			id := tse.NewUUID4()
			for rev, b := range [][]byte{start, finish} {
				tx, err := s.Upsert(context.Background(), tse.UpsertRequest{TxID: id, Revision: rev + 1, Body: b})
				if err != nil {
					t.Error(err)
					return
				}
				txs <- tx
			}
		})
	}
	wg.Wait()
	close(txs)
	numbers, counters := map[uint64]bool{}, map[uint64]bool{}
	for tx := range txs {
		numbers[tx.Number] = true
		if counters[tx.Signature.Counter] {
			t.Fatalf("counter %d used twice", tx.Signature.Counter)
		}
		counters[tx.Signature.Counter] = true
	}
	for i := uint64(1); i <= n; i++ {
		if !numbers[i] {
			t.Fatalf("number %d missing", i)
		}
	}
}
