package server

import (
	"strconv"
	"sync/atomic"
	"testing"
)

// BenchmarkRedeemIdempotent is BenchmarkRedeem with an Idempotency-Key:
// "new" gives every request its own key (look-up, redemption and the
// stored answer in one commit), "replay" resends one key (look-up only).
// Compare with BenchmarkRedeem for what the key costs.
func BenchmarkRedeemIdempotent(b *testing.B) {
	for _, mode := range []string{"new", "replay"} {
		b.Run(mode, func(b *testing.B) {
			rb := newRedeemBench(b)
			body := []byte(`{"order_total":48.9}`)
			var seq atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					key := "bench-replay"
					if mode == "new" {
						key = "bench-" + strconv.FormatInt(seq.Add(1), 10)
					}
					if err := rb.redeem(body, key); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "redeems/s")
			want := b.N
			if mode == "replay" {
				want = 1
			}
			if got := rb.e.redemptions(b, rb.id); got != want {
				b.Fatalf("%d redemption rows after %d %s requests, want %d", got, b.N, mode, want)
			}
		})
	}
}
