package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// redeemBench is a test appliance behind a real HTTP server with one
// discount, and a client that keeps enough connections for RunParallel.
type redeemBench struct {
	e      *testEnv
	client *http.Client
	url    string // the discount's redeem endpoint
	id     string
	staff  string // a staff token
}

func newRedeemBench(b *testing.B) *redeemBench {
	b.Helper()
	e := newTestEnv(b)
	srv := httptest.NewServer(e.h)
	b.Cleanup(srv.Close)
	_, staff := e.staff(b, "Bench Till")
	id := e.createDiscount(b, `{"name":"Bench","discount_type":"percentage","value":12.5,"max_discount_amount":20}`)["id"].(string)
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	return &redeemBench{e: e, client: client, url: srv.URL + "/api/discounts/" + id + "/redeem", id: id, staff: staff}
}

// redeem posts one redemption (with an Idempotency-Key unless key is "")
// and wants 200. It returns an error rather than failing the benchmark,
// since RunParallel's goroutines must not call Fatal.
func (rb *redeemBench) redeem(body []byte, key string) error {
	req, _ := http.NewRequest("POST", rb.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+rb.staff)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := rb.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// BenchmarkRedeem is the till's redeem call end to end: real HTTP, token
// check, the immediate transaction with its conditional UPDATE, the
// redemption row and an fsync'd commit (synchronous=FULL) on a real file.
// Terminals redeem in parallel, as at lunch.
func BenchmarkRedeem(b *testing.B) {
	rb := newRedeemBench(b)
	body := []byte(`{"order_total":48.9}`)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := rb.redeem(body, ""); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "redeems/s")
	if got := rb.e.redemptions(b, rb.id); got != b.N {
		b.Fatalf("%d redemption rows after %d redeems", got, b.N)
	}
}
