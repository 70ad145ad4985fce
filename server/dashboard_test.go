package server

import (
	"net/http"
	"testing"
	"time"
)

// The dashboard says who is clocked in now and since when (an entry from
// last night included), sums today's hours per person, and counts the
// notifications that failed in the last 24 hours.
func TestDashboard(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Weber")
	kim, _ := e.staff(t, "Kim Koch")
	night := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC) // 22:00 Berlin, the day before
	e.clockEntry(t, kim, night, 0, 0)                       // still open at noon
	morning := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	e.clockEntry(t, sam, morning, 2*time.Hour, 0)
	e.clockEntry(t, sam, morning.Add(3*time.Hour), 90*time.Minute, 30)
	e.clock.Set(time.Date(2026, 11, 23, 11, 0, 0, 0, time.UTC)) // 12:00 Berlin

	rec := e.do(t, "GET", "/api/dashboard", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	d := decodeJSON(t, rec)["dashboard"].(map[string]any)
	if d["date"] != "2026-11-23" || d["timezone"] != "Europe/Berlin" || d["generated_at"] != "2026-11-23T11:00:00.000Z" {
		t.Fatalf("dashboard %v", d)
	}
	in := d["clocked_in"].([]any)
	if len(in) != 1 {
		t.Fatalf("clocked in %v", in)
	}
	k := in[0].(map[string]any)
	if k["user_name"] != "Kim Koch" || k["clock_in"] != "2026-11-22T21:00:00.000Z" || k["worked_hours"] != 14.0 {
		t.Fatalf("clocked in %v", k)
	}
	today := d["today"].(map[string]any)
	by := today["by_user"].([]any)
	if today["worked_hours"] != 3.0 || num(today["entries"]) != 2 || len(by) != 1 ||
		by[0].(map[string]any)["user_name"] != "Sam Weber" || by[0].(map[string]any)["worked_hours"] != 3.0 {
		t.Fatalf("today %v", today)
	}
	if n := d["notifications"].(map[string]any); num(n["failed_last_24h"]) != 0 || num(n["queued"]) != 0 {
		t.Fatalf("notifications %v", n)
	}
}

// GET /api/restaurant tells any user the restaurant's name and timezone.
func TestRestaurant(t *testing.T) {
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Weber")
	rec := e.do(t, "GET", "/api/restaurant", nil, staff)
	wantStatus(t, rec, http.StatusOK)
	r := decodeJSON(t, rec)["restaurant"].(map[string]any)
	if r["id"] != e.restaurant.ID || r["name"] != "Test" || r["timezone"] != "Europe/Berlin" {
		t.Fatalf("restaurant %v", r)
	}
}
