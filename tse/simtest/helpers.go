package simtest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// The helpers below are shared by the simulator's own tests (tse/tsesim)
// and the fiskaly client's tests (tse), which drive the client against it.

// NewClock is a test clock at the tests' fixed start, 2026-03-14 11:30 UTC.
func NewClock() *storetest.Clock {
	return storetest.NewClock(time.Date(2026, 3, 14, 11, 30, 0, 0, time.UTC))
}

// Open opens a simulator in dir on clk, changed by mod; it closes with the
// test.
func Open(t testing.TB, dir string, clk *storetest.Clock, mod ...func(*tsesim.Config)) *tsesim.Simulator {
	t.Helper()
	cfg := tsesim.Config{Dir: dir, Now: clk.Now}
	for _, m := range mod {
		m(&cfg)
	}
	s, err := tsesim.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// ExportAll exports every log message of s's default TSS and returns
// the TAR. s must be opened with Config.ExportDelay -1 (the export ready
// at once).
func ExportAll(t testing.TB, s *tsesim.Simulator) []byte {
	t.Helper()
	ctx := context.Background()
	id := tse.NewUUID4()
	if _, err := s.StartExport(ctx, id, tse.ExportFilter{}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Export(ctx, id); err != nil || e.State != tse.ExportCompleted {
		t.Fatalf("export: %+v %v", e, err)
	}
	var b bytes.Buffer
	if _, err := s.DownloadExport(ctx, id, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// ClientID is the client (terminal) the tests register.
const ClientID = "7c1f3b62-3b7e-4d8a-9f5e-1f2a3b4c5d6e"

// SampleReceipt is a receipt of 21.42 at 19 %, paid by card.
func SampleReceipt() *tse.Receipt {
	return &tse.Receipt{
		ReceiptType:           "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "21.42"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "NON_CASH", Amount: "21.42"}},
	}
}

// Body is an upsert body of ClientID in state with receipt r (nil: none).
func Body(t testing.TB, state string, r *tse.Receipt) []byte {
	t.Helper()
	b, err := tse.UpsertBody(state, ClientID, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Sell starts and finishes one transaction and returns both revisions.
func Sell(t testing.TB, p tse.Provider, txID string) (tse.Tx, tse.Tx) {
	t.Helper()
	ctx := context.Background()
	start, err := p.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: 1, Body: Body(t, tse.TxActive, nil)})
	if err != nil {
		t.Fatalf("start %s: %v", txID, err)
	}
	fin, err := p.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: 2, Body: Body(t, tse.TxFinished, SampleReceipt())})
	if err != nil {
		t.Fatalf("finish %s: %v", txID, err)
	}
	return start, fin
}

// WantErr fails the test unless err is a *tse.Error of class, status and
// code; it returns the error.
func WantErr(t testing.TB, err error, class tse.Class, status int, code string) *tse.Error {
	t.Helper()
	var e *tse.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v: want *tse.Error %s %d %s", err, class, status, code)
	}
	if e.Class != class || e.HTTPStatus != status || e.Code != code {
		t.Fatalf("error %v (class %s): want %s %d %s", e, e.Class, class, status, code)
	}
	return e
}
