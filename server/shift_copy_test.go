package server

import (
	"net/http"
	"sync"
	"testing"

	"posbox/store"
)

// copyWeek copies a week through the API and answers the copy object.
func (e *testEnv) copyWeek(tb testing.TB, from, to string) map[string]any {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/shifts/copy-week", map[string]any{"from_week": from, "to_week": to}, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["copy"].(map[string]any)
}

// Copying last week: every shift at the same weekday and wall time, as a
// pending draft with its break, role and notes; a shift that would
// overlap one the person has, and a disabled person's, are skipped and
// named; cancelled shifts are not copied; nothing is announced.
func TestShiftCopyWeek(t *testing.T) {
	e := newTestEnv(t)
	e.notifyOn(t, store.EventShiftChange) // so the events are stored
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Cook")
	gone, _ := e.staff(t, "Gil Gone")
	night := shiftBody(sam, "2026-11-17", "22:00", "06:00")
	night["break_minutes"], night["role"], night["notes"] = 30, "bar", "keys"
	e.createShift(t, night)
	confirmed := e.createShift(t, shiftBody(kim, "2026-11-18", "10:00", "14:00"))["id"].(string)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+confirmed+"/status", map[string]any{"status": "confirmed"}, e.adminToken), http.StatusOK)
	e.createShift(t, shiftBody(kim, "2026-11-19", "10:00", "14:00"))
	cancelled := e.createShift(t, shiftBody(kim, "2026-11-20", "10:00", "14:00"))["id"].(string)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+cancelled+"/status", map[string]any{"status": "cancelled"}, e.adminToken), http.StatusOK)
	e.createShift(t, shiftBody(gone, "2026-11-21", "10:00", "14:00"))
	wantStatus(t, e.do(t, "PUT", "/api/users/"+gone.ID, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
	// Kim already works Thursday 12:00-16:00 next week.
	e.createShift(t, shiftBody(kim, "2026-11-26", "12:00", "16:00"))
	events := len(e.events(t, store.EventShiftChange))

	res := e.copyWeek(t, "2026-11-16", "2026-11-23")
	if res["from_week"] != "2026-11-16" || res["to_week"] != "2026-11-23" || res["copied"] != 2.0 || res["skipped"] != 2.0 {
		t.Fatalf("copy answered %v", res)
	}
	shifts := res["shifts"].([]any)
	n := shifts[0].(map[string]any)
	if n["user_id"] != sam.ID || n["shift_date"] != "2026-11-24" || n["start_time"] != "22:00" || n["end_time"] != "06:00" ||
		n["break_minutes"] != 30.0 || n["role"] != "bar" || n["notes"] != "keys" || n["status"] != "pending" || n["published_at"] != nil {
		t.Fatalf("the copied night shift %v", n)
	}
	if k := shifts[1].(map[string]any); k["shift_date"] != "2026-11-25" || k["status"] != "pending" {
		t.Fatalf("the copied confirmed shift %v", k)
	}
	reasons := map[string]string{}
	for _, s := range res["skips"].([]any) {
		sk := s.(map[string]any)
		reasons[sk["user_name"].(string)+" "+sk["shift_date"].(string)] = sk["reason"].(string)
	}
	if want := map[string]string{"Kim Cook 2026-11-19": "overlap", "Gil Gone 2026-11-21": "user_inactive"}; len(reasons) != 2 ||
		reasons["Kim Cook 2026-11-19"] != want["Kim Cook 2026-11-19"] || reasons["Gil Gone 2026-11-21"] != want["Gil Gone 2026-11-21"] {
		t.Fatalf("skips %v, want %v", reasons, want)
	}
	if n := len(e.events(t, store.EventShiftChange)); n != events {
		t.Fatalf("copying raised %d shift_change events", n-events)
	}
	// Copying again finds every copy in place: nothing doubles.
	if again := e.copyWeek(t, "2026-11-16", "2026-11-23"); again["copied"] != 0.0 || again["skipped"] != 4.0 {
		t.Fatalf("the second copy %v", again)
	}

	t.Run("Bad", func(t *testing.T) {
		wantFieldError(t, e.do(t, "POST", "/api/shifts/copy-week", map[string]any{"to_week": "2026-11-23"}, e.adminToken), "from_week")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/copy-week", map[string]any{"from_week": "2026-11-16", "to_week": "2026-02-30"}, e.adminToken), "to_week")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/copy-week", map[string]any{"from_week": "2026-11-16", "to_week": "2026-11-22"}, e.adminToken), "to_week")
	})
}

