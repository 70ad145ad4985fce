package server

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// HQ is the chain's view in HQ mode (`posbox hq`: package hq, adapted by
// main); a server with Config.HQ set is in HQ mode. Its types are
// server's own (TestLayers), the same shape as package hq's, so a fake
// is a struct literal.
type HQ interface {
	Chain(ctx context.Context) HQChain
}

// HQChain is every restaurant HQ follows and the chain's totals.
type HQChain struct {
	At          time.Time
	Restaurants []HQRestaurant
	Totals      HQTotals
}

// HQRestaurant is one restaurant of a followed box.
type HQRestaurant struct {
	Source       string           // the box's replica URL, without a password
	Summary      *store.HQSummary // nil while the box's copy cannot be read
	ReplicatedAt time.Time        // the copy holds the box's changes up to then
	CheckedAt    time.Time        // the replica last answered
	Error        string
	ErrorKind    string // waiting, unreachable, key, empty, failed
	ErrorSince   time.Time
}

// HQTotals sum the restaurants with figures.
type HQTotals struct {
	Restaurants int
	Reporting   int
	WithErrors  int
	SalesCount  int
	GrossCents  int64
	ByVAT       []store.TSESaleVAT
	ClockedIn   int
	WeekHours   int64 // hundredths
	OpenOutages int
}

// hqRoutes: what a server in HQ mode serves (its own
// users and the chain). Everything else is a box's and answers 404 on HQ,
// whose database holds no restaurant's records; /api/hq/* answers 404
// on a box.
var hqRoutes = map[string]bool{
	"/api/health": true, "/api/openapi.json": true,
	"/api/auth/login": true, "/api/auth/me": true, "/api/auth/password": true, "/api/restaurant": true,
	"/api/users": true, "/api/users/:id": true, "/api/hq/restaurants": true,
}

// gateMode wraps a route's handler with the mode's rule (above).
func (s *Server) gateMode(path string, h httprouter.Handle) httprouter.Handle {
	hqOnly := strings.HasPrefix(path, "/api/hq/")
	switch {
	case s.cfg.HQ != nil && !hqRoutes[path]:
		return func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
			s.writeError(w, r, errHTTP(store.ENotFound, "not on HQ: HQ serves its own users and GET /api/hq/restaurants; this is a box's route"))
		}
	case s.cfg.HQ == nil && hqOnly:
		return func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
			s.writeError(w, r, errHTTP(store.ENotFound, "not on a box: GET /api/hq/restaurants is served by posbox hq"))
		}
	}
	return h
}

// mode is "hq" or "box" (GET /api/health), for the console.
func (s *Server) mode() string {
	if s.cfg.HQ != nil {
		return "hq"
	}
	return "box"
}

// hqChainJSON is GET /api/hq/restaurants, under the key chain.
type hqChainJSON struct {
	GeneratedAt string             `json:"generated_at"`
	Restaurants []hqRestaurantJSON `json:"restaurants"`
	Totals      hqTotalsJSON       `json:"totals"`
}

type hqRestaurantJSON struct {
	Source       string        `json:"source"`
	RestaurantID *string       `json:"restaurant_id"`
	Name         *string       `json:"name"`
	Timezone     *string       `json:"timezone"`
	Date         *string       `json:"date"`
	Sales        *hqSalesJSON  `json:"sales"`
	ClockedIn    []hqClockJSON `json:"clocked_in"`
	Week         *hqWeekJSON   `json:"week"`
	TSE          *hqTSEJSON    `json:"tse"`
	OpenOutages  []hqOutage    `json:"open_outages"`
	ReplicatedAt *string       `json:"replicated_at"`
	LagSeconds   *float64      `json:"lag_seconds"`
	CheckedAt    *string       `json:"checked_at"`
	Error        *string       `json:"error"`
	ErrorKind    *string       `json:"error_kind"`
	ErrorSince   *string       `json:"error_since"`
}

// hqSalesJSON: money as everywhere in the API (money.go), exact cents.
type hqSalesJSON struct {
	Count     int         `json:"count"`
	Gross     json.Number `json:"gross"`
	ByVATRate []hqVATJSON `json:"by_vat_rate"`
}

type hqVATJSON struct {
	VATRate string      `json:"vat_rate"`
	Gross   json.Number `json:"gross"`
}

type hqClockJSON struct {
	UserName string `json:"user_name"`
	Since    string `json:"since"`
}

type hqWeekJSON struct {
	From  string      `json:"from"` // the local Monday
	Hours json.Number `json:"hours"`
}

type hqTSEJSON struct {
	State        *string         `json:"state"`
	FetchedAt    *string         `json:"fetched_at"`
	CertNotAfter *string         `json:"cert_not_after"`
	SelfTest     *hqSelfTestJSON `json:"self_test"`
	Unsigned     int             `json:"unsigned"`
	OpenOutages  int             `json:"open_outages"`
	Healthy      bool            `json:"healthy"`
}

