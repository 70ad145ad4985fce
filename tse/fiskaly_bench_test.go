package tse_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// BenchmarkFiskalySaleOverHTTP is one sale through the fiskaly client
// against the HTTP simulator on loopback.
func BenchmarkFiskalySaleOverHTTP(b *testing.B) {
	s, err := tsesim.Open(tsesim.Config{Dir: b.TempDir(), MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(tsesim.NewServer(s, "k", "s"))
	defer ts.Close()
	f, _ := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: ts.URL, APIKey: "k", APISecret: "s", TSSID: s.TSSID(), AdminPIN: tsesim.DefaultAdminPIN})
	defer f.Close()
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		b.Fatal(err)
	}
	start, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, simtest.ClientID, simtest.SampleReceipt(), nil)
	b.ReportAllocs()
	for b.Loop() {
		id := tse.NewUUID4()
		if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish}); err != nil {
			b.Fatal(err)
		}
	}
}
