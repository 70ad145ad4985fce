package tse

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/store/storetest"
)

func newTestClock() *storetest.Clock {
	return storetest.NewClock(time.Date(2026, 3, 14, 11, 30, 0, 0, time.UTC))
}

func openSim(t testing.TB, dir string, clk *storetest.Clock, mod ...func(*SimConfig)) *Simulator {
	t.Helper()
	cfg := SimConfig{Dir: dir, Now: clk.Now}
	for _, m := range mod {
		m(&cfg)
	}
	s, err := OpenSimulator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

const testClient = "7c1f3b62-3b7e-4d8a-9f5e-1f2a3b4c5d6e"

func sampleReceipt() *Receipt {
	return &Receipt{
		ReceiptType:           "RECEIPT",
		AmountsPerVATRate:     []AmountPerVATRate{{VATRate: "NORMAL", Amount: "21.42"}},
		AmountsPerPaymentType: []AmountPerPayment{{PaymentType: "NON_CASH", Amount: "21.42"}},
	}
}

func body(t testing.TB, state string, r *Receipt) []byte {
	t.Helper()
	b, err := UpsertBody(state, testClient, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sell starts and finishes one transaction and returns both revisions.
func sell(t testing.TB, p Provider, txID string) (Tx, Tx) {
	t.Helper()
	ctx := context.Background()
	start, err := p.Upsert(ctx, UpsertRequest{TxID: txID, Revision: 1, Body: body(t, TxActive, nil)})
	if err != nil {
		t.Fatalf("start %s: %v", txID, err)
	}
	fin, err := p.Upsert(ctx, UpsertRequest{TxID: txID, Revision: 2, Body: body(t, TxFinished, sampleReceipt())})
	if err != nil {
		t.Fatalf("finish %s: %v", txID, err)
	}
	return start, fin
}

func wantErr(t testing.TB, err error, class Class, status int, code string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v: want *tse.Error %s %d %s", err, class, status, code)
	}
	if e.Class != class || e.HTTPStatus != status || e.Code != code {
		t.Fatalf("error %v (class %s): want %s %d %s", e, e.Class, class, status, code)
	}
	return e
}

func TestSimSignsAVerifiableTransaction(t *testing.T) {
	clk := newTestClock()
	s := openSim(t, t.TempDir(), clk)
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, testClient, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	info, err := s.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State != TSSInitialized || info.ID != s.TSSID() {
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
	start, fin := sell(t, s, NewUUID4())
	for _, tx := range []Tx{start, fin} {
		if err := VerifyTx(pub, tx); err != nil {
			t.Fatalf("revision %d: %v", tx.Revision, err)
		}
	}
	if start.Number != 1 || start.LogOperation != "Start" || start.TimeEnd != nil || start.QRCodeData != "" {
		t.Fatalf("start = %+v", start)
	}
	if fin.Number != 1 || fin.State != TxFinished || fin.LogOperation != "Finish" || fin.TimeEnd == nil {
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
	if err := VerifyTx(pub, bad); err == nil {
		t.Fatal("a changed amount still verifies")
	}
}

func TestSimCountersSurviveRestart(t *testing.T) {
	dir, clk := t.TempDir(), newTestClock()
	s := openSim(t, dir, clk)
	if _, err := s.EnsureClient(context.Background(), testClient, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	id, pub := s.TSSID(), s.PublicKey()
	var all []Tx
	for range 3 {
		a, b := sell(t, s, NewUUID4())
		all = append(all, a, b)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "tss-"+id+".key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v, want mode 0600", fi, err)
	}
	s2 := openSim(t, dir, clk)
	if s2.TSSID() != id || !s2.PublicKey().Equal(pub) {
		t.Fatal("reopen made another TSS")
	}
	for range 2 {
		a, b := sell(t, s2, NewUUID4())
		all = append(all, a, b)
	}
	for i, tx := range all {
		if err := VerifyTx(pub, tx); err != nil {
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
	dir, clk := t.TempDir(), newTestClock()
	s := openSim(t, dir, clk)
	s.EnsureClient(context.Background(), testClient, "KASSE-01")
	_, fin := sell(t, s, NewUUID4())
	s.Close()
	// The process died halfway through writing a line.
	f, err := os.OpenFile(filepath.Join(dir, journalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"op":"tx","tss":"`)
	f.Close()
	s2 := openSim(t, dir, clk)
	start, _ := sell(t, s2, NewUUID4())
	if start.Number != 2 || start.Signature.Counter != fin.Signature.Counter+1 {
		t.Fatalf("after a torn tail: number %d counter %d (last %d)", start.Number, start.Signature.Counter, fin.Signature.Counter)
	}
	s2.Close()
	// Damage before the end is not silently dropped.
	j := filepath.Join(dir, journalFile)
	b, _ := os.ReadFile(j)
	os.WriteFile(j, append([]byte("garbage\n"), b...), 0o600)
	if _, err := OpenSimulator(SimConfig{Dir: dir, Now: clk.Now}); err == nil {
		t.Fatal("a damaged journal opened")
	}
}

func TestSimRevisionRules(t *testing.T) {
	s := openSim(t, t.TempDir(), newTestClock())
	ctx := context.Background()
	s.EnsureClient(ctx, testClient, "KASSE-01")
	id := NewUUID4()
	r1 := UpsertRequest{TxID: id, Revision: 1, Body: body(t, TxActive, nil)}
	first, err := s.Upsert(ctx, r1)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Upsert(ctx, r1)
	if err != nil || again.Signature != first.Signature || again.Number != first.Number {
		t.Fatalf("resend answered %+v %v, want the first answer", again, err)
	}
	withMeta, _ := UpsertBody(TxActive, testClient, nil, map[string]string{"k": "v"})
	_, err = s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 1, Body: withMeta})
	wantErr(t, err, Reconcile, 409, "E_TX_UPSERT")
	_, err = s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 3, Body: body(t, TxFinished, sampleReceipt())})
	wantErr(t, err, Reconcile, 400, "E_TX_UPSERT")
	_, err = s.Upsert(ctx, UpsertRequest{TxID: NewUUID4(), Revision: 2, Body: body(t, TxFinished, sampleReceipt())})
	wantErr(t, err, Reconcile, 404, "E_TX_NOT_FOUND")
	bad := sampleReceipt()
	bad.AmountsPerVATRate[0].Amount = "21.4"
	_, err = s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: body(t, TxFinished, bad)})
	wantErr(t, err, TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	_, err = s.Upsert(ctx, UpsertRequest{TxID: NewUUID4(), Revision: 1, Body: body(t, TxActive, sampleReceipt())})
	wantErr(t, err, TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	_, err = s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: body(t, TxFinished, nil)})
	wantErr(t, err, TxPermanent, 409, "E_TX_NO_TYPE_DEFINED")
	// None of the refused calls consumed a number or a counter.
	fin, err := s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: body(t, TxFinished, sampleReceipt())})
	if err != nil || fin.Signature.Counter != first.Signature.Counter+1 {
		t.Fatalf("finish %+v %v", fin, err)
	}
	_, err = s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 3, Body: body(t, TxCancelled, sampleReceipt())})
	wantErr(t, err, Reconcile, 400, "E_TX_UPSERT")
	next, _ := sell(t, s, NewUUID4())
	if next.Number != 2 {
		t.Fatalf("next number %d, want 2", next.Number)
	}
	// Reading an old revision and a missing one.
	old, err := s.Tx(ctx, id, 1)
	if err != nil || old.Revision != 1 || old.LatestRevision != 2 {
		t.Fatalf("revision 1: %+v %v", old, err)
	}
	_, err = s.Tx(ctx, id, 5)
	wantErr(t, err, Reconcile, 400, "E_TX_REVISION_NOT_FOUND")
}

