package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/tse/tsesim"
)

// The daily report sums one local day from every area: hours worked,
// discounts redeemed, TSE sales (signed, and those printed without TSE)
// and the outage record.
func TestDailyReportCountsTheDay(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")

	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, staffTok), http.StatusCreated)
	e.clock.Add(50 * time.Minute)
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": 20}, staffTok), http.StatusOK)

	rec := e.do(t, "POST", "/api/discounts", map[string]any{"name": "Happy hour", "discount_type": "percentage", "value": 10}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	id := decodeJSON(t, rec)["discount"].(map[string]any)["id"].(string)
	for _, total := range []float64{20, 33.33} { // 2.00 + 3.33
		wantStatus(t, e.do(t, "POST", "/api/discounts/"+id+"/redeem", map[string]any{"order_total": total}, staffTok), http.StatusOK)
	}

	if s, _ := e.sell(t, sale("KASSE-01", 100), staffTok); s != http.StatusCreated {
		t.Fatalf("signed sale: status %d", s)
	}
	e.sim.SetFault(tsesim.Fault{Offline: true})
	if s, _ := e.sell(t, sale("KASSE-01", 200), staffTok); s != http.StatusAccepted {
		t.Fatalf("sale during outage: status %d", s)
	}
	e.sim.SetFault(tsesim.Fault{})
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })

	rep, err := e.st.BuildDailyReport(context.Background(), e.restaurant, "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	if rep.TotalHours != "0.5" || len(rep.Staff) != 1 || rep.Staff[0].Name != "Sam Staff" {
		t.Errorf("hours: total %s, staff %+v; want 0.5 h for Sam Staff", rep.TotalHours, rep.Staff)
	}
	if rep.Discounts.Count != 2 || rep.Discounts.AmountCents != 533 {
		t.Errorf("discounts %+v, want 2 redemptions of 5.33 in all", rep.Discounts)
	}
	if rep.TSE.Transactions != 2 || rep.TSE.ReceiptsWithoutTSE != 1 || rep.TSE.Unsigned != 0 {
		t.Errorf("tse %+v, want 2 signed, 1 printed without TSE, 0 unsigned", rep.TSE)
	}
	if rep.TSE.Outages != 1 || rep.TSE.OutageList[0].EndedAt == nil || rep.TSE.OutageList[0].AffectedTransactions != 1 {
		t.Errorf("outages %+v, want one closed outage with 1 affected sale", rep.TSE.OutageList)
	}

	// The next day holds none of it.
	next, err := e.st.BuildDailyReport(context.Background(), e.restaurant, "2026-11-23")
	if err != nil {
		t.Fatal(err)
	}
	if next.Discounts.Count != 0 || next.TSE.Transactions != 0 || next.TSE.Outages != 0 || len(next.Staff) != 0 {
		t.Errorf("next day %+v, want empty", next)
	}
}
