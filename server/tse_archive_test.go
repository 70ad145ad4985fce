package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsetar"
)

// archiveOf reads GET /api/tse/archives/:id.
func (e *tseEnv) archiveOf(tb testing.TB, id string) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/tse/archives/"+id, nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["archive"].(map[string]any)
}

// The admin's view of the archive: the status says what is not archived
// yet and warns past 60 days; after the nightly job the list shows the
// verified range, the file downloads as it was verified (ETag = its
// SHA-256, 304 on If-None-Match) and verifies against the TSS key; an
// export of dates starts at once (202) and is followed to archived.
func TestTSEArchiveAPI(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{archive: true})
	ctx := context.Background()
	var info tse.TSSInfo
	for i := range 3 {
		e.sell(t, sale("KASSE-01", 1000+i), e.adminToken)
	}
	st := e.status(t)["archive"].(map[string]any)
	if st["last_archived_counter"] != float64(0) || st["oldest_unarchived_at"] == nil || st["warning"] != nil {
		t.Fatalf("archive status before the first run: %v", st)
	}
	// Two months later the nightly job has still not run: a warning.
	e.clock.Add(61 * 24 * time.Hour)
	tok, err := IssueToken(testKey, e.admin, e.clock.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	e.adminToken = tok
	st = e.status(t)["archive"].(map[string]any)
	if w, _ := st["warning"].(string); !strings.Contains(w, "three months") || st["oldest_unarchived_days"] != float64(61) {
		t.Fatalf("no warning at 61 days: %v", st)
	}

	if err = e.arc.Run(ctx); err != nil {
		t.Fatal(err)
	}
	rec := e.do(t, "GET", "/api/tse/archives", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	list := decodeJSON(t, rec)["archives"].([]any)
	if len(list) != 1 {
		t.Fatalf("archives %v", list)
	}
	a := list[0].(map[string]any)
	info, err = e.sim.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a["state"] != "archived" || a["verification"] != "passed" || a["kind"] != "incremental" || a["first_signature_counter"] != float64(1) ||
		a["last_signature_counter"] != float64(info.SignatureCounter) || a["next_attempt_at"] != nil {
		t.Fatalf("archive %v", a)
	}
	id, sum, name := a["id"].(string), a["sha256"].(string), a["file_name"].(string)

	rec = e.do(t, "GET", "/api/tse/archives/"+id+"/file", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	h := rec.Header()
	got := sha256.Sum256(rec.Body.Bytes())
	if h.Get("Content-Type") != "application/x-tar" || h.Get("Content-Disposition") != `attachment; filename="`+name+`"` ||
		h.Get("ETag") != `"`+sum+`"` || hex.EncodeToString(got[:]) != sum || int64(rec.Body.Len()) != int64(a["size_bytes"].(float64)) {
		t.Fatalf("download: %v, %d bytes", h, rec.Body.Len())
	}
	pub, err := tse.ParsePublicKey(info.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := tsetar.Verify(bytes.NewReader(rec.Body.Bytes()), tsetar.Options{PublicKey: pub, FirstCounter: 1,
		LastCounter: info.SignatureCounter}); err != nil || rep.Transactions != 6 {
		t.Fatalf("the download does not verify: %v", err)
	}
	rec = e.do(t, "GET", "/api/tse/archives/"+id+"/file", nil, e.adminToken, "If-None-Match", `"`+sum+`"`)
	wantStatus(t, rec, http.StatusNotModified)

	st = e.status(t)["archive"].(map[string]any)
	if st["last_archived_counter"] != float64(info.SignatureCounter) || st["oldest_unarchived_at"] != nil || st["warning"] != nil {
		t.Fatalf("archive status after the run: %v", st)
	}

	// An export of today's dates, to hand over.
	today := e.clock.Now().In(e.restaurant.Location()).Format(store.DateFormat)
	first := e.clock.Now().Add(-62 * 24 * time.Hour).In(e.restaurant.Location()).Format(store.DateFormat)
	rec = e.do(t, "POST", "/api/tse/archives", map[string]any{"from": first, "to": today}, e.adminToken)
	wantStatus(t, rec, http.StatusAccepted)
	d := decodeJSON(t, rec)["archive"].(map[string]any)
	if d["kind"] != "dates" || d["period_start"] == nil || d["first_signature_counter"] != nil {
		t.Fatalf("export of dates: %v", d)
	}
	poll.Until(t, 15*time.Second, "the export of dates", func() bool { return e.archiveOf(t, d["id"].(string))["state"] == "archived" })
	d = e.archiveOf(t, d["id"].(string))
	if !strings.Contains(d["file_name"].(string), "_dates_") || d["verification"] != "passed" {
		t.Fatalf("export of dates: %v", d)
	}
	rec = e.do(t, "GET", "/api/tse/archives/"+d["id"].(string)+"/file", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
}

// Bad requests change nothing; a range not archived yet has no file.
func TestTSEArchiveAPIRefusals(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{archive: true})
	today := e.clock.Now().In(e.restaurant.Location())
	day := func(d int) string { return today.AddDate(0, 0, d).Format(store.DateFormat) }
	for _, tc := range []struct {
		body  any
		code  string
		field string
	}{
		{map[string]any{}, store.EValidation, "from"},
		{map[string]any{"from": "22.11.2026", "to": day(0)}, store.EValidation, "from"},
		{map[string]any{"from": day(0), "to": day(-1)}, store.EValidation, "to"},
		{map[string]any{"from": day(1), "to": day(1)}, store.EValidation, "from"},
		{map[string]any{"from": day(-400), "to": day(0)}, store.EValidation, "to"},
		{map[string]any{"from": day(0), "to": day(0), "client_id": "x"}, eUnknownField, ""},
	} {
		rec := e.do(t, "POST", "/api/tse/archives", tc.body, e.adminToken)
		if tc.code == eUnknownField {
			wantProblem(t, rec, http.StatusBadRequest, tc.code)
			continue
		}
		wantProblem(t, rec, http.StatusUnprocessableEntity, tc.code)
		if !strings.Contains(rec.Body.String(), `"field":"`+tc.field+`"`) {
			t.Fatalf("%v: %s", tc.body, rec.Body.String())
		}
	}
	if n := e.countRows(t, "SELECT count(*) FROM tse_archives"); n != 0 {
		t.Fatalf("%d archive rows after refused requests", n)
	}
	rows, err := e.st.PlanTSEArchiveRanges(context.Background(), e.restaurant.ID, e.tssID, "ab", 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	rec := e.do(t, "GET", "/api/tse/archives/"+rows[0].ID+"/file", nil, e.adminToken)
	wantProblem(t, rec, http.StatusConflict, store.EConflict)
}