func TestSimRefusesWhenTheTSSCannotSign(t *testing.T) {
	s := openSim(t, t.TempDir(), newTestClock(), func(c *SimConfig) { c.MaxActiveTx = 2 })
	ctx := context.Background()
	start := func() error {
		_, err := s.Upsert(ctx, UpsertRequest{TxID: NewUUID4(), Revision: 1, Body: body(t, TxActive, nil)})
		return err
	}
	wantErr(t, start(), TSSPermanent, 400, "E_CLIENT_NOT_FOUND")
	s.EnsureClient(ctx, testClient, "KASSE-01")
	for range 2 {
		if err := start(); err != nil {
			t.Fatalf("a start under the limit failed: %v", err)
		}
	}
	wantErr(t, start(), TSSPermanent, 400, "E_TX_LIMIT_REACHED")

	if err := s.ExpireCertificate(); err != nil {
		t.Fatal(err)
	}
	wantErr(t, start(), TSSPermanent, 423, "E_CERTIFICATE_EXPIRED")
	if err := s.SetState(TSSDisabled); err != nil {
		t.Fatal(err)
	}
	wantErr(t, start(), TSSPermanent, 400, "E_TSS_DISABLED")
	s.SetState(TSSDefective)
	wantErr(t, start(), TSSPermanent, 423, "E_TSS_DEFECTIVE")
	if info, _ := s.TSS(ctx); info.State != TSSDefective || !info.CertNotAfter.Before(time.Now()) {
		t.Fatalf("info %s %s", info.State, info.CertNotAfter)
	}
}

