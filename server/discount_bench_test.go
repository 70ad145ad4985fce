package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkRedeem is the till's redeem call end to end: real HTTP, token
// check, the immediate transaction with its conditional UPDATE, the
// redemption row and an fsync'd commit (synchronous=FULL) on a real file.
// Terminals redeem in parallel, as at lunch.
func BenchmarkRedeem(b *testing.B) {
	e := newTestEnv(b)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	_, staff := e.staff(b, "Bench Till")
	id := e.createDiscount(b, `{"name":"Bench","discount_type":"percentage","value":12.5,"max_discount_amount":20}`)["id"].(string)
	url := srv.URL + "/api/discounts/" + id + "/redeem"
	body := []byte(`{"order_total":48.9}`)
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+staff)
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
	if got := e.redemptions(b, id); got != b.N {
		b.Fatalf("%d redemption rows after %d redeems", got, b.N)
	}
}
