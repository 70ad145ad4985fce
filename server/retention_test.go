package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"posbox/store"
)

// The console's view of the retention guard: nothing held on a new box;
// a hold says why and which day; a confirmation of another day or a
// missing day is refused and changes nothing; the right day is recorded
// with the admin's name and marks the hold confirmed; staff may do none
// of it.
func TestConfirmTheClockThroughTheAPI(t *testing.T) {
	e := newTestEnv(t)
	_, staffTok := e.staff(t, "Kim Koch")
	get := func() map[string]any {
		t.Helper()
		return decodeJSON(t, e.do(t, "GET", "/api/retention", nil, e.adminToken))["retention"].(map[string]any)
	}
	r := get()
	if r["held"] != nil || r["deleted_before"] != nil || len(r["confirmations"].([]any)) != 0 || r["clock"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("a new box: %v", r)
	}
	wantProblem(t, e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{"delete_before": "2019-01-01"}, e.adminToken),
		http.StatusConflict, "conflict")

	newest := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	if err := e.st.HoldRetention(context.Background(), e.restaurant.ID, store.RetentionHold{Reason: store.HoldClockAhead,
		NewestRecord: &newest, DeleteBefore: "2019-01-01", LastDeleteBefore: "2018-01-01"}); err != nil {
		t.Fatal(err)
	}
	h := get()["held"].(map[string]any)
	if h["reason"] != "clock_ahead" || h["delete_before"] != "2019-01-01" || h["last_delete_before"] != "2018-01-01" ||
		h["newest_record"] != "2026-03-01T18:00:00.000Z" || h["confirmed"] != false || h["since"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("the hold: %v", h)
	}

	wantFieldError(t, e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{}, e.adminToken), "delete_before")
	wantFieldError(t, e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{"delete_before": "1.1.2019"}, e.adminToken), "delete_before")
	wantProblem(t, e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{"delete_before": "2020-01-01"}, e.adminToken),
		http.StatusConflict, "conflict")
	wantProblem(t, e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{"delete_before": "2019-01-01"}, staffTok),
		http.StatusForbidden, "forbidden")
	wantProblem(t, e.do(t, "GET", "/api/retention", nil, staffTok), http.StatusForbidden, "forbidden")
	if n := len(get()["confirmations"].([]any)); n != 0 {
		t.Fatalf("refused confirmations left %d records", n)
	}

	rec := e.do(t, "POST", "/api/retention/confirm-clock", map[string]any{"delete_before": "2019-01-01"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	r = decodeJSON(t, rec)["retention"].(map[string]any)
	if r["held"].(map[string]any)["confirmed"] != true {
		t.Errorf("the hold after the confirmation: %v", r["held"])
	}
	c := r["confirmations"].([]any)
	if len(c) != 1 || c[0].(map[string]any)["confirmed_by_name"] != e.admin.Name || c[0].(map[string]any)["delete_before"] != "2019-01-01" ||
		c[0].(map[string]any)["reason"] != "clock_ahead" {
		t.Errorf("the confirmations: %v", c)
	}
}
