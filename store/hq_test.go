package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// HQ reads a box's database read-only: today's counted sales per VAT rate
// (a storno negatively; training, orders and other restaurants not), who
// is clocked in, this week's hours, the TSE's queue and open outages.
func TestHQSummaries(t *testing.T) {
	st, clock := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Trattoria Nord")
	other := mustRestaurant(t, st, "Anderswo")
	first := mustTSESale(t, st, receiptOf(r, "RECEIPT", ""))
	mustTSESale(t, st, receiptOf(r, "RECEIPT", "", TSESaleVAT{VATRate: "NORMAL", Cents: 595}, TSESaleVAT{VATRate: "REDUCED_1", Cents: 1290}))
	mustTSESale(t, st, storno(r, first.TxID))
	mustTSESale(t, st, receiptOf(r, "TRAINING", ""))
	order := receiptOf(r, "ORDER", "")
	order.Detail.Kind = SaleKindOrder
	mustTSESale(t, st, order)
	mustTSESale(t, st, receiptOf(other, "RECEIPT", ""))
	u := mustUser(t, st, r, "Sam Service", RoleStaff)
	if _, err := st.ClockIn(ctx, r, u); err != nil {
		t.Fatal(err)
	}
	if _, err := st.OpenTSEOutage(ctx, r.ID, tssA, "E_TSE_UNAVAILABLE", "fiskaly unreachable"); err != nil {
		t.Fatal(err)
	}
	clock.Add(2 * time.Hour)

	ro, err := OpenReadOnly(ctx, st.Path(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	sums, err := ro.HQSummaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(sums, func(s HQSummary) bool { return s.RestaurantID == r.ID })
	if len(sums) != 2 || i < 0 {
		t.Fatalf("summaries: %+v", sums)
	}
	s := sums[i]
	wantVAT := []TSESaleVAT{{VATRate: "NORMAL", Cents: 595}, {VATRate: "REDUCED_1", Cents: 1290}}
	if s.Name != "Trattoria Nord" || s.Date != "2026-11-22" || s.Sales.Count != 3 || s.Sales.GrossCents != 1885 || !slices.Equal(s.Sales.ByVAT, wantVAT) {
		t.Errorf("sales: %s %+v", s.Date, s.Sales)
	}
	if len(s.ClockedIn) != 1 || s.ClockedIn[0].UserName != "Sam Service" || s.WeekStart != "2026-11-16" || s.WeekHours != 200 {
		t.Errorf("people: %+v week %s %d", s.ClockedIn, s.WeekStart, s.WeekHours)
	}
	if len(s.OpenOutages) != 1 || s.OpenOutages[0].ReasonCode != "E_TSE_UNAVAILABLE" || s.TSE.Unsigned != 5 {
		t.Errorf("TSE: %+v outages %+v", s.TSE, s.OpenOutages)
	}
	if _, err := ro.db.ExecContext(ctx, `DELETE FROM tse_outages`); err == nil {
		t.Error("a read-only store wrote")
	}
}

// OpenReadOnly refuses a file that is not a posbox database, and makes
// none where there is no file.
func TestOpenReadOnlyRefusesOthers(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if ro, err := OpenReadOnly(context.Background(), missing, nil); err == nil {
		ro.Close()
		t.Error("opened a missing file")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("OpenReadOnly created a file")
	}
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if ro, err := OpenReadOnly(context.Background(), other, nil); err == nil {
		ro.Close()
		t.Error("opened an empty file as a posbox database")
	}
}
