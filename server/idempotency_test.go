package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/store"
)

// redeemKey posts a redemption with an Idempotency-Key.
func (e *testEnv) redeemKey(tb testing.TB, id, body, token, key string) *httptest.ResponseRecorder {
	tb.Helper()
	return e.do(tb, "POST", "/api/discounts/"+id+"/redeem", body, token, "Idempotency-Key", key)
}

// sameAnswer fails unless b repeats a's status and body byte for byte.
func sameAnswer(tb testing.TB, a, b *httptest.ResponseRecorder) {
	tb.Helper()
	if a.Code != b.Code || a.Body.String() != b.Body.String() {
		tb.Fatalf("retry answered %d %s\nfirst answered %d %s", b.Code, b.Body.String(), a.Code, a.Body.String())
	}
}

// usage is a discount's usage_count as the admin list shows it.
func (e *testEnv) usage(tb testing.TB, id string) string {
	tb.Helper()
	return fmt.Sprint(e.getDiscount(tb, id)["usage_count"])
}

func (e *testEnv) idemKeys(tb testing.TB, scope string) int {
	tb.Helper()
	return e.countRows(tb, `SELECT count(*) FROM idempotency_keys WHERE scope = ?`, scope)
}

// A till that lost the answer retries with the same key: it gets the
// first answer byte for byte and no second use is counted, even when the
// retry comes later, from another user of the restaurant, or with the
// members in another order. Another request under the key is refused.
func TestRedeemIdempotencyKeyRetry(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, till := e.staff(t, "Till One")
	_, other := e.staff(t, "Till Two")
	id := e.createDiscount(t, `{"name":"Ten","discount_type":"percentage","value":10,"usage_limit":10}`)["id"].(string)
	id2 := e.createDiscount(t, `{"name":"Other","discount_type":"percentage","value":10}`)["id"].(string)

	first := e.redeemKey(t, id, `{"order_total":40,"eligible_amount":30}`, till, "till-1-order-77")
	wantStatus(t, first, http.StatusOK)
	e.clock.Add(90 * time.Second) // a recomputed answer would show another redeemed_at
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":40,"eligible_amount":30}`, till, "till-1-order-77"))
	sameAnswer(t, first, e.redeemKey(t, id, ` { "eligible_amount": 30.00, "order_total": 40 } `, till, "till-1-order-77"))
	// Keys belong to the restaurant: the same request from another user
	// (a re-login, a handover at the till) is the same redemption.
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":40,"eligible_amount":30}`, other, "till-1-order-77"))
	if got := e.usage(t, id); got != "1" {
		t.Fatalf("usage_count %s after retries, want 1", got)
	}
	if n := e.redemptions(t, id); n != 1 {
		t.Fatalf("%d redemptions stored, want 1", n)
	}

	// The same key with another request: refused, nothing counted.
	for name, tc := range map[string]struct{ id, body string }{
		"OtherAmount":   {id, `{"order_total":40,"eligible_amount":30.01}`},
		"EligibleGone":  {id, `{"order_total":40}`},
		"OtherDiscount": {id2, `{"order_total":40,"eligible_amount":30}`},
	} {
		t.Run(name, func(t *testing.T) {
			p := wantProblem(t, e.redeemKey(t, tc.id, tc.body, till, "till-1-order-77"), http.StatusUnprocessableEntity, store.EIdempotencyKeyReused)
			if !strings.Contains(fmt.Sprint(p["detail"]), "Idempotency-Key") {
				t.Fatalf("detail %v", p["detail"])
			}
		})
	}
	if e.usage(t, id) != "1" || e.usage(t, id2) != "0" {
		t.Fatalf("refused reuse counted a use: %s, %s", e.usage(t, id), e.usage(t, id2))
	}

	// A new key is a new redemption; no key at all always counts.
	wantStatus(t, e.redeemKey(t, id, `{"order_total":40,"eligible_amount":30}`, till, "till-1-order-78"), http.StatusOK)
	wantStatus(t, e.redeem(t, id, `{"order_total":40,"eligible_amount":30}`, till), http.StatusOK)
	wantStatus(t, e.redeem(t, id, `{"order_total":40,"eligible_amount":30}`, till), http.StatusOK)
	if got := e.usage(t, id); got != "4" {
		t.Fatalf("usage_count %s, want 4", got)
	}
	if n := e.idemKeys(t, store.IdemDiscountRedeem); n != 2 {
		t.Fatalf("%d keys stored, want 2", n)
	}

	// A key over 255 characters is a 422 on the header, before anything.
	wantFieldError(t, e.redeemKey(t, id, `{"order_total":40}`, till, strings.Repeat("k", 256)), "Idempotency-Key")
	if got := e.usage(t, id); got != "4" {
		t.Fatalf("usage_count %s after a bad key, want 4", got)
	}
}

