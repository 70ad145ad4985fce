package server

import (
	"maps"
	"net/http"
	"testing"

	"posbox/store"
)

// shiftBody is a create body for user u.
func shiftBody(u *store.User, date, start, end string) map[string]any {
	return map[string]any{"user_id": u.ID, "shift_date": date, "start_time": start, "end_time": end}
}

// createShift creates a shift through the API and returns it; it is
// published at once unless the body says "publish" itself.
func (e *testEnv) createShift(tb testing.TB, body map[string]any) map[string]any {
	tb.Helper()
	if _, ok := body["publish"]; !ok {
		body = maps.Clone(body)
		body["publish"] = true
	}
	rec := e.do(tb, "POST", "/api/shifts", body, e.adminToken)
	wantStatus(tb, rec, http.StatusCreated)
	return decodeJSON(tb, rec)["shift"].(map[string]any)
}

// events returns the data of the restaurant's events of one type, oldest
// first.
func (e *testEnv) events(tb testing.TB, typ string) []map[string]any {
	tb.Helper()
	evs := e.storedEvents(tb, typ)
	out := make([]map[string]any, len(evs))
	for i, ev := range evs {
		decodeInto(tb, ev.Data, &out[len(evs)-1-i])
	}
	return out
}

// listShifts lists shifts through the API.
func (e *testEnv) listShifts(tb testing.TB, query string) []map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/shifts"+query, nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	var body struct {
		Shifts []map[string]any `json:"shifts"`
	}
	decodeInto(tb, rec.Body.Bytes(), &body)
	return body.Shifts
}
