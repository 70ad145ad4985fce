package server

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"posbox/store"
)

func warningCodes(tb testing.TB, v any) []string {
	tb.Helper()
	var out []string
	for _, w := range v.([]any) {
		m := w.(map[string]any)
		if m["rule"] == "" || m["message"] == "" || m["date"] == "" {
			tb.Fatalf("warning without rule, date or message: %v", m)
		}
		out = append(out, m["code"].(string))
	}
	return out
}

// The clock-out answer carries the working day's ArbZG warnings at the
// boundary and not one minute before; the clock-out is never refused.
func TestClockOutWarnings(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	day := 0
	clockOut := func(work time.Duration, brk int) []string {
		day += 2 // far apart: no rest warning
		in := time.Date(2026, 11, day, 7, 0, 0, 0, time.UTC)
		e.clock.Set(in)
		wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.tokenNow(t, sam)), http.StatusCreated)
		e.clock.Set(in.Add(work + time.Duration(brk)*time.Minute))
		rec := e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": brk}, e.tokenNow(t, sam))
		wantStatus(t, rec, http.StatusOK)
		return warningCodes(t, decodeJSON(t, rec)["time_entry"].(map[string]any)["warnings"])
	}
	for _, c := range []struct {
		work time.Duration
		brk  int
		want []string
	}{
		{6 * time.Hour, 29, nil},
		{6*time.Hour + time.Minute, 29, []string{store.WarnBreakTooShort}},
		{6*time.Hour + time.Minute, 30, nil},
		{9*time.Hour + time.Minute, 44, []string{store.WarnBreakTooShort}},
		{9*time.Hour + time.Minute, 45, nil},
		{10 * time.Hour, 45, nil},
		{10*time.Hour + time.Minute, 45, []string{store.WarnDailyMax}},
	} {
		if got := clockOut(c.work, c.brk); !slices.Equal(got, c.want) {
			t.Errorf("%s worked, %d min break: %v, want %v", c.work, c.brk, got, c.want)
		}
	}
	// The admin list shows the same warnings on the entries.
	list := e.timeEntries(t, "?from=2026-11-01&to=2026-11-30")
	var flagged int
	for _, l := range list {
		flagged += len(l["warnings"].([]any))
	}
	if flagged != 3 {
		t.Fatalf("%d warnings in the list, want 3", flagged)
	}
	// Rest: clocking in 10 h 59 after the last clock-out warns at the next clock-out.
	last := list[len(list)-1]
	out, _ := time.Parse(store.TimeFormat, last["clock_out"].(string))
	e.clock.Set(out.Add(10*time.Hour + 59*time.Minute))
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.tokenNow(t, sam)), http.StatusCreated)
	e.clock.Add(2 * time.Hour)
	rec := e.do(t, "POST", "/api/shifts/clock-out", nil, e.tokenNow(t, sam))
	if got := warningCodes(t, decodeJSON(t, rec)["time_entry"].(map[string]any)["warnings"]); !slices.Equal(got, []string{store.WarnRestTooShort}) {
		t.Fatalf("rest warning: %v", got)
	}
}

