package server

import "testing"

// The plan's week routes (server/shift_week.go).

func FuzzPublishShiftWeek(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	e.created(f, "/api/shifts", "shift", map[string]any{"user_id": u.ID, "shift_date": "2026-11-27", "start_time": "18:00", "end_time": "22:00"})
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/shifts/publish"), token: e.adminToken},
		`{"week":"2026-11-23"}`, `{"week":"2026-11-29"}`, `{"week":"2026-02-30"}`, `{"week":null}`, `{}`, `{"week":"23.11.2026"}`)
}

func FuzzCopyShiftWeek(f *testing.F) {
	e := newTestEnv(f)
	u, _ := e.staff(f, "Sam Staff")
	e.created(f, "/api/shifts", "shift", map[string]any{"user_id": u.ID, "shift_date": "2026-11-27", "start_time": "18:00", "end_time": "02:00"})
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/shifts/copy-week"), token: e.adminToken},
		`{"from_week":"2026-11-23","to_week":"2026-11-30"}`, `{"from_week":"2026-11-23","to_week":"2026-11-24"}`,
		`{"from_week":"2026-03-23","to_week":"2026-03-16"}`, `{"from_week":null,"to_week":"2026-11-30"}`, `{}`,
		`{"from_week":"2026-11-23","to_week":"9999-12-31"}`)
}
