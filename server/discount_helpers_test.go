package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// redeemAtOnce fires n redemptions with bodies body(i) from terminals
// logged in as tokens, over real HTTP, all released at once. It counts
// the answers by "status code" ("200 " for a success) and returns the
// usage_count each success saw.
func redeemAtOnce(t *testing.T, e *testEnv, id string, tokens []string, n int, body func(i int) string) (answers map[string]int, counts []int) {
	t.Helper()
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	srv.Client().Transport.(*http.Transport).MaxIdleConnsPerHost = n
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers = map[string]int{}
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", srv.URL+"/api/discounts/"+id+"/redeem", strings.NewReader(body(i)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tokens[i%len(tokens)])
			<-start
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var p struct {
				Code       string `json:"code"`
				Redemption struct {
					UsageCount int `json:"usage_count"`
				} `json:"redemption"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Errorf("status %d body %q", resp.StatusCode, raw)
			}
			mu.Lock()
			answers[fmt.Sprintf("%d %s", resp.StatusCode, p.Code)]++
			if resp.StatusCode == http.StatusOK {
				counts = append(counts, p.Redemption.UsageCount)
			}
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return answers, counts
}
