package server

import (
	"net/http"
	"reflect"
	"testing"

	"posbox/store"
)

// publish publishes the week of date through the API and answers the
// number of shifts it published.
func (e *testEnv) publish(tb testing.TB, date string) int {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/shifts/publish", map[string]any{"week": date}, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return int(decodeJSON(tb, rec)["publish"].(map[string]any)["published"].(float64))
}

// A new shift is a draft: staff do not see it and no shift_change goes
// out, whatever the admin changes, until its week is published; then one
// "published" per shift, and later changes raise events as before.
// Publishing again publishes nothing.
func TestShiftDraftsAndPublish(t *testing.T) {
	e := newTestEnv(t) // Sunday 2026-11-22; next week is 23-29 Nov
	sam, samTok := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventShiftChange) // so the events are stored, and one for a draft would be
	draft := func(date, start, end string) string {
		b := shiftBody(sam, date, start, end)
		b["publish"] = false
		sh := e.createShift(t, b)
		if sh["published_at"] != nil {
			t.Fatalf("a new shift is published: %v", sh)
		}
		return sh["id"].(string)
	}
	a := draft("2026-11-23", "10:00", "14:00")
	b := draft("2026-11-25", "10:00", "14:00")
	gone := draft("2026-11-26", "10:00", "14:00")
	cancelled := draft("2026-11-27", "10:00", "14:00")
	other := draft("2026-11-30", "10:00", "14:00") // the week after
	wantStatus(t, e.do(t, "PUT", "/api/shifts/"+b, map[string]any{"end_time": "15:00"}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+b+"/status", map[string]any{"status": "confirmed"}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+cancelled+"/status", map[string]any{"status": "cancelled"}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "DELETE", "/api/shifts/"+gone, nil, e.adminToken), http.StatusNoContent)
	if n := len(e.events(t, store.EventShiftChange)); n != 0 {
		t.Fatalf("%d shift_change events for drafts, want 0", n)
	}
	mine := func() []string {
		rec := e.do(t, "GET", "/api/shifts/mine?date_from=2026-11-23&date_to=2026-12-06", nil, samTok)
		wantStatus(t, rec, http.StatusOK)
		var ids []string
		for _, s := range decodeJSON(t, rec)["shifts"].([]any) {
			ids = append(ids, s.(map[string]any)["id"].(string))
		}
		return ids
	}
	if got := mine(); len(got) != 0 {
		t.Fatalf("staff see drafts: %v", got)
	}

	// Publish the week of any of its dates (a Thursday here).
	rec := e.do(t, "POST", "/api/shifts/publish", map[string]any{"week": "2026-11-26"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	res := decodeJSON(t, rec)["publish"].(map[string]any)
	if res["from"] != "2026-11-23" || res["to"] != "2026-11-29" || res["published"] != 2.0 || len(res["shifts"].([]any)) != 2 {
		t.Fatalf("publish answered %v", res)
	}
	if got := mine(); !reflect.DeepEqual(got, []string{a, b}) {
		t.Fatalf("after publishing staff see %v, want %v", got, []string{a, b})
	}
	evs := e.events(t, store.EventShiftChange)
	if len(evs) != 2 || evs[0]["action"] != "published" || evs[0]["shift"].(map[string]any)["id"] != a ||
		evs[1]["shift"].(map[string]any)["status"] != "confirmed" || evs[1]["by"].(map[string]any)["name"] != "Ada Admin" {
		t.Fatalf("events after publishing: %v", evs)
	}
	for _, sh := range e.listShifts(t, "?date_from=2026-11-23&date_to=2026-11-30") {
		published := sh["published_at"] != nil
		if want := sh["id"] == a || sh["id"] == b; published != want {
			t.Errorf("shift %v published %v, want %v", sh["shift_date"], published, want)
		}
	}

	// Idempotent: again, nothing is published and nothing raised.
	if n := e.publish(t, "2026-11-23"); n != 0 {
		t.Fatalf("publishing again published %d", n)
	}
	if n := len(e.events(t, store.EventShiftChange)); n != 2 {
		t.Fatalf("%d events after publishing again, want 2", n)
	}
	// A published shift's change raises shift_change as before.
	wantStatus(t, e.do(t, "PUT", "/api/shifts/"+a, map[string]any{"role": "bar"}, e.adminToken), http.StatusOK)
	if evs := e.events(t, store.EventShiftChange); len(evs) != 3 || evs[2]["action"] != "updated" {
		t.Fatalf("events after changing a published shift: %v", evs)
	}
	// The next week is still a draft; a shift created with publish is not.
	if got := mine(); len(got) != 2 {
		t.Fatalf("staff see %v", got)
	}
	pub := e.createShift(t, shiftBody(sam, "2026-12-01", "10:00", "14:00"))
	if pub["published_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("publish: true gave %v", pub["published_at"])
	}
	if got := mine(); len(got) != 3 || got[2] != pub["id"] || got[1] == other {
		t.Fatalf("staff see %v", got)
	}
	if evs := e.events(t, store.EventShiftChange); len(evs) != 4 || evs[3]["action"] != "created" {
		t.Fatalf("a published create raised %v", evs)
	}

	t.Run("Bad", func(t *testing.T) {
		wantFieldError(t, e.do(t, "POST", "/api/shifts/publish", map[string]any{}, e.adminToken), "week")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/publish", map[string]any{"week": "26.11.2026"}, e.adminToken), "week")
		wantProblem(t, e.do(t, "POST", "/api/shifts/publish", map[string]any{"week": "2026-11-23"}, samTok), http.StatusForbidden, eForbidden)
	})
}

// A staff member's warnings are judged against what they can see: a draft
// 10 hours after a published shift warns the admin, not the staff member.
func TestMyShiftWarningsIgnoreDrafts(t *testing.T) {
	e := newTestEnv(t)
	sam, samTok := e.staff(t, "Sam Staff")
	first := shiftBody(sam, "2026-11-23", "12:00", "22:00")
	first["break_minutes"] = 45
	e.createShift(t, first)
	b := shiftBody(sam, "2026-11-24", "08:00", "12:00")
	b["publish"] = false
	if ws := e.createShift(t, b)["warnings"].([]any); len(ws) != 1 {
		t.Fatalf("the admin sees %v, want the rest warning", ws)
	}
	rec := e.do(t, "GET", "/api/shifts/mine", nil, samTok)
	for _, s := range decodeJSON(t, rec)["shifts"].([]any) {
		if ws := s.(map[string]any)["warnings"].([]any); len(ws) != 0 {
			t.Fatalf("staff see a warning from a draft: %v", ws)
		}
	}
}