func TestSimFaults(t *testing.T) {
	s := openSim(t, t.TempDir(), newTestClock())
	ctx := context.Background()
	s.EnsureClient(ctx, testClient, "KASSE-01")

	s.SetFault(Fault{Offline: true})
	_, err := s.TSS(ctx)
	wantErr(t, err, Transient, 0, CodeNetwork)

	s.SetFault(Fault{Latency: time.Hour})
	short, cancel := context.WithTimeout(ctx, time.Millisecond)
	_, err = s.TSS(short)
	cancel()
	wantErr(t, err, Transient, 0, CodeTimeout)

	s.SetFault(Fault{RateLimited: 7 * time.Second})
	_, err = s.ListTx(ctx, ListQuery{})
	if e := wantErr(t, err, RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != 7*time.Second {
		t.Fatalf("Retry-After %s", e.RetryAfter)
	}

	s.SetFault(Fault{FlakyEvery: 2})
	var failed []int
	for i := 1; i <= 4; i++ {
		if _, err := s.TSS(ctx); err != nil {
			wantErr(t, err, Transient, 503, "E_TSS_LOCKED")
			failed = append(failed, i)
		}
	}
	if fmt.Sprint(failed) != "[2 4]" {
		t.Fatalf("flaky calls %v, want [2 4]", failed)
	}

	// Applied, then the answer is lost: a resend of the same bytes gets
	// the same transaction, not a second one.
	s.SetFault(Fault{ApplyThenTimeout: 1})
	r1 := UpsertRequest{TxID: NewUUID4(), Revision: 1, Body: body(t, TxActive, nil)}
	_, err = s.Upsert(ctx, r1)
	wantErr(t, err, Transient, 0, CodeTimeout)
	got, err := s.Upsert(ctx, r1)
	if err != nil || got.Number != 1 {
		t.Fatalf("resend: %+v %v", got, err)
	}
	info, _ := s.TSS(ctx)
	if info.TransactionCounter != 1 || info.ActiveTransactions != 1 {
		t.Fatalf("after apply-then-timeout and resend: %d transactions, %d active", info.TransactionCounter, info.ActiveTransactions)
	}
	s.SetFault(Fault{})
	if _, err := s.TSS(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestSimListTx(t *testing.T) {
	clk := newTestClock()
	s := openSim(t, t.TempDir(), clk)
	ctx := context.Background()
	s.EnsureClient(ctx, testClient, "KASSE-01")
	for range 3 {
		clk.Add(time.Second)
		sell(t, s, NewUUID4())
	}
	s.Upsert(ctx, UpsertRequest{TxID: NewUUID4(), Revision: 1, Body: body(t, TxActive, nil)})

	page, err := s.ListTx(ctx, ListQuery{OrderBy: "number", Order: "desc", Limit: 2, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 || page.Data[0].Number != 3 || page.Data[1].Number != 2 {
		t.Fatalf("page %+v", page)
	}
	page, _ = s.ListTx(ctx, ListQuery{States: []string{TxActive}})
	if page.Count != 1 || page.Data[0].Number != 4 {
		t.Fatalf("ACTIVE page %+v", page)
	}
	_, err = s.ListTx(ctx, ListQuery{Limit: 101})
	wantErr(t, err, TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION")
	// 20 calls a minute; three made above.
	for i := 3; i < 20; i++ {
		if _, err := s.ListTx(ctx, ListQuery{}); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	_, err = s.ListTx(ctx, ListQuery{})
	if e := wantErr(t, err, RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != time.Minute {
		t.Fatalf("Retry-After %s", e.RetryAfter)
	}
	clk.Add(time.Minute)
	if _, err := s.ListTx(ctx, ListQuery{}); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
}

func TestSimConcurrentSalesKeepNumbersGapFree(t *testing.T) {
	s := openSim(t, t.TempDir(), newTestClock())
	s.EnsureClient(context.Background(), testClient, "KASSE-01")
	const n = 40
	var wg sync.WaitGroup
	txs := make(chan Tx, 2*n)
	start, _ := UpsertBody(TxActive, testClient, nil, nil)
	finish, _ := UpsertBody(TxFinished, testClient, sampleReceipt(), nil)
	for range n {
		wg.Go(func() {
			id := NewUUID4()
			for rev, b := range [][]byte{start, finish} {
				tx, err := s.Upsert(context.Background(), UpsertRequest{TxID: id, Revision: rev + 1, Body: b})
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

func TestProcessData(t *testing.T) {
	r := &Receipt{
		ReceiptType: "RECEIPT",
		AmountsPerVATRate: []AmountPerVATRate{
			{VATRate: "REDUCED_1", Amount: "3.50"}, {VATRate: "NORMAL", Amount: "10.00"},
			{VATRate: "REDUCED_1", Amount: "1.005"}, {VATRate: "NULL", Amount: "-2.00"},
		},
		AmountsPerPaymentType: []AmountPerPayment{
			{PaymentType: "NON_CASH", Amount: "5.00"}, {PaymentType: "CASH", Amount: "2.00", CurrencyCode: "USD"},
			{PaymentType: "CASH", Amount: "5.505"},
		},
	}
	if err := ValidateReceipt(r); err != nil {
		t.Fatal(err)
	}
	want := "Beleg^10.00_4.505_0.00_0.00_-2.00^5.505:Bar_2.00:Bar:USD_5.00:Unbar"
	if got := ProcessData(r); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	r.ReceiptType = "ABORT"
	r.AmountsPerPaymentType = nil
	if got := ProcessData(r); got != "AVBelegabbruch^10.00_4.505_0.00_0.00_-2.00^" {
		t.Fatal(got)
	}
}
