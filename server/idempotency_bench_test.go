package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
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
			e := newTestEnv(b)
			srv := httptest.NewServer(e.h)
			defer srv.Close()
			_, staff := e.staff(b, "Bench Till")
			id := e.createDiscount(b, `{"name":"Bench","discount_type":"percentage","value":12.5,"max_discount_amount":20}`)["id"].(string)
			url := srv.URL + "/api/discounts/" + id + "/redeem"
			body := []byte(`{"order_total":48.9}`)
			client := srv.Client()
			client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
			var seq atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					key := "bench-replay"
					if mode == "new" {
						key = "bench-" + strconv.FormatInt(seq.Add(1), 10)
					}
					req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+staff)
					req.Header.Set("Idempotency-Key", key)
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
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
			if got := e.redemptions(b, id); got != want {
				b.Fatalf("%d redemption rows after %d %s requests, want %d", got, b.N, mode, want)
			}
		})
	}
}
