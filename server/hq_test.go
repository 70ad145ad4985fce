package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"posbox/store"
)

// fakeHQ stands in for package hq: the boxes are outside HQ, so the
// chain is what the test says it is.
type fakeHQ struct{ c HQChain }

func (f *fakeHQ) Chain(context.Context) HQChain { return f.c }

// hqChain is two restaurants: one current with sales at two VAT rates,
// one whose replica does not answer and whose copy was never read.
func hqChain(now time.Time) HQChain {
	fin := now.Add(-time.Hour)
	sum := &store.HQSummary{RestaurantID: store.NewID(), Name: "Trattoria Nord", Timezone: "Europe/Berlin", Date: "2026-11-22",
		Sales:     store.HQSales{Count: 3, GrossCents: 2885, ByVAT: []store.TSESaleVAT{{VATRate: "NORMAL", Cents: 1595}, {VATRate: "REDUCED_1", Cents: 1290}}},
		ClockedIn: []store.HQClockedIn{{UserName: "Sam Staff", Since: now.Add(-2 * time.Hour)}}, WeekStart: "2026-11-16", WeekHours: 1250,
		TSE: store.HQTSE{State: "INITIALIZED", FetchedAt: now.Add(-time.Minute), SelfTest: &store.TSESelfTest{State: store.SelfTestPassed, StartedAt: fin, FinishedAt: &fin}}}
	return HQChain{At: now, Restaurants: []HQRestaurant{
		{Source: "file:///mnt/nas/nord", Summary: sum, ReplicatedAt: now.Add(-4 * time.Second), CheckedAt: now.Add(-time.Second)},
		{Source: "sftp://hq@sued.example:22/posbox", Error: "replica not answering: connect made no progress for 30s", ErrorKind: "unreachable", ErrorSince: now.Add(-time.Minute)},
	}, Totals: HQTotals{Restaurants: 2, Reporting: 1, WithErrors: 1, SalesCount: 3, GrossCents: 2885, ByVAT: sum.Sales.ByVAT, ClockedIn: 1, WeekHours: 1250}}
}

func TestHQRestaurants(t *testing.T) {
	e := newTestEnv(t)
	e.serve(t, Config{HQ: &fakeHQ{hqChain(e.clock.Now())}})
	rec := e.do(t, "GET", "/api/hq/restaurants", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var got struct {
		Chain struct {
			Restaurants []map[string]any `json:"restaurants"`
			Totals      map[string]any   `json:"totals"`
		} `json:"chain"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	rs := got.Chain.Restaurants
	if len(rs) != 2 {
		t.Fatalf("%d restaurants: %s", len(rs), rec.Body)
	}
	nord, sued := rs[0], rs[1]
	sales := nord["sales"].(map[string]any)
	if nord["name"] != "Trattoria Nord" || sales["gross"] != 28.85 || nord["lag_seconds"] != 4.0 || nord["error"] != nil {
		t.Errorf("the current restaurant: %v", nord)
	}
	if vat := sales["by_vat_rate"].([]any); len(vat) != 2 || vat[1].(map[string]any)["gross"] != 12.9 {
		t.Errorf("per VAT rate: %v", vat)
	}
	if nord["tse"].(map[string]any)["healthy"] != true || nord["week"].(map[string]any)["hours"] != 12.5 {
		t.Errorf("TSE or week: %v %v", nord["tse"], nord["week"])
	}
	if sued["name"] != nil || sued["sales"] != nil || sued["error_kind"] != "unreachable" || sued["lag_seconds"] != nil {
		t.Errorf("the unreachable box: %v", sued)
	}
	if tot := got.Chain.Totals; tot["reporting"] != 1.0 || tot["with_errors"] != 1.0 || tot["sales"].(map[string]any)["gross"] != 28.85 {
		t.Errorf("totals: %v", tot)
	}

	_, staffToken := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "GET", "/api/hq/restaurants", nil, staffToken), http.StatusForbidden, eForbidden)
	wantProblem(t, e.do(t, "GET", "/api/hq/restaurants", nil, ""), http.StatusUnauthorized, eUnauthenticated)

	// HQ's users work as on a box; health tells the console the mode.
	wantStatus(t, e.do(t, "GET", "/api/users", nil, e.adminToken), http.StatusOK)
	if h := decodeJSON(t, e.do(t, "GET", "/api/health", nil, "")); h["mode"] != "hq" {
		t.Errorf("health on HQ: %v", h)
	}
}

// A box's route does not pretend to work on HQ's empty database, and
// HQ's route is not on a box: 404 problem+json, nothing else happens.
func TestHQAndBoxRoutesStayApart(t *testing.T) {
	e := newTestEnv(t)
	raw := func(method, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		req.Header.Set("Authorization", "Bearer "+e.adminToken)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return rec
	}
	wantProblem(t, raw("GET", "/api/hq/restaurants"), http.StatusNotFound, store.ENotFound)
	if h := decodeJSON(t, e.do(t, "GET", "/api/health", nil, "")); h["mode"] != "box" {
		t.Errorf("health on a box: %v", h)
	}
	e.serve(t, Config{HQ: &fakeHQ{hqChain(e.clock.Now())}})
	for _, r := range []struct{ method, path string }{{"GET", "/api/dashboard"}, {"POST", "/api/shifts/clock-in"},
		{"GET", "/api/tse/status"}, {"GET", "/api/replica"}, {"POST", "/api/tse/transactions"}} {
		p := wantProblem(t, raw(r.method, r.path), http.StatusNotFound, store.ENotFound)
		if d, _ := p["detail"].(string); d == "" || d[:9] != "not on HQ" {
			t.Errorf("%s %s: detail %q", r.method, r.path, d)
		}
	}
	open, err := e.st.OpenEntries(t.Context(), e.restaurant.ID)
	if err != nil || len(open) != 0 {
		t.Errorf("a clock-in on HQ wrote %d entries (%v)", len(open), err)
	}
}
