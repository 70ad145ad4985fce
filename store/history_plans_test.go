package store

import (
	"context"
	"strings"
	"testing"
)

// The reads a busy day repeats must not grow with the years the box
// keeps (issue 22): each is a search on an index, never a pass over a
// table that only grows. The plans are SQLite's own (EXPLAIN QUERY PLAN)
// on the migrated schema.

// queryPlan answers the detail lines of the plan of q.
func queryPlan(t *testing.T, st *Store, q string, args ...any) string {
	t.Helper()
	rows, err := st.rdb.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// assertSearches fails unless the plan of q reads table through index
// and never scans it.
func assertSearches(t *testing.T, st *Store, table, index, q string, args ...any) {
	t.Helper()
	plan := queryPlan(t, st, q, args...)
	if strings.Contains(plan, "SCAN "+table) || !strings.Contains(plan, "USING INDEX "+index) &&
		!strings.Contains(plan, "USING COVERING INDEX "+index) {
		t.Errorf("plan reads %s without %s:\n%s", table, index, plan)
	}
}

func TestDashboardDeliveryCountSearchesByStatus(t *testing.T) {
	st, _ := newTestStore(t)
	assertSearches(t, st, "notification_deliveries", "notification_deliveries_restaurant_status",
		countDeliveriesSQL, "r", "2026-01-01", "r")
}

func TestEntriesWarningsReadsOnlyEntriesEndingInTheWindow(t *testing.T) {
	st, _ := newTestStore(t)
	plan := queryPlan(t, st, entriesAroundSQL, "r", "2026-02-01", "2026-01-01")
	if !strings.Contains(plan, "time_entries_restaurant_clock_out (restaurant_id=? AND clock_out>?)") {
		t.Errorf("entries around a window are not a range on their end:\n%s", plan)
	}
}

func TestClosingReadsSalesSinceTheLastClosing(t *testing.T) {
	st, _ := newTestStore(t)
	for _, before := range []string{"<", "<="} {
		plan := queryPlan(t, st, closingSalesSQL(before), "r", "K1", "2026-01-01", "2026-01-02")
		if strings.Contains(plan, "SCAN t") || strings.Contains(plan, "SCAN tse_transactions") ||
			!strings.Contains(plan, "tse_transactions_register_time (restaurant_id=? AND client_serial=? AND business_time>? AND business_time<?)") {
			t.Errorf("closing's sales (%s) are not a range since the last closing:\n%s", before, plan)
		}
	}
}

func TestTSEReconcileReadsNoHistory(t *testing.T) {
	st, _ := newTestStore(t)
	assertSearches(t, st, "tse_transactions", "tse_transactions_number", maxTSENumberSQL, "tss")
	plan := queryPlan(t, st, staleActiveSQL, "tss", "2026-01-01")
	if strings.Contains(plan, "SCAN") || !strings.Contains(plan, "tse_transactions_active") || !strings.Contains(plan, "tse_jobs_revision") {
		t.Errorf("stale ACTIVE transactions are not found by index:\n%s", plan)
	}
}

func TestTSEQueueStateReadsOnlyUnfinishedJobs(t *testing.T) {
	st, _ := newTestStore(t)
	assertSearches(t, st, "tse_jobs", "tse_jobs_unfinished", tseQueueCountSQL, "r")
}

func TestUnclosedRegistersSkipsFromRegisterToRegister(t *testing.T) {
	st, _ := newTestStore(t)
	plan := queryPlan(t, st, registerSerialsSQL, "r")
	if strings.Contains(plan, "SCAN tse_transactions") || !strings.Contains(plan, "tse_transactions_register_time") {
		t.Errorf("registers are not found register by register:\n%s", plan)
	}
}

// A day's sales by when they happened at the till: the nightly report and
// HQ's today read one day's range of business_time, not every sale.
func TestDaysSalesSearchByBusinessTime(t *testing.T) {
	st, _ := newTestStore(t)
	assertSearches(t, st, "tse_transactions", "tse_transactions_business_time",
		reportTSESQL, "r", "2026-01-01", "2026-01-02")
	for _, q := range []string{hqSalesCountSQL, hqSalesVATSQL} {
		plan := queryPlan(t, st, q, "r", "2026-01-01", "2026-01-02")
		if !strings.Contains(plan, "INDEX tse_transactions_business_time (restaurant_id=? AND business_time>? AND business_time<?)") {
			t.Errorf("HQ's day of sales is not a range on business_time:\n%s", plan)
		}
	}
}

// A clock-out finds its entry among the open ones, however many closed
// entries the user has.
func TestClockOutSearchesTheOpenEntries(t *testing.T) {
	st, _ := newTestStore(t)
	plan := queryPlan(t, st, openEntrySQL, "u", "r")
	if !strings.Contains(plan, "time_entries_one_open (user_id=?)") {
		t.Errorf("the clock-out does not search the open entries:\n%s", plan)
	}
}