// A planned shift is checked against the staff member's other shifts when
// it is created or changed; it is saved either way.
func TestShiftWarnings(t *testing.T) {
	e := newTestEnv(t)
	sam, samTok := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventLabourLawWarning) // so the events are stored
	first := e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-01", "start_time": "14:00", "end_time": "23:00", "break_minutes": 45})
	if len(first["warnings"].([]any)) != 0 {
		t.Fatalf("first shift %v", first)
	}
	// 23:00 to 09:59 is 10 h 59 of rest; a hospitality restaurant allows 10 h.
	second := e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-02", "start_time": "09:59", "end_time": "15:00", "break_minutes": 30})
	if got := warningCodes(t, second["warnings"]); !slices.Equal(got, []string{store.WarnRestTooShort}) {
		t.Fatalf("second shift warnings %v", got)
	}
	rec := e.do(t, "PUT", "/api/shifts/"+second["id"].(string), map[string]any{"start_time": "10:00"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if got := decodeJSON(t, rec)["shift"].(map[string]any)["warnings"].([]any); len(got) != 0 {
		t.Fatalf("after moving to 10:00: %v", got)
	}
	// A 10 h 01 night shift across midnight without enough break.
	night := e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-05", "start_time": "20:00", "end_time": "06:31", "break_minutes": 30})
	if got := warningCodes(t, night["warnings"]); !slices.Equal(got, []string{store.WarnBreakTooShort, store.WarnDailyMax}) {
		t.Fatalf("night shift warnings %v", got)
	}
	// The list and the staff member's own view show them too; events were raised.
	for _, path := range []string{"/api/shifts?date_from=2026-12-05&date_to=2026-12-05"} {
		rec := e.do(t, "GET", path, nil, e.adminToken)
		if got := decodeJSON(t, rec)["shifts"].([]any)[0].(map[string]any)["warnings"].([]any); len(got) != 2 {
			t.Fatalf("%s: %v", path, got)
		}
	}
	rec = e.do(t, "GET", "/api/shifts/mine?date_from=2026-12-01&date_to=2026-12-07", nil, samTok)
	if n := len(decodeJSON(t, rec)["shifts"].([]any)); n != 3 {
		t.Fatalf("mine: %d shifts", n)
	}
	if evs := e.events(t, store.EventLabourLawWarning); len(evs) != 2 || evs[0]["source"] != "shift" || evs[0]["shift_id"] != second["id"] {
		t.Fatalf("labour_law_warning events %v", evs)
	}
	// The hospitality setting: 10 h of rest is enough (23:00 to 09:00).
	e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-03", "start_time": "14:00", "end_time": "23:00", "break_minutes": 45})
	wantStatus(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"min_rest_hours": 10}, e.adminToken), http.StatusOK)
	third := e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-04", "start_time": "09:00", "end_time": "13:00", "break_minutes": 0})
	if got := warningCodes(t, third["warnings"]); len(got) != 0 {
		t.Fatalf("10 h rest with the hospitality setting: %v", got)
	}
	wantStatus(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"min_rest_hours": 11}, e.adminToken), http.StatusOK)
	rec = e.do(t, "GET", "/api/shifts?date_from=2026-12-04&date_to=2026-12-04", nil, e.adminToken)
	if got := warningCodes(t, decodeJSON(t, rec)["shifts"].([]any)[0].(map[string]any)["warnings"]); !slices.Equal(got, []string{store.WarnRestTooShort}) {
		t.Fatalf("10 h rest with 11 required: %v", got)
	}
}

// The list's warnings weigh the neighbours outside the listed days: a
// night shift that started the day before (its shift_date outside the
// range) and a shift the morning after, each with too little rest.
func TestShiftListWarningsSeeNeighboursOutsideRange(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Staff")
	// Sam: 20:00-04:00 on the 9th, then 12:00 on the 10th: 8 h of rest.
	e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-09", "start_time": "20:00", "end_time": "04:00", "break_minutes": 30})
	e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-12-10", "start_time": "12:00", "end_time": "16:00"})
	// Kim: until 23:00 on the 10th, then 08:00 on the 11th: 9 h of rest.
	e.createShift(t, map[string]any{"user_id": kim.ID, "shift_date": "2026-12-10", "start_time": "15:00", "end_time": "23:00", "break_minutes": 30})
	e.createShift(t, map[string]any{"user_id": kim.ID, "shift_date": "2026-12-11", "start_time": "08:00", "end_time": "12:00"})
	// Far away shifts change nothing.
	e.createShift(t, map[string]any{"user_id": sam.ID, "shift_date": "2026-11-01", "start_time": "08:00", "end_time": "12:00"})
	e.createShift(t, map[string]any{"user_id": kim.ID, "shift_date": "2027-01-20", "start_time": "08:00", "end_time": "12:00"})
	rec := e.do(t, "GET", "/api/shifts?date_from=2026-12-10&date_to=2026-12-10", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	shifts := decodeJSON(t, rec)["shifts"].([]any)
	if len(shifts) != 2 {
		t.Fatalf("%d shifts listed, want 2", len(shifts))
	}
	for _, s := range shifts {
		m := s.(map[string]any)
		if got := warningCodes(t, m["warnings"]); !slices.Equal(got, []string{store.WarnRestTooShort}) {
			t.Errorf("%s %s: warnings %v, want the short rest", m["user_name"], m["start_time"], got)
		}
	}
}