// An answer kept for Idempotency-Key replays is written like every other
// answer: no HTML escaping, so a till sees the same bytes with or without
// a key.
func TestRedeemIdempotencyAnswerIsNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Fish & Chips <Mo>","discount_type":"fixed","value":1}`)["id"].(string)
	const want = `"discount_name":"Fish & Chips <Mo>"`
	for _, rec := range []*httptest.ResponseRecorder{
		e.redeem(t, id, `{"order_total":10}`, till),
		e.redeemKey(t, id, `{"order_total":10}`, till, "fish"),
		e.redeemKey(t, id, `{"order_total":10}`, till, "fish"),
	} {
		wantStatus(t, rec, http.StatusOK)
		if !strings.Contains(rec.Body.String(), want) {
			t.Fatalf("body %s, want %s", rec.Body.String(), want)
		}
	}
}

// The redemption that used the last allowed use is replayed as the 200 it
// was, not re-judged as usage_limit_reached; nor after the discount was
// deactivated or deleted.
func TestRedeemIdempotencyLastUse(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Once","discount_type":"fixed","value":2,"usage_limit":1}`)["id"].(string)
	// A rule, so the event is stored (one nobody wants is not).
	wantStatus(t, e.do(t, "POST", "/api/notifications/settings", map[string]any{
		"channel": "webhook", "event_type": store.EventDiscountExhausted, "destination": "https://hooks.example.test/x", "is_enabled": true}, e.adminToken), http.StatusCreated)
	first := e.redeemKey(t, id, `{"order_total":10}`, till, "last")
	wantStatus(t, first, http.StatusOK)
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":10}`, till, "last"))
	wantProblem(t, e.redeemKey(t, id, `{"order_total":10}`, till, "next"), http.StatusConflict, store.EUsageLimitReached)
	wantStatus(t, e.do(t, "PUT", "/api/discounts/"+id, `{"is_active":false}`, e.adminToken), http.StatusOK)
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":10}`, till, "last"))
	wantStatus(t, e.do(t, "DELETE", "/api/discounts/"+id, nil, e.adminToken), http.StatusNoContent)
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":10}`, till, "last"))
	if n := e.redemptions(t, id); n != 1 {
		t.Fatalf("%d redemptions, want 1", n)
	}
	if n := e.countRows(t, `SELECT count(*) FROM events WHERE type = ?`, store.EventDiscountExhausted); n != 1 {
		t.Fatalf("%d discount_exhausted events, want 1", n)
	}
}

