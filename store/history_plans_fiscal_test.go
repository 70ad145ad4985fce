package store

import (
	"strings"
	"testing"
)

// The fiscal reads of issue 22's year ten: a sale's tx_id is random
// (UUIDv4), so each lookup by it lands on a page of its own in an index
// that grows with the years. A closing reads its window's sales by
// register and time and the closings that can hold them, never one
// tx_id lookup per sale in every closing's transactions.
func TestClosingLeavesOutClosedSalesByTheRecentClosings(t *testing.T) {
	st, _ := newTestStore(t)
	for _, before := range []string{"<", "<="} {
		plan := queryPlan(t, st, closingSalesSQL(before), "r", "K1", "2026-01-01", "2026-01-02")
		if !strings.Contains(plan, "tse_closings_covered (restaurant_id=? AND client_serial=? AND covered_until>?)") ||
			strings.Contains(plan, "SCAN c") || strings.Contains(plan, "SCAN ct") ||
			strings.Contains(plan, "sqlite_autoindex_tse_closing_transactions_1 (tx_id=?)") {
			t.Errorf("closed sales (%s) are not read from the register's recent closings:\n%s", before, plan)
		}
	}
}

// The totals read only the counted sales' VAT and payments: no join back
// to each sale's transaction and detail (closingSalesSQL says which
// count).
func TestClosingTotalsJoinNothing(t *testing.T) {
	st, _ := newTestStore(t)
	for _, q := range []string{closingVATSQL, closingPaymentsSQL} {
		plan := queryPlan(t, st, q, `["a"]`)
		if strings.Contains(plan, "tse_transactions") || strings.Contains(plan, "tse_sale_details") || strings.Contains(plan, "SCAN tse_sale") {
			t.Errorf("a closing's totals read more than the sales' rows:\n%s", plan)
		}
	}
}