// A copy keeps the wall times across a DST change: Saturday 22:00-06:00
// is 8 hours in the week before, 7 in the night the clocks go forward.
func TestShiftCopyWeekDST(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	b := shiftBody(sam, "2026-03-21", "22:00", "06:00")
	b["break_minutes"] = 30
	if h := e.createShift(t, b)["planned_hours"]; h != 7.5 {
		t.Fatalf("planned %v h, want 7.5", h)
	}
	res := e.copyWeek(t, "2026-03-16", "2026-03-23")
	n := res["shifts"].([]any)[0].(map[string]any)
	if n["shift_date"] != "2026-03-28" || n["start_time"] != "22:00" || n["end_time"] != "06:00" || n["planned_hours"] != 6.5 {
		t.Fatalf("the copy over the spring change %v", n)
	}
	// And back in autumn: 9 hours.
	b = shiftBody(sam, "2026-10-17", "22:00", "06:00")
	e.createShift(t, b)
	n = e.copyWeek(t, "2026-10-12", "2026-10-19")["shifts"].([]any)[0].(map[string]any)
	if n["shift_date"] != "2026-10-24" || n["planned_hours"] != 9.0 {
		t.Fatalf("the copy over the autumn change %v", n)
	}
}

// Copying the same week three times at once over HTTP: one copy lands,
// the others skip every shift; no shift doubles.
func TestShiftCopyWeekConcurrent(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Cook")
	e.createShift(t, shiftBody(sam, "2026-11-16", "10:00", "14:00"))
	e.createShift(t, shiftBody(kim, "2026-11-16", "10:00", "14:00"))
	e.createShift(t, shiftBody(sam, "2026-11-22", "22:00", "06:00"))
	const n = 3
	copied := make([]float64, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			rec := e.do(t, "POST", "/api/shifts/copy-week", map[string]any{"from_week": "2026-11-16", "to_week": "2026-11-23"}, e.adminToken)
			if rec.Code != http.StatusOK {
				t.Errorf("copy %d: %d %s", i, rec.Code, rec.Body.String())
				return
			}
			copied[i] = decodeJSON(t, rec)["copy"].(map[string]any)["copied"].(float64)
		}()
	}
	close(start)
	wg.Wait()
	total := 0.0
	for _, c := range copied {
		if c != 0 && c != 3 {
			t.Fatalf("copies %v: one copied part of the week", copied)
		}
		total += c
	}
	if total != 3 || len(e.listShifts(t, "?date_from=2026-11-23&date_to=2026-11-29")) != 3 {
		t.Fatalf("copies %v; want exactly one copy's 3 shifts", copied)
	}
}

// A disabled or deleted user's shifts that still count are unstaffed; a
// cancelled one is not.
func TestShiftUnstaffed(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Cook")
	a := e.createShift(t, shiftBody(sam, "2026-11-23", "10:00", "14:00"))["id"].(string)
	c := e.createShift(t, shiftBody(sam, "2026-11-24", "10:00", "14:00"))["id"].(string)
	k := e.createShift(t, shiftBody(kim, "2026-11-23", "10:00", "14:00"))["id"].(string)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+c+"/status", map[string]any{"status": "cancelled"}, e.adminToken), http.StatusOK)
	unstaffed := func() map[string]bool {
		out := map[string]bool{}
		for _, sh := range e.listShifts(t, "") {
			out[sh["id"].(string)] = sh["unstaffed"].(bool)
		}
		return out
	}
	if u := unstaffed(); u[a] || u[c] || u[k] {
		t.Fatalf("unstaffed before anyone left: %v", u)
	}
	wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "DELETE", "/api/users/"+kim.ID, nil, e.adminToken), http.StatusNoContent)
	if u := unstaffed(); !u[a] || u[c] || !u[k] {
		t.Fatalf("after disabling Sam and deleting Kim: %v, want %s and %s unstaffed", u, a, k)
	}
	// Only the unstaffed ones, from a date on.
	var ids []string
	for _, sh := range e.listShifts(t, "?unstaffed=true&date_from=2026-11-23") {
		ids = append(ids, sh["id"].(string))
	}
	if len(ids) != 2 || (ids[0] != a && ids[0] != k) || (ids[1] != a && ids[1] != k) {
		t.Fatalf("unstaffed=true lists %v, want %s and %s", ids, a, k)
	}
	if n := len(e.listShifts(t, "?unstaffed=true&date_from=2026-11-24")); n != 0 {
		t.Fatalf("unstaffed from the 24th: %d", n)
	}
	wantFieldError(t, e.do(t, "GET", "/api/shifts?unstaffed=yes", nil, e.adminToken), "unstaffed")
}

// Each warning carries its numbers by name (a planned 10 h rest here).
func TestShiftWarningParams(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	e.createShift(t, shiftBody(sam, "2026-11-23", "12:00", "22:00"))
	ws := e.createShift(t, shiftBody(sam, "2026-11-24", "08:00", "12:00"))["warnings"].([]any)
	if len(ws) != 1 {
		t.Fatalf("warnings %v", ws)
	}
	w := ws[0].(map[string]any)
	p := w["params"].(map[string]any)
	if w["code"] != "rest_too_short" || p["rest_minutes"] != 600.0 || p["required_hours"] != 11.0 {
		t.Fatalf("warning %v", w)
	}
}