type hqSelfTestJSON struct {
	State      string  `json:"state"`
	StartedAt  string  `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Error      *string `json:"error"`
}

type hqOutage struct {
	StartedAt            string `json:"started_at"`
	ReasonCode           string `json:"reason_code"`
	Reason               string `json:"reason"`
	AffectedTransactions int    `json:"affected_transactions"`
}

type hqTotalsJSON struct {
	Restaurants int         `json:"restaurants"`
	Reporting   int         `json:"reporting"`
	WithErrors  int         `json:"with_errors"`
	Sales       hqSalesJSON `json:"sales"`
	ClockedIn   int         `json:"clocked_in"`
	WeekHours   json.Number `json:"week_hours"`
	OpenOutages int         `json:"open_outages"`
}

// hqRestaurants is GET /api/hq/restaurants (admin of HQ).
func (s *Server) hqRestaurants(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := s.cfg.HQ.Chain(r.Context())
	out := hqChainJSON{GeneratedAt: ts(c.At), Restaurants: make([]hqRestaurantJSON, 0, len(c.Restaurants))}
	for _, rest := range c.Restaurants {
		out.Restaurants = append(out.Restaurants, hqRestaurantView(rest, c.At))
	}
	t := c.Totals
	out.Totals = hqTotalsJSON{Restaurants: t.Restaurants, Reporting: t.Reporting, WithErrors: t.WithErrors,
		Sales:     hqSalesJSON{Count: t.SalesCount, Gross: money(t.GrossCents), ByVATRate: hqVATView(t.ByVAT)},
		ClockedIn: t.ClockedIn, WeekHours: store.HoursJSON(t.WeekHours), OpenOutages: t.OpenOutages}
	return writeJSON(w, http.StatusOK, envelope{"chain": out})
}

func hqRestaurantView(r HQRestaurant, now time.Time) hqRestaurantJSON {
	out := hqRestaurantJSON{Source: r.Source, ClockedIn: []hqClockJSON{}, OpenOutages: []hqOutage{},
		ReplicatedAt: instantPtr(r.ReplicatedAt), CheckedAt: instantPtr(r.CheckedAt),
		Error: strPtr(r.Error), ErrorKind: strPtr(r.ErrorKind), ErrorSince: instantPtr(r.ErrorSince)}
	if !r.ReplicatedAt.IsZero() {
		lag := math.Round(max(0, now.Sub(r.ReplicatedAt).Seconds())*1000) / 1000
		out.LagSeconds = &lag
	}
	s := r.Summary
	if s == nil {
		return out
	}
	out.RestaurantID, out.Name, out.Timezone, out.Date = &s.RestaurantID, &s.Name, &s.Timezone, &s.Date
	out.Sales = &hqSalesJSON{Count: s.Sales.Count, Gross: money(s.Sales.GrossCents), ByVATRate: hqVATView(s.Sales.ByVAT)}
	for _, c := range s.ClockedIn {
		out.ClockedIn = append(out.ClockedIn, hqClockJSON{c.UserName, ts(c.Since)})
	}
	out.Week = &hqWeekJSON{From: s.WeekStart, Hours: store.HoursJSON(s.WeekHours)}
	for _, o := range s.OpenOutages {
		out.OpenOutages = append(out.OpenOutages, hqOutage{ts(o.StartedAt), o.ReasonCode, o.Reason, o.AffectedTransactions})
	}
	out.TSE = hqTSEView(s)
	return out
}

// hqTSEView: healthy is no open outage, nothing waiting to be signed and
// no failed newest self-test.
func hqTSEView(s *store.HQSummary) *hqTSEJSON {
	t := s.TSE
	out := &hqTSEJSON{State: strPtr(t.State), FetchedAt: instantPtr(t.FetchedAt), CertNotAfter: instantPtr(t.CertNotAfter),
		Unsigned: t.Unsigned, OpenOutages: len(s.OpenOutages)}
	if st := t.SelfTest; st != nil {
		out.SelfTest = &hqSelfTestJSON{State: st.State, StartedAt: ts(st.StartedAt), FinishedAt: tsPtr(st.FinishedAt), Error: strPtr(st.Error)}
	}
	out.Healthy = len(s.OpenOutages) == 0 && t.Unsigned == 0 && (t.SelfTest == nil || t.SelfTest.State != store.SelfTestFailed)
	return out
}

func hqVATView(vs []store.TSESaleVAT) []hqVATJSON {
	out := make([]hqVATJSON, 0, len(vs))
	for _, v := range vs {
		out = append(out, hqVATJSON{v.VATRate, money(v.Cents)})
	}
	return out
}
