package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"posbox/store"
)

// TestRedeemAmounts: what the till deducts, for each kind of discount,
// including the rounding edges and the caps.
func TestRedeemAmounts(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	for _, tc := range []struct {
		name     string
		discount string // members added to a valid discount
		body     string // redeem body
		want     string // the amount literal in the response
		eligible int64  // stored eligible_cents
	}{
		{"Percent15Of33.33", `"discount_type":"percentage","value":15`, `{"order_total":33.33}`, "5", 3333},         // 4.9995 → 5.00
		{"Percent12.5Of0.04HalfUp", `"discount_type":"percentage","value":12.5`, `{"order_total":0.04}`, "0.01", 4}, // 0.005 → 0.01
		{"Percent12.5Of0.03Down", `"discount_type":"percentage","value":12.5`, `{"order_total":0.03}`, "0", 3},      // 0.00375 → 0.00
		{"Percent10Of0.05HalfUp", `"discount_type":"percentage","value":10`, `{"order_total":0.05}`, "0.01", 5},     // 0.005 → 0.01
		{"Percent10Of0.04Down", `"discount_type":"percentage","value":10`, `{"order_total":0.04}`, "0", 4},          // 0.004 → 0.00
		{"Percent0.01Of50HalfUp", `"discount_type":"percentage","value":0.01`, `{"order_total":50}`, "0.01", 5000},  // 0.005 → 0.01
		{"Percent0.01Of49.99Down", `"discount_type":"percentage","value":0.01`, `{"order_total":49.99}`, "0", 4999}, // 0.004999 → 0.00
		{"Percent33.33Of100", `"discount_type":"percentage","value":33.33`, `{"order_total":100}`, "33.33", 10000},  // exact
		{"Percent19.99Of19.99", `"discount_type":"percentage","value":19.99`, `{"order_total":19.99}`, "4", 1999},   // 3.996001 → 4.00
		{"Percent100OfAll", `"discount_type":"percentage","value":100`, `{"order_total":12.34}`, "12.34", 1234},     // everything
		{"PercentOfZero", `"discount_type":"percentage","value":50`, `{"order_total":0}`, "0", 0},                   // empty order
		{"PercentCapped", `"discount_type":"percentage","value":50,"max_discount_amount":20`, `{"order_total":100}`, "20", 10000},
		{"PercentUnderCap", `"discount_type":"percentage","value":10,"max_discount_amount":20`, `{"order_total":100}`, "10", 10000},
		{"PercentCapZero", `"discount_type":"percentage","value":10,"max_discount_amount":0`, `{"order_total":100}`, "0", 10000},
		{"PercentCapAfterRounding", `"discount_type":"percentage","value":15,"max_discount_amount":4.99`, `{"order_total":33.33}`, "4.99", 3333},
		{"FixedWhole", `"discount_type":"fixed","value":5`, `{"order_total":30}`, "5", 3000},
		{"FixedCents", `"discount_type":"fixed","value":4.99`, `{"order_total":30}`, "4.99", 3000},
		{"FixedOverEligible", `"discount_type":"fixed","value":5`, `{"order_total":3.2}`, "3.2", 320},
		{"FixedCapped", `"discount_type":"fixed","value":5,"max_discount_amount":4`, `{"order_total":30}`, "4", 3000},
		{"OrderScopeExplicitEligible", `"discount_type":"percentage","value":10`, `{"order_total":50,"eligible_amount":20}`, "2", 2000},
		{"OrderScopeEligibleEqualsTotal", `"discount_type":"percentage","value":10`, `{"order_total":50,"eligible_amount":50}`, "5", 5000},
		{"CategoryPercent", `"discount_type":"percentage","value":10,"applicable_to":"category","category_id":"` + catID + `"`, `{"order_total":40,"eligible_amount":12.34}`, "1.23", 1234},
		{"CategoryFixedOverEligible", `"discount_type":"fixed","value":10,"applicable_to":"category","category_id":"` + catID + `"`, `{"order_total":40,"eligible_amount":7.5}`, "7.5", 750},
		{"CategoryNothingEligible", `"discount_type":"fixed","value":10,"applicable_to":"category","category_id":"` + catID + `"`, `{"order_total":40,"eligible_amount":0}`, "0", 0},
		{"ItemPercent", `"discount_type":"percentage","value":50,"applicable_to":"item","item_id":"` + itemID + `"`, `{"order_total":25.5,"eligible_amount":4.25}`, "2.13", 425}, // 2.125 → 2.13
		{"ItemFixed", `"discount_type":"fixed","value":1,"applicable_to":"item","item_id":"` + itemID + `"`, `{"order_total":25.5,"eligible_amount":4.25}`, "1", 425},
		{"MinOrderMetExactly", `"discount_type":"fixed","value":3,"min_order_amount":20`, `{"order_total":20}`, "3", 2000},
		{"MinOrderOnTotalNotEligible", `"discount_type":"fixed","value":3,"min_order_amount":20,"applicable_to":"item","item_id":"` + itemID + `"`, `{"order_total":20,"eligible_amount":5}`, "3", 500},
		{"LargestAmounts", `"discount_type":"percentage","value":99.99`, `{"order_total":9999999999999.99}`, "9998999999999.99", 999999999999999},
		{"TrailingZerosInBody", `"discount_type":"percentage","value":10`, `{"order_total":10.50}`, "1.05", 1050},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.createDiscount(t, `{"name":"`+tc.name+`",`+tc.discount+`}`)
			id := d["id"].(string)
			rec := e.redeem(t, id, tc.body, staff)
			wantStatus(t, rec, http.StatusOK)
			red := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any)
			if red["amount"] != json.Number(tc.want) {
				t.Fatalf("amount %v, want %s", red["amount"], tc.want)
			}
			if red["discount_id"] != id || red["usage_count"] != json.Number("1") || red["discount_name"] != tc.name ||
				red["redeemed_at"] != "2026-11-22T09:00:00.000Z" || !store.ValidID(red["redemption_id"].(string)) {
				t.Fatalf("redemption %v", red)
			}
			var eligible, amount int64
			if err := e.st.ReadDB().QueryRow(`SELECT eligible_cents, amount_cents FROM discount_redemptions WHERE id = ?`,
				red["redemption_id"]).Scan(&eligible, &amount); err != nil {
				t.Fatal(err)
			}
			if eligible != tc.eligible || money(amount) != json.Number(tc.want) {
				t.Fatalf("stored eligible %d amount %d", eligible, amount)
			}
			if got := e.getDiscount(t, id)["usage_count"]; got != json.Number("1") {
				t.Fatalf("usage_count %v", got)
			}
		})
	}
	t.Run("ResponseFieldOrder", func(t *testing.T) {
		id := e.createDiscount(t, `{"name":"Order","discount_type":"fixed","value":1}`)["id"].(string)
		var wrapper map[string]json.RawMessage
		decodeInto(t, e.redeem(t, id, `{"order_total":5}`, staff).Body.Bytes(), &wrapper)
		want := []string{"discount_id", "amount", "usage_count", "redemption_id", "discount_name", "redeemed_at", "code", "order_ref", "lines", "vat_rates", "approved_by", "reason"}
		if got := jsonKeys(t, wrapper["redemption"]); !slices.Equal(got, want) {
			t.Fatalf("keys %v, want %v", got, want)
		}
	})
}