// Refusals are not remembered: a retry after one is decided afresh, so
// it succeeds once the reason is gone, and is then replayed as that 200.
func TestRedeemIdempotencyRefusalNotStored(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Later","discount_type":"fixed","value":3,"is_active":false,"min_order_amount":20}`)["id"].(string)

	wantProblem(t, e.redeemKey(t, id, `{"order_total":25}`, till, "k"), http.StatusConflict, store.EDiscountInactive)
	wantStatus(t, e.do(t, "PUT", "/api/discounts/"+id, `{"is_active":true}`, e.adminToken), http.StatusOK)
	// Below the minimum: 422, and the key is still free for the
	// corrected order (another body), since nothing was stored.
	wantProblem(t, e.redeemKey(t, id, `{"order_total":15}`, till, "k2"), http.StatusUnprocessableEntity, store.EMinOrderNotMet)
	wantProblem(t, e.redeemKey(t, id, `{"order_total":-1}`, till, "k2"), http.StatusUnprocessableEntity, store.EValidation)
	if n := e.idemKeys(t, store.IdemDiscountRedeem); n != 0 {
		t.Fatalf("%d keys stored after refusals, want 0", n)
	}
	ok := e.redeemKey(t, id, `{"order_total":25}`, till, "k")
	wantStatus(t, ok, http.StatusOK)
	sameAnswer(t, ok, e.redeemKey(t, id, `{"order_total":25}`, till, "k"))
	wantStatus(t, e.redeemKey(t, id, `{"order_total":20}`, till, "k2"), http.StatusOK)
	if got := e.usage(t, id); got != "2" {
		t.Fatalf("usage_count %s, want 2", got)
	}
}

// The use and its stored answer commit together: when the answer cannot
// be recorded, the use is not counted either.
func TestRedeemIdempotencyAnswerAndUseAreOneTransaction(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	staff, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Atomic","discount_type":"fixed","value":1,"usage_limit":5}`)["id"].(string)
	k := store.IdempotencyKey{RestaurantID: e.restaurant.ID, Key: "crash", RequestHash: "h"}
	boom := errors.New("the answer could not be rendered")
	_, err := e.st.RedeemOnce(context.Background(), e.restaurant.ID, id, store.RedeemInput{OrderTotalCents: 1000, RedeemedBy: staff.ID}, k,
		func(*store.Redemption) ([]byte, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	if got := e.usage(t, id); got != "0" || e.redemptions(t, id) != 0 || e.idemKeys(t, store.IdemDiscountRedeem) != 0 {
		t.Fatalf("a failed answer left usage_count %s, %d redemptions, %d keys", got, e.redemptions(t, id), e.idemKeys(t, store.IdemDiscountRedeem))
	}
	wantStatus(t, e.redeemKey(t, id, `{"order_total":10}`, till, "crash"), http.StatusOK)
	if got := e.usage(t, id); got != "1" {
		t.Fatalf("usage_count %s, want 1", got)
	}
}

// Thirty terminals send the same redemption with the same key at once (a
// till retrying over a flaky link, over real HTTP): thirty identical 200
// answers and one use counted.
func TestRedeemIdempotencyConcurrent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	tokens := make([]string, 3)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	id := e.createDiscount(t, `{"name":"Ten only","discount_type":"percentage","value":10,"usage_limit":10}`)["id"].(string)

	const n = 30
	answers := make([]string, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", srv.URL+"/api/discounts/"+id+"/redeem", bytes.NewReader([]byte(`{"order_total":25}`)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tokens[i%len(tokens)])
			req.Header.Set("Idempotency-Key", "order-4711")
			<-start
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			answers[i] = fmt.Sprintf("%d %s", resp.StatusCode, raw)
		})
	}
	close(start)
	wg.Wait()
	if !strings.HasPrefix(answers[0], "200 ") || !strings.Contains(answers[0], `"usage_count":1,`) {
		t.Fatalf("first answer %s", answers[0])
	}
	for i, a := range answers {
		if a != answers[0] {
			t.Fatalf("answer %d differs:\n%s\n%s", i, a, answers[0])
		}
	}
	if got := e.usage(t, id); got != "1" {
		t.Fatalf("usage_count %s, want 1", got)
	}
	if r := e.redemptions(t, id); r != 1 {
		t.Fatalf("%d redemptions, want 1", r)
	}
}

