package tsesim_test

import (
	"context"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// BenchmarkSimSale is one signed sale (start + finish) in process: two
// ECDSA signatures and two fsynced journal appends.
func BenchmarkSimSale(b *testing.B) {
	s, err := tsesim.Open(tsesim.Config{Dir: b.TempDir(), MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	start, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, simtest.ClientID, simtest.SampleReceipt(), nil)
	b.ReportAllocs()
	for b.Loop() {
		id := tse.NewUUID4()
		if _, err := s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimReopen10kSales replays a journal of 10 000 sales (20 000
// revisions), what a busy restaurant writes in about two weeks.
func BenchmarkSimReopen10kSales(b *testing.B) {
	dir := b.TempDir()
	s, err := tsesim.Open(tsesim.Config{Dir: dir, MaxActiveTx: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	tsesim.NoSync(s)
	ctx := context.Background()
	s.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	start, _ := tse.UpsertBody(tse.TxActive, simtest.ClientID, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, simtest.ClientID, simtest.SampleReceipt(), nil)
	for range 10000 {
		id := tse.NewUUID4()
		s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start})
		s.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish})
	}
	s.Close()
	b.ReportAllocs()
	for b.Loop() {
		s, err := tsesim.Open(tsesim.Config{Dir: dir, MaxActiveTx: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
