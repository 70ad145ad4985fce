package server

import (
	"net/http"
	"testing"

	"posbox/store"
)

// shiftBody is a create body for user u.
func shiftBody(u *store.User, date, start, end string) map[string]any {
	return map[string]any{"user_id": u.ID, "shift_date": date, "start_time": start, "end_time": end}
}

// createShift creates a shift through the API and returns it.
func (e *testEnv) createShift(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	rec := e.do(t, "POST", "/api/shifts", body, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	return decodeJSON(t, rec)["shift"].(map[string]any)
}

// events returns the data of the restaurant's events of one type, oldest
// first.
func (e *testEnv) events(t *testing.T, typ string) []map[string]any {
	t.Helper()
	evs := e.storedEvents(t, typ)
	out := make([]map[string]any, len(evs))
	for i, ev := range evs {
		decodeInto(t, ev.Data, &out[len(evs)-1-i])
	}
	return out
}

// listShifts lists shifts through the API.
func (e *testEnv) listShifts(t *testing.T, query string) []map[string]any {
	t.Helper()
	rec := e.do(t, "GET", "/api/shifts"+query, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var body struct {
		Shifts []map[string]any `json:"shifts"`
	}
	decodeInto(t, rec.Body.Bytes(), &body)
	return body.Shifts
}