// TestRedeemRefusals: every refusal has its code and changes nothing; when
// several apply, the documented order decides which one the till sees.
func TestRedeemRefusals(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	e.notifyOn(t, store.EventDiscountExhausted) // so a wrongly raised event would be stored
	now := "2026-11-22T09:00:00Z"
	for _, tc := range []struct {
		name     string
		discount string // members of the discount
		used     int    // redemptions before the one tested
		body     string
		status   int
		code     string
		field    string // for validation_failed
	}{
		{"Inactive", `"is_active":false`, 0, `{"order_total":10}`, 409, store.EDiscountInactive, ""},
		{"NotStartedOneMs", `"valid_from":"2026-11-22T09:00:00.001Z"`, 0, `{"order_total":10}`, 409, store.EDiscountNotStarted, ""},
		{"NotStartedOffset", `"valid_from":"2026-11-22T10:30:00+01:00"`, 0, `{"order_total":10}`, 409, store.EDiscountNotStarted, ""},
		{"ExpiredAtValidUntil", `"valid_from":"2026-11-01T00:00:00Z","valid_until":"` + now + `"`, 0, `{"order_total":10}`, 409, store.EDiscountExpired, ""},
		{"ExpiredOffset", `"valid_from":"2026-11-01T00:00:00Z","valid_until":"2026-11-22T09:59:59+01:00"`, 0, `{"order_total":10}`, 409, store.EDiscountExpired, ""},
		{"MinOrderNotMet", `"min_order_amount":20`, 0, `{"order_total":19.99}`, 422, store.EMinOrderNotMet, ""},
		{"MinOrderOnTotal", `"min_order_amount":20,"applicable_to":"item","item_id":"` + itemID + `"`, 0, `{"order_total":19.99,"eligible_amount":19.99}`, 422, store.EMinOrderNotMet, ""},
		{"LimitReached", `"usage_limit":2`, 2, `{"order_total":10}`, 409, store.EUsageLimitReached, ""},
		// Order of checks: inactive → not started → expired → min order → limit.
		{"InactiveBeforeNotStarted", `"is_active":false,"valid_from":"2026-12-01T00:00:00Z"`, 0, `{"order_total":10}`, 409, store.EDiscountInactive, ""},
		{"InactiveBeforeExpired", `"is_active":false,"valid_from":"2026-11-01T00:00:00Z","valid_until":"2026-11-02T00:00:00Z"`, 0, `{"order_total":10}`, 409, store.EDiscountInactive, ""},
		{"NotStartedBeforeMinOrder", `"valid_from":"2026-12-01T00:00:00Z","min_order_amount":50`, 0, `{"order_total":10}`, 409, store.EDiscountNotStarted, ""},
		{"ExpiredBeforeMinOrder", `"valid_from":"2026-11-01T00:00:00Z","valid_until":"2026-11-02T00:00:00Z","min_order_amount":50`, 0, `{"order_total":10}`, 409, store.EDiscountExpired, ""},
		{"MinOrderBeforeLimit", `"usage_limit":1,"min_order_amount":50`, 1, `{"order_total":10}`, 422, store.EMinOrderNotMet, ""},
		// Bad bodies: 422 naming the field (or 400), before any state check.
		{"OrderTotalMissing", ``, 0, `{"eligible_amount":1}`, 422, store.EValidation, "order_total"},
		{"OrderTotalNull", ``, 0, `{"order_total":null}`, 422, store.EValidation, "order_total"},
		{"OrderTotalNegative", ``, 0, `{"order_total":-1}`, 422, store.EValidation, "order_total"},
		{"OrderTotalThreeDecimals", ``, 0, `{"order_total":10.005}`, 422, store.EValidation, "order_total"},
		{"OrderTotalString", ``, 0, `{"order_total":"10"}`, 422, store.EValidation, "order_total"},
		{"EligibleNegative", ``, 0, `{"order_total":10,"eligible_amount":-0.01}`, 422, store.EValidation, "eligible_amount"},
		{"EligibleOverTotal", ``, 0, `{"order_total":10,"eligible_amount":10.01}`, 422, store.EValidation, "eligible_amount"},
		{"EligibleThreeDecimals", ``, 0, `{"order_total":10,"eligible_amount":1.001}`, 422, store.EValidation, "eligible_amount"},
		{"EligibleRequiredForCategory", `"applicable_to":"category","category_id":"` + catID + `"`, 0, `{"order_total":10}`, 422, store.EValidation, "eligible_amount"},
		{"EligibleRequiredForItem", `"applicable_to":"item","item_id":"` + itemID + `"`, 0, `{"order_total":10}`, 422, store.EValidation, "eligible_amount"},
		{"BadBodyBeforeInactive", `"is_active":false`, 0, `{"order_total":-1}`, 422, store.EValidation, "order_total"},
		{"EligibleRequiredBeforeInactive", `"is_active":false,"applicable_to":"item","item_id":"` + itemID + `"`, 0, `{"order_total":10}`, 422, store.EValidation, "eligible_amount"},
		{"UnknownField", ``, 0, `{"order_total":10,"coupon":"X"}`, 400, eUnknownField, ""},
		{"Malformed", ``, 0, `{"order_total":`, 400, eMalformedJSON, ""},
		{"NoBody", ``, 0, ``, 400, eMalformedJSON, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"name":"` + tc.name + `","discount_type":"percentage","value":10`
			if tc.discount != "" {
				body += "," + tc.discount
			}
			id := e.createDiscount(t, body+"}")["id"].(string)
			if tc.used > 0 {
				for range tc.used {
					wantStatus(t, e.redeem(t, id, `{"order_total":100,"eligible_amount":100}`, staff), http.StatusOK)
				}
			}
			before := e.getDiscount(t, id)
			events := len(e.storedEvents(t, store.EventDiscountExhausted))
			rec := e.redeem(t, id, tc.body, staff)
			if tc.code == store.EValidation {
				wantFieldError(t, rec, tc.field)
			} else {
				wantProblem(t, rec, tc.status, tc.code)
			}
			if after := e.getDiscount(t, id); !mapsEqual(before, after) {
				t.Fatalf("refusal changed the discount\nbefore %v\n after %v", before, after)
			}
			if n := e.redemptions(t, id); n != tc.used {
				t.Fatalf("%d redemptions stored, want %d", n, tc.used)
			}
			if n := len(e.storedEvents(t, store.EventDiscountExhausted)); n != events {
				t.Fatalf("refusal raised an event")
			}
		})
	}
	t.Run("UnknownDiscount", func(t *testing.T) {
		wantProblem(t, e.redeem(t, store.NewID(), `{"order_total":10}`, staff), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.redeem(t, "happy-hour", `{"order_total":10}`, staff), http.StatusNotFound, store.ENotFound)
	})
	t.Run("WindowFollowsTheClock", func(t *testing.T) {
		// Berlin is UTC+1: the window is 09:30Z to 10:00Z.
		id := e.createDiscount(t, `{"name":"Half hour","discount_type":"fixed","value":1,
			"valid_from":"2026-11-22T10:30:00+01:00","valid_until":"2026-11-22T11:00:00+01:00"}`)["id"].(string)
		defer e.clock.Set(e.clock.Now())
		wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EDiscountNotStarted)
		e.clock.Set(time.Date(2026, 11, 22, 9, 29, 59, 999e6, time.UTC))
		wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EDiscountNotStarted)
		e.clock.Set(time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)) // valid_from is inclusive
		wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
		e.clock.Set(time.Date(2026, 11, 22, 9, 59, 59, 999e6, time.UTC))
		wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
		e.clock.Set(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) // valid_until is exclusive
		wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EDiscountExpired)
	})
	t.Run("ReactivatedAndExtended", func(t *testing.T) {
		id := e.createDiscount(t, `{"name":"Back","discount_type":"fixed","value":1,"is_active":false,"usage_limit":1}`)["id"].(string)
		wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EDiscountInactive)
		wantStatus(t, e.do(t, "PUT", "/api/discounts/"+id, `{"is_active":true}`, e.adminToken), http.StatusOK)
		wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
		wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EUsageLimitReached)
		wantStatus(t, e.do(t, "PUT", "/api/discounts/"+id, `{"usage_limit":null}`, e.adminToken), http.StatusOK)
		rec := e.redeem(t, id, `{"order_total":10}`, staff)
		wantStatus(t, rec, http.StatusOK)
		if c := jsonNumbers(t, rec.Body.Bytes())["redemption"].(map[string]any)["usage_count"]; c != json.Number("2") {
			t.Fatalf("usage_count %v", c)
		}
	})
}

// TestRedeemExhaustedEvent: the use that reaches the limit, and only that
// one, records a discount_exhausted event.
func TestRedeemExhaustedEvent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	e.notifyOn(t, store.EventDiscountExhausted) // so the event is stored
	id := e.createDiscount(t, `{"name":"Two only","discount_type":"fixed","value":1,"usage_limit":2}`)["id"].(string)
	unlimited := e.createDiscount(t, `{"name":"Forever","discount_type":"fixed","value":1}`)["id"].(string)
	for range 5 {
		wantStatus(t, e.redeem(t, unlimited, `{"order_total":10}`, staff), http.StatusOK)
	}
	wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
	if n := len(e.storedEvents(t, store.EventDiscountExhausted)); n != 0 {
		t.Fatalf("%d events before the limit", n)
	}
	wantStatus(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusOK)
	wantProblem(t, e.redeem(t, id, `{"order_total":10}`, staff), http.StatusConflict, store.EUsageLimitReached)
	evs := e.storedEvents(t, store.EventDiscountExhausted)
	if len(evs) != 1 {
		t.Fatalf("%d discount_exhausted events, want 1", len(evs))
	}
	var data map[string]any
	decodeInto(t, evs[0].Data, &data)
	want := map[string]any{"discount_id": id, "name": "Two only", "usage_limit": float64(2), "usage_count": float64(2)}
	if !mapsEqual(data, want) {
		t.Fatalf("event data %v, want %v", data, want)
	}
	if evs[0].RestaurantID != e.restaurant.ID || !evs[0].CreatedAt.Equal(e.clock.Now()) {
		t.Fatalf("event %+v", evs[0])
	}
}

// TestRedeemConcurrent fires 60 redemptions from 6 terminals at once, over
// real HTTP, at a discount allowed 10 uses: exactly 10 succeed.
func TestRedeemConcurrent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tokens := make([]string, 6)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	id := e.createDiscount(t, `{"name":"Ten only","discount_type":"percentage","value":10,"usage_limit":10}`)["id"].(string)
	e.notifyOn(t, store.EventDiscountExhausted) // so the event is stored

	got, counts := redeemAtOnce(t, e, id, tokens, 60, func(int) string { return `{"order_total":25}` })
	if got["200 "] != 10 || got["409 "+store.EUsageLimitReached] != 50 || len(got) != 2 {
		t.Fatalf("answers %v, want 10 × 200 and 50 × 409 usage_limit_reached", got)
	}
	// Each success saw its own count: 1..10, no duplicates.
	slices.Sort(counts)
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; !slices.Equal(counts, want) {
		t.Fatalf("usage counts seen %v, want %v", counts, want)
	}
	if got := e.getDiscount(t, id)["usage_count"]; got != json.Number("10") {
		t.Fatalf("usage_count %v, want 10", got)
	}
	if got := e.redemptions(t, id); got != 10 {
		t.Fatalf("%d redemption rows, want 10", got)
	}
	if got := len(e.storedEvents(t, store.EventDiscountExhausted)); got != 1 {
		t.Fatalf("%d discount_exhausted events, want 1", got)
	}
}
