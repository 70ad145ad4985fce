package server

import (
	"net/http"
	"testing"
)

// A staff member sees their own shifts (this week and next by default,
// notes and status included) and nobody else's.
func TestMyShifts(t *testing.T) {
	e := newTestEnv(t) // Sunday 2026-11-22 in Berlin: this week is 16-22 Nov, next 23-29
	sam, samTok := e.staff(t, "Sam Staff")
	kim, kimTok := e.staff(t, "Kim Cook")
	notes := "bring the keys"
	body := shiftBody(sam, "2026-11-23", "18:00", "02:00")
	body["notes"], body["role"] = notes, "bar"
	mine := e.createShift(t, body)["id"].(string)
	cancelled := e.createShift(t, shiftBody(sam, "2026-11-16", "10:00", "14:00"))["id"].(string)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+cancelled+"/status", map[string]any{"status": "cancelled"}, e.adminToken), http.StatusOK)
	e.createShift(t, shiftBody(sam, "2026-11-30", "10:00", "14:00")) // the week after next
	e.createShift(t, shiftBody(sam, "2026-11-15", "10:00", "14:00")) // last week
	e.createShift(t, shiftBody(kim, "2026-11-23", "10:00", "14:00"))

	rec := e.do(t, "GET", "/api/shifts/mine", nil, samTok)
	wantStatus(t, rec, http.StatusOK)
	got := decodeJSON(t, rec)["shifts"].([]any)
	if len(got) != 2 {
		t.Fatalf("%d shifts, want Sam's two of this week and next: %s", len(got), rec.Body.String())
	}
	first, second := got[0].(map[string]any), got[1].(map[string]any)
	if first["id"] != cancelled || first["status"] != "cancelled" || second["id"] != mine || second["notes"] != notes ||
		second["role"] != "bar" || second["user_id"] != sam.ID || second["end_time"] != "02:00" {
		t.Fatalf("shifts %v", got)
	}
	// An explicit range.
	rec = e.do(t, "GET", "/api/shifts/mine?date_from=2026-11-30&date_to=2026-11-30", nil, samTok)
	if n := len(decodeJSON(t, rec)["shifts"].([]any)); n != 1 {
		t.Fatalf("range 30 Nov: %d shifts", n)
	}
	// Kim sees Kim's only.
	rec = e.do(t, "GET", "/api/shifts/mine", nil, kimTok)
	for _, s := range decodeJSON(t, rec)["shifts"].([]any) {
		if s.(map[string]any)["user_id"] != kim.ID {
			t.Fatalf("Kim sees another's shift: %s", rec.Body.String())
		}
	}
	// The admin list stays admin only.
	wantProblem(t, e.do(t, "GET", "/api/shifts", nil, samTok), http.StatusForbidden, eForbidden)
	t.Run("BadRange", func(t *testing.T) {
		wantFieldError(t, e.do(t, "GET", "/api/shifts/mine?date_from=23.11.2026", nil, samTok), "date_from")
		wantFieldError(t, e.do(t, "GET", "/api/shifts/mine?date_from=2026-11-23&date_to=2026-11-22", nil, samTok), "date_to")
		wantFieldError(t, e.do(t, "GET", "/api/shifts/mine?date_from=2026-01-01&date_to=2026-12-31", nil, samTok), "date_to")
	})
}

func TestDefaultMineRange(t *testing.T) {
	for _, c := range []struct{ now, from, to string }{
		{"2026-11-23", "2026-11-23", "2026-12-06"}, // Monday
		{"2026-11-22", "2026-11-16", "2026-11-29"}, // Sunday
		{"2026-12-30", "2026-12-28", "2027-01-10"},
	} {
		from, to := defaultMineRange(mustDate(t, c.now))
		if from != c.from || to != c.to {
			t.Errorf("%s: %s..%s, want %s..%s", c.now, from, to, c.from, c.to)
		}
	}
}
