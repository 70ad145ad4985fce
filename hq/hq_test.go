package hq

import (
	"slices"
	"testing"

	"posbox/store"
)

// The chain's totals add the restaurants with figures, per VAT rate in
// the DSFinV-K order, and count the ones with errors.
func TestTotals(t *testing.T) {
	rs := []Restaurant{
		{Summary: &store.HQSummary{Sales: store.HQSales{Count: 2, GrossCents: 2885,
			ByVAT: []store.TSESaleVAT{{VATRate: "REDUCED_1", Cents: 1290}, {VATRate: "NORMAL", Cents: 1595}}},
			ClockedIn: []store.HQClockedIn{{UserName: "Sam"}}, WeekHours: 1250}},
		{Summary: &store.HQSummary{Sales: store.HQSales{Count: 1, GrossCents: 700, ByVAT: []store.TSESaleVAT{{VATRate: "REDUCED_1", Cents: 700}}},
			OpenOutages: []store.HQOutage{{Reason: "x"}}}, Error: "list: connection refused"},
		{Error: "replica: no copy of the database yet"},
	}
	got := totals(rs)
	want := []store.TSESaleVAT{{VATRate: "NORMAL", Cents: 1595}, {VATRate: "REDUCED_1", Cents: 1990}}
	if got.Restaurants != 3 || got.Reporting != 2 || got.WithErrors != 2 || got.SalesCount != 3 || got.GrossCents != 3585 ||
		!slices.Equal(got.ByVAT, want) || got.ClockedIn != 1 || got.WeekHours != 1250 || got.OpenOutages != 1 {
		t.Errorf("totals %+v", got)
	}
	if e := totals(nil); e.ByVAT == nil || e.Restaurants != 0 {
		t.Errorf("no restaurants: %+v", e)
	}
}

// A follower's error in a word the console translates.
func TestErrorKind(t *testing.T) {
	for msg, want := range map[string]string{
		"":                                     "",
		"replica: no copy of the database yet": "waiting",
		"replica: the key does not open level 9 file 0000000000000001-0000000000000005.ltx (a replica of another box, or the wrong key file): no identity matched any of the recipients": "key",
		"the replica holds no database yet: no snapshots available":  "empty",
		"connect: dial tcp 127.0.0.1:1: connect: connection refused": "unreachable",
		"replica not answering: list made no progress for 30s":       "unreachable",
		"open /var/lib/posbox-hq/hq/ab.db: not a posbox database":    "failed",
	} {
		if got := errorKind(msg); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}
