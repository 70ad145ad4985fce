package tse

import (
	"context"
	"net/http/httptest"
	"testing"
)

// BenchmarkSimSale is one signed sale (start + finish) in process: two
// ECDSA signatures and two fsynced journal appends.
func BenchmarkSimSale(b *testing.B) {
	s, err := OpenSimulator(SimConfig{Dir: b.TempDir(), MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.EnsureClient(ctx, testClient, "KASSE-01")
	start, _ := UpsertBody(TxActive, testClient, nil, nil)
	finish, _ := UpsertBody(TxFinished, testClient, sampleReceipt(), nil)
	b.ReportAllocs()
	for b.Loop() {
		id := NewUUID4()
		if _, err := s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: finish}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimReopen10kSales replays a journal of 10 000 sales (20 000
// revisions), what a busy restaurant writes in about two weeks.
func BenchmarkSimReopen10kSales(b *testing.B) {
	dir := b.TempDir()
	s, err := OpenSimulator(SimConfig{Dir: dir, MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	s.j.noSync = true
	ctx := context.Background()
	s.EnsureClient(ctx, testClient, "KASSE-01")
	start, _ := UpsertBody(TxActive, testClient, nil, nil)
	finish, _ := UpsertBody(TxFinished, testClient, sampleReceipt(), nil)
	for range 10000 {
		id := NewUUID4()
		s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 1, Body: start})
		s.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: finish})
	}
	s.Close()
	b.ReportAllocs()
	for b.Loop() {
		s, err := OpenSimulator(SimConfig{Dir: dir, MaxActiveTx: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkFiskalySaleOverHTTP is one sale through the fiskaly client
// against the HTTP simulator on loopback.
func BenchmarkFiskalySaleOverHTTP(b *testing.B) {
	s, err := OpenSimulator(SimConfig{Dir: b.TempDir(), MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(NewSimServer(s, "k", "s"))
	defer ts.Close()
	f, _ := NewFiskaly(FiskalyConfig{BaseURL: ts.URL, APIKey: "k", APISecret: "s", TSSID: s.TSSID(), AdminPIN: DefaultSimAdminPIN})
	defer f.Close()
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, testClient, "KASSE-01"); err != nil {
		b.Fatal(err)
	}
	start, _ := UpsertBody(TxActive, testClient, nil, nil)
	finish, _ := UpsertBody(TxFinished, testClient, sampleReceipt(), nil)
	b.ReportAllocs()
	for b.Loop() {
		id := NewUUID4()
		if _, err := f.Upsert(ctx, UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Upsert(ctx, UpsertRequest{TxID: id, Revision: 2, Body: finish}); err != nil {
			b.Fatal(err)
		}
	}
}
