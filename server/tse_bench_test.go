package server

import (
	"net/http"
	"testing"
)

// BenchmarkSaleSigned is one POST /api/tse/transactions against the
// in-process simulator, answered 201 signed: the sale, both revisions and
// the mirror committed to SQLite (synchronous=FULL, as the appliance runs),
// forwarded by the worker and signed with ECDSA P-256.
func BenchmarkSaleSigned(b *testing.B) {
	e := newTSEEnv(b, tseEnvOpts{synchronous: "FULL"})
	body := sale("KASSE-01", 2142)
	before := commits(e.st)
	for b.Loop() {
		rec := e.do(b, "POST", "/api/tse/transactions", body, e.adminToken)
		if rec.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	}
	reportCommits(b, e.st, before)
}

// BenchmarkSaleSignedCashBook is BenchmarkSaleSigned on a register whose
// cash book has begun: each cash sale also reads the register's balance
// and appends its row to cash_ledger in the sale's transaction.
func BenchmarkSaleSignedCashBook(b *testing.B) {
	e := newTSEEnv(b, tseEnvOpts{synchronous: "FULL"})
	e.book(b, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": 100})
	body := sale("KASSE-01", 2142)
	before := commits(e.st)
	for b.Loop() {
		rec := e.do(b, "POST", "/api/tse/transactions", body, e.adminToken)
		if rec.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	}
	reportCommits(b, e.st, before)
}
