package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// The test clock starts at Sunday 22 November 2026, 10:00 in Berlin
// (09:00Z); schedules below are relative to that.

// scheduleOf is the discount's schedule member, re-encoded for comparing.
func scheduleOf(tb testing.TB, d map[string]any) string {
	tb.Helper()
	b, err := json.Marshal(d["schedule"])
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestDiscountScheduleRoundTrip: created, listed, kept by a PUT without
// it, replaced whole by a PUT with it, cleared by null, deleted with the
// discount.
func TestDiscountScheduleRoundTrip(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	windows := func(id string) int {
		return e.countRows(t, `SELECT count(*) FROM discount_schedule_windows WHERE discount_id = ?`, id)
	}
	plain := e.createDiscount(t, `{"name":"Always","discount_type":"percentage","value":10}`)
	if got := scheduleOf(t, plain); got != "null" {
		t.Fatalf("no schedule: %s, want null", got)
	}
	d := e.createDiscount(t, `{"name":"Drinks","discount_type":"percentage","value":20,"schedule":[
		{"days":[5],"from":"22:00","to":"02:00"},{"days":[5,4,3,2,1],"from":"17:00","to":"19:00"}]}`)
	id := d["id"].(string)
	want := `[{"days":[1,2,3,4,5],"from":"17:00","to":"19:00"},{"days":[5],"from":"22:00","to":"02:00"}]`
	if got := scheduleOf(t, d); got != want {
		t.Fatalf("created schedule %s, want %s", got, want)
	}
	if got := scheduleOf(t, e.getDiscount(t, id)); got != want {
		t.Fatalf("listed schedule %s, want %s", got, want)
	}
	if n := windows(id); n != 6 {
		t.Fatalf("%d window rows, want 6", n)
	}
	rec := e.do(t, "PUT", "/api/discounts/"+id, `{"value":25}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if got := scheduleOf(t, discountOf(t, rec)); got != want {
		t.Fatalf("after a PUT without schedule %s, want %s", got, want)
	}
	rec = e.do(t, "PUT", "/api/discounts/"+id, `{"schedule":[{"days":[6,7],"from":"00:00","to":"00:00"}]}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if got, want := scheduleOf(t, discountOf(t, rec)), `[{"days":[6,7],"from":"00:00","to":"00:00"}]`; got != want {
		t.Fatalf("replaced schedule %s, want %s", got, want)
	}
	if n := windows(id); n != 2 {
		t.Fatalf("%d window rows after the replacement, want 2", n)
	}
	// A refused PUT leaves the schedule as it was.
	wantFieldError(t, e.do(t, "PUT", "/api/discounts/"+id, `{"schedule":[{"days":[9],"from":"10:00","to":"11:00"}]}`, e.adminToken), "schedule[0].days[0]")
	if n := windows(id); n != 2 {
		t.Fatalf("%d window rows after a refused PUT, want 2", n)
	}
	rec = e.do(t, "PUT", "/api/discounts/"+id, `{"schedule":null}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if got := scheduleOf(t, discountOf(t, rec)); got != "null" || windows(id) != 0 {
		t.Fatalf("cleared schedule %s with %d rows", got, windows(id))
	}
	e.do(t, "PUT", "/api/discounts/"+id, `{"schedule":[{"days":[1],"from":"10:00","to":"11:00"}]}`, e.adminToken)
	wantStatus(t, e.do(t, "DELETE", "/api/discounts/"+id, nil, e.adminToken), http.StatusNoContent)
	if n := windows(id); n != 0 {
		t.Fatalf("%d window rows after the delete, want 0", n)
	}
}

// TestDiscountScheduleValidation: each malformed schedule is a 422 that
// names the member and stores nothing.
func TestDiscountScheduleValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	var many []string
	for d := 1; d <= 7; d++ {
		for h := 8; h < 13; h++ { // 35 windows
			many = append(many, fmt.Sprintf(`{"days":[%d],"from":"%02d:00","to":"%02d:30"}`, d, h, h))
		}
	}
	for _, tc := range []struct {
		name, schedule, field, code string
	}{
		{"DayZero", `[{"days":[0],"from":"17:00","to":"19:00"}]`, "schedule[0].days[0]", "out_of_range"},
		{"DayEight", `[{"days":[1,8],"from":"17:00","to":"19:00"}]`, "schedule[0].days[1]", "out_of_range"},
		{"DayTwice", `[{"days":[1,1],"from":"17:00","to":"19:00"}]`, "schedule[0].days[1]", "duplicate"},
		{"NoDays", `[{"days":[],"from":"17:00","to":"19:00"}]`, "schedule[0].days", "too_few"},
		{"DaysMissing", `[{"from":"17:00","to":"19:00"}]`, "schedule[0].days", "too_few"},
		{"Hour24", `[{"days":[1],"from":"24:00","to":"19:00"}]`, "schedule[0].from", "not_time"},
		{"OneDigitHour", `[{"days":[1],"from":"17:00","to":"9:00"}]`, "schedule[0].to", "not_time"},
		{"Seconds", `[{"days":[1],"from":"17:00:00","to":"19:00"}]`, "schedule[0].from", "not_time"},
		{"SecondEntry", `[{"days":[1],"from":"17:00","to":"19:00"},{"days":[2],"from":"","to":"19:00"}]`, "schedule[1].from", "not_time"},
		{"ExactDuplicate", `[{"days":[1,2],"from":"17:00","to":"19:00"},{"days":[2],"from":"17:00","to":"19:00"}]`, "schedule", "duplicate"},
		{"Empty", `[]`, "schedule", "too_few"},
		{"TooMany", "[" + strings.Join(many, ",") + "]", "schedule", "too_many"},
		{"DaysNotList", `[{"days":"Mo","from":"17:00","to":"19:00"}]`, "schedule.days", "wrong_type"},
		{"TimeNotString", `[{"days":[1],"from":1700,"to":"19:00"}]`, "schedule.from", "wrong_type"},
		{"NullEntry", `[null]`, "schedule[0].days", "too_few"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := e.do(t, "POST", "/api/discounts", `{"name":"`+tc.name+`","discount_type":"fixed","value":1,"schedule":`+tc.schedule+`}`, e.adminToken)
			p := wantProblem(t, rec, http.StatusUnprocessableEntity, store.EValidation)
			found := false
			for _, fe := range p["errors"].([]any) {
				m := fe.(map[string]any)
				found = found || (m["field"] == tc.field && m["code"] == tc.code)
			}
			if !found {
				t.Fatalf("want %s %s in %s", tc.field, tc.code, rec.Body.String())
			}
		})
	}
	// An unknown member inside an entry is refused like one at the top.
	wantProblem(t, e.do(t, "POST", "/api/discounts", `{"name":"Unknown","discount_type":"fixed","value":1,`+
		`"schedule":[{"days":[1],"from":"17:00","to":"19:00","weekday":1}]}`, e.adminToken), http.StatusBadRequest, "unknown_field")
	// Overlaps are allowed, and 28 windows are.
	e.createDiscount(t, `{"name":"Overlap","discount_type":"fixed","value":1,"schedule":[
		{"days":[1],"from":"17:00","to":"19:00"},{"days":[1],"from":"18:00","to":"20:00"}]}`)
	e.createDiscount(t, `{"name":"Max","discount_type":"fixed","value":1,"schedule":[`+strings.Join(many[:28], ",")+`]}`)
	if n := e.countRows(t, `SELECT count(*) FROM discounts`); n != 2 {
		t.Fatalf("%d discounts stored, want 2", n)
	}
}

// TestRedeemSchedule: inside its windows a discount is redeemed; outside
// it is 409 discount_outside_schedule naming the next opening, after the
// validity checks and before the minimum order.
func TestRedeemSchedule(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	for _, tc := range []struct {
		name, discount, body string
		status               int
		code, detail         string
	}{
		// Sunday 10:00 Berlin.
		{"Inside", `"schedule":[{"days":[7],"from":"09:00","to":"11:00"}]`, `{"order_total":10}`, 200, "", ""},
		{"InsideWholeDay", `"schedule":[{"days":[7],"from":"00:00","to":"00:00"}]`, `{"order_total":10}`, 200, "", ""},
		{"InsideFromSaturdayNight", `"schedule":[{"days":[6],"from":"22:00","to":"10:01"}]`, `{"order_total":10}`, 200, "", ""},
		{"AtTheEnd", `"schedule":[{"days":[7],"from":"09:00","to":"10:00"}]`, `{"order_total":10}`, 409, store.EDiscountOutsideSchedule,
			`discount "AtTheEnd" is outside its schedule; it opens next on Sun 2026-11-29 at 09:00 (Europe/Berlin)`},
		{"LaterToday", `"schedule":[{"days":[7],"from":"12:00","to":"13:00"}]`, `{"order_total":10}`, 409, store.EDiscountOutsideSchedule,
			`discount "LaterToday" is outside its schedule; it opens next on Sun 2026-11-22 at 12:00 (Europe/Berlin)`},
		{"Weekdays", `"schedule":[{"days":[1,2,3,4,5],"from":"17:00","to":"19:00"}]`, `{"order_total":10}`, 409, store.EDiscountOutsideSchedule,
			`discount "Weekdays" is outside its schedule; it opens next on Mon 2026-11-23 at 17:00 (Europe/Berlin)`},
		{"InactiveFirst", `"is_active":false,"schedule":[{"days":[1],"from":"17:00","to":"19:00"}]`, `{"order_total":10}`, 409, store.EDiscountInactive, ""},
		{"ExpiredFirst", `"valid_from":"2026-11-01T00:00:00Z","valid_until":"2026-11-02T00:00:00Z","schedule":[{"days":[1],"from":"17:00","to":"19:00"}]`,
			`{"order_total":10}`, 409, store.EDiscountExpired, ""},
		{"BeforeMinOrder", `"min_order_amount":50,"schedule":[{"days":[1],"from":"17:00","to":"19:00"}]`, `{"order_total":10}`, 409, store.EDiscountOutsideSchedule, ""},
		{"MinOrderInside", `"min_order_amount":50,"schedule":[{"days":[7],"from":"09:00","to":"11:00"}]`, `{"order_total":10}`, 422, store.EMinOrderNotMet, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := e.createDiscount(t, `{"name":"`+tc.name+`","discount_type":"fixed","value":1,`+tc.discount+`}`)["id"].(string)
			rec := e.redeem(t, id, tc.body, staff)
			if tc.status == 200 {
				wantStatus(t, rec, http.StatusOK)
				return
			}
			p := wantProblem(t, rec, tc.status, tc.code)
			if tc.detail != "" && p["detail"] != tc.detail {
				t.Fatalf("detail %q, want %q", p["detail"], tc.detail)
			}
			if n := e.redemptions(t, id); n != 0 {
				t.Fatalf("%d redemptions after a refusal", n)
			}
		})
	}
}

// TestRedeemScheduleConcurrent: 64 terminals at once, over real HTTP, on
// a discount allowed 10 uses: inside its window exactly 10 succeed; at a
// clock outside it none does and nothing is counted.
func TestRedeemScheduleConcurrent(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tokens := make([]string, 8)
	for i := range tokens {
		_, tokens[i] = e.staff(t, fmt.Sprintf("Till %d", i))
	}
	body := `{"name":"%s","discount_type":"percentage","value":10,"usage_limit":10,"schedule":[{"days":[7],"from":"09:00","to":"10:30"}]}`
	inside := e.createDiscount(t, fmt.Sprintf(body, "Inside"))["id"].(string)
	outside := e.createDiscount(t, fmt.Sprintf(body, "Outside"))["id"].(string)

	fire := func(id string) map[string]int {
		got, _ := redeemAtOnce(t, e, id, tokens, 64, func(int) string { return `{"order_total":25}` })
		return got
	}
	if got := fire(inside); got["200 "] != 10 || got["409 "+store.EUsageLimitReached] != 54 {
		t.Fatalf("inside the window: %v, want 10 × 200 and 54 × usage_limit_reached", got)
	}
	e.clock.Set(time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)) // 10:30 Berlin: the window has just closed
	if got := fire(outside); got["409 "+store.EDiscountOutsideSchedule] != 64 {
		t.Fatalf("outside the window: %v, want 64 × discount_outside_schedule", got)
	}
	for id, want := range map[string]int{inside: 10, outside: 0} {
		if got := e.getDiscount(t, id)["usage_count"]; got != json.Number(fmt.Sprint(want)) {
			t.Fatalf("usage_count %v, want %d", got, want)
		}
		if got := e.redemptions(t, id); got != want {
			t.Fatalf("%d redemption rows, want %d", got, want)
		}
	}
}

// TestRedeemScheduleDSTDays: at the till on the two days Berlin changes
// its clocks in 2026, a window 02:00-03:00 on Sunday never opens in
// March and is open twice in October.
func TestRedeemScheduleDSTDays(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, tc := range []struct {
		name   string
		at     time.Time
		status int
		detail string
	}{
		{"SpringJustAfterGap", time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC), 409, // 03:00 CEST
			`discount "SpringJustAfterGap" is outside its schedule; it opens next on Sun 2026-04-05 at 02:00 (Europe/Berlin)`},
		{"SpringBeforeGap", time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), 409, ""}, // 01:59 CET
		{"FallFirstTime", time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), 200, ""},  // 02:30 CEST
		{"FallSecondTime", time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), 200, ""}, // 02:30 CET
		{"FallAfter", time.Date(2026, 10, 25, 2, 0, 0, 0, time.UTC), 409, ""},       // 03:00 CET
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.clock.Set(tc.at)
			_, admin := e.addUser(t, e.restaurant.ID, strings.ToLower(tc.name)+"@admin.test", "Admin "+tc.name, store.RoleAdmin)
			_, staff := e.staff(t, "Till "+tc.name)
			rec := e.do(t, "POST", "/api/discounts", `{"name":"`+tc.name+`","discount_type":"fixed","value":1,"valid_from":"2026-01-01T00:00:00Z",`+
				`"schedule":[{"days":[7],"from":"02:00","to":"03:00"}]}`, admin)
			wantStatus(t, rec, http.StatusCreated)
			id := discountOf(t, rec)["id"].(string)
			rec = e.redeem(t, id, `{"order_total":10}`, staff)
			if tc.status == 200 {
				wantStatus(t, rec, http.StatusOK)
				return
			}
			p := wantProblem(t, rec, http.StatusConflict, store.EDiscountOutsideSchedule)
			if tc.detail != "" && p["detail"] != tc.detail {
				t.Fatalf("detail %q, want %q", p["detail"], tc.detail)
			}
		})
	}
}
