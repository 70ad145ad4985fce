package console_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/console"
	"posbox/server"
	"posbox/store"
)

// fakeHQ is the chain as the server sees it (server.HQ): the boxes are
// outside HQ, so they are what the test says they are.
type fakeHQ struct {
	mu sync.Mutex
	c  func() server.HQChain
}

func (f *fakeHQ) Chain(context.Context) server.HQChain {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.c()
}

func (f *fakeHQ) set(c func() server.HQChain) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.c = c
}

// newHQ is posbox hq as serveHQ builds it: its own database with its
// admin, the server in HQ mode.
func newHQ(tb testing.TB, hq server.HQ) *appliance {
	tb.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, tb.TempDir(), store.Options{Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	a := &appliance{st: st, restaurant: &store.Restaurant{Name: "Zentrale", Timezone: "Europe/Berlin"}}
	if err := st.CreateRestaurant(ctx, a.restaurant); err != nil {
		tb.Fatal(err)
	}
	a.admin = &store.User{RestaurantID: a.restaurant.ID, Email: "chef@linde.test", Name: "Clara Chef", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, a.admin, adminPassword); err != nil {
		tb.Fatal(err)
	}
	a.srv = server.New(st, server.Config{Version: "test", JWTKey: []byte("0123456789abcdef0123456789abcdef"), Console: console.Files, HQ: hq}, log)
	ts := httptest.NewServer(a.srv.Handler())
	a.url = ts.URL
	tb.Cleanup(func() {
		ts.Close()
		a.srv.Close()
		st.Close()
	})
	return a
}

// chainOf is two restaurants: Nord current with sales at two rates and
// someone clocked in, Süd with an open TSE outage and a sale waiting for
// its signature; and a third box whose replica does not answer.
func chainOf(now time.Time, southErr string) server.HQChain {
	nord := &store.HQSummary{RestaurantID: store.NewID(), Name: "Trattoria Nord", Timezone: "Europe/Berlin", Date: now.Format(store.DateFormat),
		Sales:     store.HQSales{Count: 2, GrossCents: 2885, ByVAT: []store.TSESaleVAT{{VATRate: "NORMAL", Cents: 1595}, {VATRate: "REDUCED_1", Cents: 1290}}},
		ClockedIn: []store.HQClockedIn{{UserName: "Sam Service", Since: now.Add(-3 * time.Hour)}}, WeekStart: "2026-11-23", WeekHours: 3150,
		TSE: store.HQTSE{State: "INITIALIZED", FetchedAt: now}}
	sued := &store.HQSummary{RestaurantID: store.NewID(), Name: "Trattoria Süd", Timezone: "Europe/Berlin", Date: now.Format(store.DateFormat),
		Sales: store.HQSales{Count: 1, GrossCents: 700, ByVAT: []store.TSESaleVAT{{VATRate: "REDUCED_1", Cents: 700}}}, WeekStart: "2026-11-23", WeekHours: 800,
		TSE:         store.HQTSE{State: "INITIALIZED", Unsigned: 1},
		OpenOutages: []store.HQOutage{{StartedAt: now.Add(-20 * time.Minute), ReasonCode: "E_TSE_UNAVAILABLE", Reason: "fiskaly unreachable", AffectedTransactions: 1}}}
	c := server.HQChain{At: now, Restaurants: []server.HQRestaurant{
		{Source: "file:///mnt/nas/nord", Summary: nord, ReplicatedAt: now.Add(-4 * time.Second), CheckedAt: now},
		{Source: "sftp://hq@sued.example:22/posbox", Summary: sued, ReplicatedAt: now.Add(-2 * time.Minute), CheckedAt: now},
		{Source: "s3://kette/west?endpoint=https://s3.example", Error: "replica not answering: connect made no progress for 30s", ErrorKind: "unreachable", ErrorSince: now.Add(-5 * time.Minute)},
	}, Totals: server.HQTotals{Restaurants: 3, Reporting: 2, WithErrors: 1, SalesCount: 3, GrossCents: 3585,
		ByVAT: []store.TSESaleVAT{{VATRate: "NORMAL", Cents: 1595}, {VATRate: "REDUCED_1", Cents: 1990}}, ClockedIn: 1, WeekHours: 3950, OpenOutages: 1}}
	if southErr != "" {
		c.Restaurants[1].Error, c.Restaurants[1].ErrorKind, c.Restaurants[1].ErrorSince = southErr, "key", now.Add(-time.Minute)
		c.Totals.WithErrors++
	}
	return c
}

// HQ's console: after login the chain's page, German first: the totals,
// a card per restaurant with sales per VAT rate, who is clocked in, the
// week's hours, the TSE in words and the copy's age ("vor 4 Sekunden
// übertragen"); a box HQ cannot read says why in plain words; no box page
// in the menu. In English too.
func TestConsoleHQ(t *testing.T) {
	fake := &fakeHQ{}
	fake.set(func() server.HQChain { return chainOf(time.Now(), "") })
	a := newHQ(t, fake)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the chain's page", `document.querySelectorAll('#restaurants .card').length === 3`)

	if nav := b.text("nav#nav"); !strings.Contains(nav, "Alle Standorte") || !strings.Contains(nav, "Benutzer") ||
		strings.Contains(nav, "Dienstplan") || strings.Contains(nav, "TSE") {
		t.Errorf("HQ's menu: %q", nav)
	}
	nb := strings.NewReplacer("\u00a0", " ")
	chain := nb.Replace(b.text("#chain"))
	for _, want := range []string{"Alle Standorte zusammen", "2 von 3 Standorten", "35,85 €", "3 Verkäufe", "19 %: 15,95 €", "7 %: 19,90 €", "1 Person", "39,5 Std."} {
		if !strings.Contains(chain, want) {
			t.Errorf("totals lack %q: %q", want, chain)
		}
	}
	cards := eval[[]string](b, `[...document.querySelectorAll('#restaurants .card')].map((c) => c.innerText.replaceAll('\u00a0', ' '))`)
	for i, wants := range [][]string{
		{"Trattoria Nord", "aktuell", "vor 4 Sekunden übertragen", "28,85 €", "2 Verkäufe", "19 %: 15,95 €", "7 %: 12,90 €", "Sam Service", "31,5 Std.", "in Ordnung"},
		{"Trattoria Süd", "vor 2 Minuten übertragen", "7,00 €", "1 Verkauf", "niemand", "Achtung", "TSE ausgefallen seit", "1 Verkauf wartet auf die Signatur"},
		{"Standort ohne Daten", "Achtung", "nicht erreichbar", "noch nichts übertragen", "s3://kette/west"},
	} {
		for _, want := range wants {
			if !strings.Contains(cards[i], want) {
				t.Errorf("card %d lacks %q: %q", i, want, cards[i])
			}
		}
	}
	if strings.Contains(cards[2], "null") {
		t.Errorf("null on a card: %q", cards[2])
	}
	if strings.Contains(cards[1], "E_TSE_UNAVAILABLE") || strings.Contains(cards[2], "no progress") && eval[bool](b, `document.querySelectorAll('#restaurants details[open]').length > 0`) {
		t.Errorf("a code or the technical text in plain view: %q / %q", cards[1], cards[2])
	}
	b.screenshot("hq-chain")

	// Süd's replica stops opening with HQ's key: its card says what to do,
	// the figures it still shows say how old they are.
	fake.set(func() server.HQChain {
		return chainOf(time.Now(), "replica: the key does not open level 0 file 0000000000000005-0000000000000005.ltx")
	})
	b.click(".page-head button.secondary")
	b.wait("Süd's error", `document.querySelectorAll('#restaurants .card')[1].dataset.state === 'bad'`)
	sued := eval[string](b, `document.querySelectorAll('#restaurants .card')[1].innerText`)
	for _, want := range []string{"Schlüssel der Zentrale", "replica_recipients", "Stand von"} {
		if !strings.Contains(sued, want) {
			t.Errorf("Süd with the wrong key lacks %q: %q", want, sued)
		}
	}
	b.screenshot("hq-chain-error")

	b.clickText(".lang button", "EN")
	b.wait("the English page", `document.querySelector('#chain')?.innerText.includes('All locations together')`)
	if nord := eval[string](b, `document.querySelectorAll('#restaurants .card')[0].innerText`); !strings.Contains(nord, "copied 4 seconds ago") && !strings.Contains(nord, "copied 5 seconds ago") {
		t.Errorf("English lag: %q", nord)
	}
	b.clickText(".lang button", "DE")
}
