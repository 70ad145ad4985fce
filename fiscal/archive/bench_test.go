package archive

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// BenchmarkArchiveRange is one nightly run of a range of about 2,000 log
// messages on the in-process simulator: plan, export (the simulator
// builds the TAR), download, SHA-256, verify every signature and counter,
// file read-only. Reported per log message.
//
//	go test -run '^$' -bench ArchiveRange -benchtime 5x ./fiscal/archive
func BenchmarkArchiveRange(b *testing.B) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	sim, err := tsesim.Open(tsesim.Config{Dir: b.TempDir(), Now: clock.Now, ExportDelay: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer sim.Close()
	const client = "5d0e8f7a-2b1c-4c3d-8e9f-0a1b2c3d4e5f"
	if _, err := sim.EnsureClient(ctx, client, "KASSE-01"); err != nil {
		b.Fatal(err)
	}
	receipt := &tse.Receipt{ReceiptType: "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "12.50"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "12.50"}}}
	start, _ := tse.UpsertBody(tse.TxActive, client, nil, nil)
	finish, _ := tse.UpsertBody(tse.TxFinished, client, receipt, nil)
	for range 1000 {
		id := tse.NewUUID4()
		if _, err := sim.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: start}); err != nil {
			b.Fatal(err)
		}
		if _, err := sim.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish}); err != nil {
			b.Fatal(err)
		}
	}
	info, _ := sim.TSS(ctx)
	log := slog.New(slog.DiscardHandler)
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		st, err := store.Open(ctx, dir, store.Options{Now: clock.Now, Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
		if err != nil {
			b.Fatal(err)
		}
		r := &store.Restaurant{Name: "B", Timezone: "Europe/Berlin"}
		if err := st.CreateRestaurant(ctx, r); err != nil {
			b.Fatal(err)
		}
		a, err := New(sim, sim, st, Options{RestaurantID: r.ID, Dir: filepath.Join(dir, "archive"), Logger: log,
			Sleep: func(ctx context.Context, d time.Duration) error { clock.Add(d); return nil }})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := a.Run(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if s, _ := a.Status(ctx, r.ID); s.LastArchivedCounter != int64(info.SignatureCounter) {
			b.Fatalf("archived up to %d of %d", s.LastArchivedCounter, info.SignatureCounter)
		}
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(info.SignatureCounter)/1000, "µs/message")
}
