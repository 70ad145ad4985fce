package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"posbox/store"
)

// A TSS that signed before posbox archived it: its first counters are
// gone at the provider, so the first range can never pass. The admin
// declares the first counter to archive from, with a reason: the status
// shows the start and the reason and claims no gap before it, the chain
// is archived from there, the set-aside range stays listed with why, and
// the declaration is kept and only moves forward.
func TestTSEArchiveStartAPI(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{archive: true})
	ctx := context.Background()
	// The TSS counted to 100 before this box: the simulator has nothing
	// of those counters, as fiskaly after three months.
	if err := e.sim.ForgetHistory(100, 40); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		e.sell(t, sale("KASSE-01", 1000+i), e.adminToken)
	}
	if err := e.arc.Run(ctx); err != nil {
		t.Fatal(err)
	}
	st := e.status(t)["archive"].(map[string]any)
	if st["last_archived_counter"] != float64(0) || st["rejected_ranges"] != float64(1) || st["start"] != nil {
		t.Fatalf("archive status with the first counters gone: %v", st)
	}

	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"first_signature_counter": 101}, "reason"},
		{map[string]any{"first_signature_counter": 101, "reason": "   "}, "reason"},
		{map[string]any{"reason": "weg"}, "first_signature_counter"},
		{map[string]any{"first_signature_counter": 1, "reason": "weg"}, "first_signature_counter"},
		{map[string]any{"first_signature_counter": 500, "reason": "weg"}, "first_signature_counter"}, // beyond what the TSS signed
	} {
		rec := e.do(t, "POST", "/api/tse/archive-starts", tc.body, e.adminToken)
		wantProblem(t, rec, http.StatusUnprocessableEntity, store.EValidation)
		if !strings.Contains(rec.Body.String(), `"field":"`+tc.field+`"`) {
			t.Fatalf("%v: %s", tc.body, rec.Body.String())
		}
	}
	if n := e.countRows(t, "SELECT count(*) FROM tse_archive_starts"); n != 0 {
		t.Fatalf("%d starts after refused requests", n)
	}

	const why = "Die TSE hat vor der Einrichtung von posbox signiert; fiskaly hat die Zähler bis 100 nach drei Monaten gelöscht."
	rec := e.do(t, "POST", "/api/tse/archive-starts", map[string]any{"first_signature_counter": 101, "reason": why}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	s := decodeJSON(t, rec)["archive_start"].(map[string]any)
	if s["first_signature_counter"] != float64(101) || s["reason"] != why || s["set_by_name"] != e.admin.Name || s["tss_id"] != e.tssID {
		t.Fatalf("archive_start %v", s)
	}
	st = e.status(t)["archive"].(map[string]any)
	start, _ := st["start"].(map[string]any)
	if st["last_archived_counter"] != float64(100) || st["rejected_ranges"] != float64(0) || st["oldest_unarchived_at"] == nil ||
		start == nil || start["reason"] != why || start["first_signature_counter"] != float64(101) {
		t.Fatalf("archive status after the declaration: %v", st)
	}

	if err := e.arc.Run(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := e.sim.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st = e.status(t)["archive"].(map[string]any)
	if st["last_archived_counter"] != float64(info.SignatureCounter) || st["oldest_unarchived_at"] != nil || st["warning"] != nil {
		t.Fatalf("archive status after the run: %v", st)
	}
	rec = e.do(t, "GET", "/api/tse/archives", nil, e.adminToken)
	list := decodeJSON(t, rec)["archives"].([]any)
	var archived, setAside int
	for _, x := range list {
		a := x.(map[string]any)
		switch {
		case a["state"] == "archived" && a["first_signature_counter"] == float64(101):
			archived++
		case a["state"] == "failed" && a["reason_code"] == store.ReasonArchiveStart && strings.Contains(a["reason"].(string), why):
			setAside++
		}
	}
	if archived != 1 || setAside != 1 {
		t.Fatalf("archives %v", list)
	}

	// Only forward, and never at or before the archived chain's end.
	for _, first := range []int{50, 101, int(info.SignatureCounter)} {
		rec = e.do(t, "POST", "/api/tse/archive-starts", map[string]any{"first_signature_counter": first, "reason": "nochmal"}, e.adminToken)
		wantProblem(t, rec, http.StatusUnprocessableEntity, store.EValidation)
	}
	rec = e.do(t, "GET", "/api/tse/archive-starts", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if l := decodeJSON(t, rec)["archive_starts"].([]any); len(l) != 1 || l[0].(map[string]any)["reason"] != why {
		t.Fatalf("archive_starts %v", l)
	}
	// The history is kept: the database refuses to change or delete it.
	for _, q := range []string{`UPDATE tse_archive_starts SET reason = 'x'`, `DELETE FROM tse_archive_starts`,
		`INSERT INTO tse_archive_starts (id, restaurant_id, tss_id, first_counter, reason, set_by, set_at)
			SELECT 'x', restaurant_id, tss_id, 50, 'zurück', set_by, set_at FROM tse_archive_starts`} {
		if err := e.st.Write(ctx, func(tx *store.Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil {
			t.Fatalf("%s: allowed", q)
		}
	}
}
