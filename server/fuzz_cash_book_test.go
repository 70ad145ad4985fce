package server

import (
	"encoding/json"
	"testing"
	"time"
)

// The cash book's bodies: movements, their reversal and counts, on the
// real queue and the embedded simulator (a movement is a signed receipt).

func FuzzCreateCashMovement(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/cash/movements"), token: e.adminToken},
		`{"client_serial":"KASSE-01","kind":"opening_float","amount":150}`,
		`{"client_serial":"KASSE-01","kind":"expense","amount":12.49,"reason":"Zitronen","voucher_no":"R-77"}`,
		`{"client_serial":"KASSE-01","kind":"wage","amount":0.005,"reason":" "}`, `{"client_serial":" K","kind":"difference","amount":-3}`,
		`{"client_serial":"KASSE-01","kind":"deposit","amount":"10"}`, `{"kind":null,"amount":9999999999999.99}`)
}

func FuzzReverseCashMovement(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	// Each input reverses a movement of its own, so every one reaches the
	// reversal, not "already reversed".
	fresh := func(tb testing.TB) string {
		m := e.book(tb, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "deposit", "amount": json.Number("5")})
		return "/api/cash/movements/" + m["id"].(string) + "/reverse"
	}
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fresh, token: e.adminToken},
		`{"reason":"doppelt gebucht"}`, `{"reason":""}`, `{"reason":"a\nb"}`, `{"reason":null}`, `{"reason":7}`)
}

func FuzzCreateCashCount(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	e.book(f, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("100")})
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/cash/counts"), token: e.adminToken},
		`{"client_serial":"KASSE-01","counted":95.5}`, `{"client_serial":"KASSE-01","denominations":{"50.00":1,"10":2,"0.20":4}}`,
		`{"client_serial":"KASSE-01","denominations":{"3.00":1,"-1":2,"0.001":1,"abc":1}}`,
		`{"client_serial":"KASSE-01","counted":1,"denominations":{}}`, `{"client_serial":"KASSE-02","counted":-1}`,
		`{"client_serial":"KASSE-01","denominations":{"500":100001}}`, `{"client_serial":"KASSE-01","denominations":null}`)
}