// Keys are per restaurant: another restaurant's till may use the same key
// for its own redemption, and neither sees the other's answer.
func TestRedeemIdempotencyPerRestaurant(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, till := e.staff(t, "Till One")
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	_, otherAdmin := e.addUser(t, other.ID, "admin@other.local", "Otto Admin", store.RoleAdmin)
	mine := e.createDiscount(t, `{"name":"Mine","discount_type":"fixed","value":1}`)["id"].(string)
	rec := e.do(t, "POST", "/api/discounts", `{"name":"Theirs","discount_type":"fixed","value":2}`, otherAdmin)
	wantStatus(t, rec, http.StatusCreated)
	theirs := discountOf(t, rec)["id"].(string)

	a := e.redeemKey(t, mine, `{"order_total":10}`, till, "shared")
	wantStatus(t, a, http.StatusOK)
	b := e.redeemKey(t, theirs, `{"order_total":10}`, otherAdmin, "shared")
	wantStatus(t, b, http.StatusOK)
	if a.Body.String() == b.Body.String() || !strings.Contains(b.Body.String(), `"discount_name":"Theirs"`) {
		t.Fatalf("restaurants share a key: %s / %s", a.Body.String(), b.Body.String())
	}
	// Each restaurant's retry replays its own answer.
	sameAnswer(t, a, e.redeemKey(t, mine, `{"order_total":10}`, till, "shared"))
	sameAnswer(t, b, e.redeemKey(t, theirs, `{"order_total":10}`, otherAdmin, "shared"))
	// Another restaurant's discount is still a 404 under a known key.
	wantProblem(t, e.redeemKey(t, theirs, `{"order_total":10}`, till, "fresh"), http.StatusNotFound, store.ENotFound)
}

// Keys are kept for store.IdempotencyRetention; the purge then forgets
// them and the same key is a new redemption.
func TestIdempotencyKeyRetention(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	u, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Week","discount_type":"fixed","value":1}`)["id"].(string)
	first := e.redeemKey(t, id, `{"order_total":10}`, till, "weekly")
	wantStatus(t, first, http.StatusOK)
	purge := func() int64 {
		n, err := e.st.PurgeIdempotencyKeys(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	e.clock.Add(store.IdempotencyRetention)
	if n := purge(); n != 0 {
		t.Fatalf("purged %d keys at exactly the retention, want 0", n)
	}
	till = e.tokenNow(t, u) // a week later the till has logged in again
	sameAnswer(t, first, e.redeemKey(t, id, `{"order_total":10}`, till, "weekly"))
	e.clock.Add(time.Millisecond)
	if n := purge(); n != 1 {
		t.Fatalf("purged %d keys past the retention, want 1", n)
	}
	again := e.redeemKey(t, id, `{"order_total":10}`, till, "weekly")
	wantStatus(t, again, http.StatusOK)
	if !strings.Contains(again.Body.String(), `"usage_count":2,`) {
		t.Fatalf("a forgotten key did not redeem anew: %s", again.Body.String())
	}
}

// Keys are per endpoint: one key on a sale and on a redemption names two
// requests; each is recorded once and each retry replays its own answer.
func TestIdempotencyKeyPerEndpoint(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, till := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Combo","discount_type":"fixed","value":1,"usage_limit":10}`)["id"].(string)
	const key = "till-1-receipt-0042"
	sold := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 900), till, "Idempotency-Key", key)
	wantStatus(t, sold, http.StatusCreated)
	red := e.redeemKey(t, id, `{"order_total":9}`, till, key)
	wantStatus(t, red, http.StatusOK)
	sameAnswer(t, sold, e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 900), till, "Idempotency-Key", key))
	sameAnswer(t, red, e.redeemKey(t, id, `{"order_total":9}`, till, key))
	if got := e.usage(t, id); got != "1" {
		t.Fatalf("usage_count %s, want 1", got)
	}
	if n := e.countRows(t, `SELECT count(*) FROM tse_transactions`); n != 1 {
		t.Fatalf("%d sales, want 1", n)
	}
	if e.idemKeys(t, store.IdemTSESale) != 1 || e.idemKeys(t, store.IdemDiscountRedeem) != 1 {
		t.Fatalf("keys per scope: sale %d, redeem %d", e.idemKeys(t, store.IdemTSESale), e.idemKeys(t, store.IdemDiscountRedeem))
	}
}
