package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// createDiscount posts body as the admin, wants 201 and returns the
// discount as the API shows it.
func (e *testEnv) createDiscount(tb testing.TB, body any) map[string]any {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/discounts", body, e.adminToken)
	wantStatus(tb, rec, http.StatusCreated)
	return discountOf(tb, rec)
}

// discountOf reads {"discount": {...}} with numbers kept as literals.
func discountOf(tb testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	tb.Helper()
	return jsonNumbers(tb, rec.Body.Bytes())["discount"].(map[string]any)
}

// jsonNumbers decodes a body keeping numbers as json.Number, so a test
// sees exactly the literal the API wrote (12.5, not a float).
func jsonNumbers(tb testing.TB, raw []byte) map[string]any {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		tb.Fatalf("body %q: %v", raw, err)
	}
	return m
}

// listDiscounts returns GET /api/discounts as the admin.
func (e *testEnv) listDiscounts(tb testing.TB) []any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/discounts", nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return jsonNumbers(tb, rec.Body.Bytes())["discounts"].([]any)
}

// getDiscount finds one discount in the admin list (nil when absent).
func (e *testEnv) getDiscount(tb testing.TB, id string) map[string]any {
	tb.Helper()
	for _, d := range e.listDiscounts(tb) {
		if m := d.(map[string]any); m["id"] == id {
			return m
		}
	}
	return nil
}

// redeem posts a redemption with token.
func (e *testEnv) redeem(tb testing.TB, id string, body any, token string) *httptest.ResponseRecorder {
	tb.Helper()
	return e.do(tb, "POST", "/api/discounts/"+id+"/redeem", body, token)
}

// countRows counts rows of a query on the real database file.
func (e *testEnv) countRows(tb testing.TB, query string, args ...any) int {
	tb.Helper()
	var n int
	if err := e.st.ReadDB().QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// redemptions counts the stored redemptions of a discount.
func (e *testEnv) redemptions(tb testing.TB, discountID string) int {
	tb.Helper()
	return e.countRows(tb, `SELECT count(*) FROM discount_redemptions WHERE discount_id = ?`, discountID)
}
