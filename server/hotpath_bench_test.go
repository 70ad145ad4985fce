package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Benchmarks of the hot paths issue 15 is about, to compare a change with
// benchstat (docs/PERFORMANCE.md has the command). Reads go over real
// HTTP; the sale benchmarks call the handler in process, as the existing
// BenchmarkSaleSigned does. commits/op is the store's commits (one fsync
// of the WAL each with synchronous=FULL) per operation.

// BenchmarkAuthMe is GET /api/auth/me: the bearer token's check and the
// caller's user, nothing else.
func BenchmarkAuthMe(b *testing.B) {
	e, ts, c := benchServer(b)
	_, tok := e.staff(b, "Bench Staff")
	b.ReportAllocs()
	for b.Loop() {
		call(b, c, "GET", ts.URL+"/api/auth/me", tok, nil, http.StatusOK)
	}
}

// BenchmarkMyStatus is a staff member's GET /api/shifts/my-status (an
// open time entry and today's shift), from 4 terminals at once.
func BenchmarkMyStatus(b *testing.B) {
	e, ts, c := benchServer(b)
	_, tok := e.staff(b, "Bench Staff")
	call(b, c, "POST", ts.URL+"/api/shifts/clock-in", tok, nil, http.StatusCreated)
	b.ReportAllocs()
	b.ResetTimer()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			call(b, c, "GET", ts.URL+"/api/shifts/my-status", tok, nil, http.StatusOK)
		}
	})
}

// BenchmarkSaleSignedParallel is BenchmarkSaleSigned from 8 tills at once,
// each sale with its Idempotency-Key as tills send it: the sales' commits
// and the worker's share fsyncs.
func BenchmarkSaleSignedParallel(b *testing.B) {
	e := newTSEEnv(b, tseEnvOpts{synchronous: "FULL"})
	var till, key atomic.Int64
	before := commits(e.st)
	b.ReportAllocs()
	b.ResetTimer()
	b.SetParallelism(4) // × GOMAXPROCS (2 here) = 8 tills
	b.RunParallel(func(pb *testing.PB) {
		serial := fmt.Sprintf("KASSE-%02d", till.Add(1))
		body := fmt.Sprintf(`{"client_serial":%q,"receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.42}],`+
			`"amounts_per_payment_type":[{"payment_type":"CASH","amount":21.42}]}`, serial)
		for pb.Next() {
			req := httptest.NewRequest("POST", "/api/tse/transactions", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+e.adminToken)
			req.Header.Set("Idempotency-Key", fmt.Sprintf("bench-%d", key.Add(1)))
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, req)
			if rec.Code != http.StatusCreated {
				b.Errorf("status %d: %s", rec.Code, rec.Body.String())
				return
			}
		}
	})
	reportCommits(b, e.st, before)
}
